// `@mcp:<server>/<uri>` (docs/mentions.md): an MCP resource attached to a message. The server's
// name ends at the first `/` after `mcp:`; the rest is the URI exactly as the server lists it (it
// may hold `/`, `:` and `?`). A URI with a space or a quote, or ending in sentence punctuation, is
// written quoted: `@mcp:"<server>/<uri>"`. When the message is sent, the resource is read from its
// server (started and waited for, as the turn would) and attached bounded like a mentioned file
// (the mention limits); what cannot be attached is said in its entry, and the message still goes.
// In the composer, `@mcp:` lists the connected servers' resources.
import { createHash } from 'node:crypto';
import type { FeatureServices } from '../../agent/chatFeature';
import { errorMessage } from '../../base/errors';
import type { ContributedMention, MentionContext, MentionKind, MentionSource } from '../../mentions/kinds';
import { type MentionLimits, takeLines } from '../../mentions/limits';
import { contributedMentionText } from '../../mentions/parse';
import type { McpServers } from '../../mcp/servers';
import { describeEntry } from '../../mcp/serverState';
import type { McpContent } from '../../mcp/session';
import { decodedBytes } from '../../mcp/toolResult';
import { fuzzyScore, MAX_MENTION_CANDIDATES, MAX_OFFER_CHARS, type MentionOffer } from '../../protocol/mentions';
import type { StagedEntry } from '../../reminders/definition';
import { formatBytes, splitLines, utf8Length } from '../../tools/text';
import {
	type BinaryPart,
	MENTION_MCP_RESOURCE,
	mentionedResource,
	mentionedResources,
	resourceAlreadyInContext,
	resourceRef,
	resourceRejected,
} from './mentionReminder';

/** Whether MCP may run in the window, and the wait for its servers (src/vscode/mcp/mcpWindow.ts). */
export interface McpGate {
	/** False in Restricted Mode: no MCP server runs in an untrusted workspace. */
	trusted(): boolean;
	/** Starts the servers the first time (the workspace's configuration read first) and waits for them, or until `signal` aborts. */
	ready(signal: AbortSignal): Promise<void>;
}

declare module '../../agent/chatFeature' {
	interface FeatureServices {
		/** The window's MCP gate: `@mcp:` mentions are made only where the window hands it (with `mcp`). */
		readonly mcpGate?: McpGate;
	}
}

export const MCP_PREFIX = 'mcp:';

export const MALFORMED =
	'it names no resource. Write @mcp:<server>/<uri>: the server\'s name, a slash, then the resource\'s URI exactly as the server lists it (quoted, @mcp:"<server>/<uri>", when the URI holds a space or a quote or ends in punctuation).';
export const RESTRICTED = 'this workspace is in Restricted Mode, where no MCP server runs. Trust the workspace to use its MCP servers.';

/** `server/uri`: the server's name ends at the first `/`. */
export function resourceTarget(body: string): { readonly server: string; readonly uri: string } | undefined {
	const slash = body.indexOf('/');
	return slash <= 0 || slash === body.length - 1 ? undefined : { server: body.slice(0, slash), uri: body.slice(slash + 1) };
}

/** How the composer writes a mention of `uri` of `server` (undefined: it cannot be written). */
export function resourceMentionText(server: string, uri: string): string | undefined {
	return server.includes('/') ? undefined : contributedMentionText(MCP_PREFIX, `${server}/${uri}`);
}

interface TextPart {
	readonly uri: string;
	readonly mimeType?: string;
	readonly text: string;
}

function partsOf(uri: string, contents: readonly McpContent[]): { readonly texts: TextPart[]; readonly binary: BinaryPart[] } {
	const texts: TextPart[] = [];
	const binary: BinaryPart[] = [];
	for (const block of contents) {
		if (block.type === 'resource') {
			const type = block.mimeType === undefined ? {} : { mimeType: block.mimeType };
			if (block.text !== undefined) {
				texts.push({ uri: block.uri, ...type, text: block.text });
			} else {
				binary.push({ uri: block.uri, ...type, bytes: decodedBytes(block.blob ?? '') });
			}
		} else if (block.type === 'text') {
			texts.push({ uri, text: block.text });
		} else if (block.type === 'resource_link') {
			texts.push({ uri, text: `Resource link: ${block.name} (${block.uri})` });
		} else {
			binary.push({ uri, mimeType: block.mimeType, bytes: decodedBytes(block.data) });
		}
	}
	return { texts, binary };
}

/** One message's `@mcp:` mentions: what the chat was given (its records) and what this message already attached. */
class ResourceMentions {
	private readonly given: ReturnType<typeof mentionedResources>;
	private readonly attached = new Set<string>();
	private readonly limits: MentionLimits;

	constructor(
		private readonly servers: McpServers,
		private readonly gate: McpGate,
		context: MentionContext,
	) {
		this.given = mentionedResources(context.records);
		this.limits = context.limits;
	}

	async expand(mention: ContributedMention, signal: AbortSignal): Promise<StagedEntry> {
		const target = resourceTarget(mention.body);
		if (!target) {
			return resourceRejected(mention.raw, MALFORMED);
		}
		if (!this.gate.trusted()) {
			return resourceRejected(mention.raw, RESTRICTED);
		}
		await this.gate.ready(signal);
		signal.throwIfAborted();
		const why = this.unavailable(target.server);
		if (why !== undefined) {
			return resourceRejected(mention.raw, why);
		}
		let contents: McpContent[];
		try {
			contents = await this.servers.readResource(target.server, target.uri, signal);
		} catch (error) {
			if (signal.aborted) {
				throw error;
			}
			return resourceRejected(mention.raw, `the MCP server "${target.server}" could not read it: ${errorMessage(error)}`);
		}
		return this.attach(mention.raw, target.server, target.uri, contents);
	}

	/** Why `server` cannot be read now, or undefined when it can. */
	private unavailable(server: string): string | undefined {
		const entries = this.servers.entries();
		const entry = entries.find((candidate) => candidate.config.name === server);
		if (!entry) {
			const names = entries.map((candidate) => candidate.config.name);
			return names.length === 0
				? 'no MCP server is configured (add one to aside.mcp.servers, or to the workspace\'s .mcp.json or .vscode/mcp.json).'
				: `there is no MCP server named "${server}" (configured: ${names.join(', ')}).`;
		}
		if (entry.state.kind !== 'connected') {
			return `the MCP server "${server}" is ${describeEntry(entry.state)}.`;
		}
		return entry.state.facts.offers.resources ? undefined : `the MCP server "${server}" offers no resources.`;
	}

	private attach(raw: string, server: string, uri: string, contents: readonly McpContent[]): StagedEntry {
		const { texts, binary } = partsOf(uri, contents);
		if (texts.length === 0 && binary.length > 0) {
			const named = binary.map((part) => `${part.mimeType ?? 'binary'}, ${formatBytes(part.bytes)}`).join('; ');
			return resourceRejected(raw, `its contents are binary (${named}), which a mention names but does not attach.`);
		}
		const whole = texts.length === 1 ? (texts[0]?.text ?? '') : texts.map((part) => `--- ${part.uri}${part.mimeType === undefined ? '' : ` (${part.mimeType})`} ---\n${part.text}`).join('\n');
		const size = utf8Length(whole);
		if (size > this.limits.maxFileBytes) {
			return resourceRejected(raw, `it is ${formatBytes(size)} of text, over the ${formatBytes(this.limits.maxFileBytes)} a mention attaches. Read it with McpReadResource instead.`);
		}
		const ref = resourceRef(server, uri);
		const hash = createHash('sha256').update(JSON.stringify(contents)).digest('hex');
		if (this.attached.has(ref) || this.given.get(ref)?.hashes.has(hash) === true) {
			this.attached.add(ref);
			return resourceAlreadyInContext(raw);
		}
		this.attached.add(ref);
		const lines = splitLines(whole);
		const taken = takeLines(lines, 1, lines.length, this.limits);
		const mimeType = texts.length === 1 ? texts[0]?.mimeType : undefined;
		return mentionedResource({
			raw,
			server,
			uri,
			text: taken.text,
			last: lines.length === 0 ? 0 : taken.last,
			total: lines.length,
			...(mimeType === undefined ? {} : { mimeType }),
			binary,
			subject: { ref, hashes: [hash] },
		});
	}
}

const PREFIX_OFFER: MentionOffer = { insert: `@${MCP_PREFIX}`, label: `@${MCP_PREFIX}`, detail: 'a resource of an MCP server', partial: true };

function inert(label: string, detail: string): MentionOffer {
	return { insert: '', label, detail, inert: true };
}

/** The composer's `@mcp:` options: the connected servers' resources matching what follows `mcp:`. */
async function resourceOffers(servers: McpServers, gate: McpGate, query: string, signal: AbortSignal): Promise<MentionOffer[]> {
	if (!query.startsWith(MCP_PREFIX)) {
		return servers.entries().length > 0 ? [PREFIX_OFFER] : [];
	}
	// What the list says instead answers a bare `@mcp:` only, so a typed mention is never held up by it.
	const bare = query === MCP_PREFIX;
	if (!gate.trusted()) {
		return bare ? [inert('MCP servers do not run here', 'this workspace is in Restricted Mode')] : [];
	}
	await gate.ready(signal);
	const names = servers.entries().flatMap((entry) => (entry.state.kind === 'connected' && entry.state.facts.offers.resources ? [entry.config.name] : []));
	if (signal.aborted || names.length === 0) {
		return bare && names.length === 0 ? [inert('No MCP resources', 'no connected MCP server offers resources')] : [];
	}
	const needle = query.slice(MCP_PREFIX.length).toLowerCase();
	const listed = await Promise.all(names.map(async (server) => ({ server, resources: await servers.listResources(server, signal).catch(() => []) })));
	const scored: { readonly offer: MentionOffer; readonly score: number }[] = [];
	for (const { server, resources } of listed) {
		for (const resource of resources) {
			const insert = resourceMentionText(server, resource.uri);
			const label = `${MCP_PREFIX}${server}/${resource.uri}`;
			const score = fuzzyScore(needle, `${server}/${resource.uri}`.toLowerCase()) ?? fuzzyScore(needle, resource.name.toLowerCase());
			if (insert === undefined || insert.length > MAX_OFFER_CHARS || score === undefined) {
				continue;
			}
			const detail = `${resource.name}${resource.mimeType === undefined ? '' : ` (${resource.mimeType})`}`;
			scored.push({ offer: { insert, label, detail: detail.length > 300 ? `${detail.slice(0, 299)}…` : detail }, score });
		}
	}
	return scored
		.sort((a, b) => b.score - a.score || (a.offer.label < b.offer.label ? -1 : a.offer.label > b.offer.label ? 1 : 0))
		.slice(0, MAX_MENTION_CANDIDATES)
		.map(({ offer }) => offer);
}

export function resourceMentionSource(servers: McpServers, gate: McpGate): MentionSource {
	return {
		expander: (context) => {
			const mentions = new ResourceMentions(servers, gate, context);
			return (mention, signal) => mentions.expand(mention, signal);
		},
		offers: (query, signal) => resourceOffers(servers, gate, query, signal),
	};
}

/** `@mcp:<server>/<uri>`, where the window hands the features its MCP servers and gate. */
export const MCP_RESOURCE_MENTION: MentionKind<FeatureServices> = {
	prefix: MCP_PREFIX,
	declaration: MENTION_MCP_RESOURCE,
	source: (services) => (services.mcp && services.mcpGate ? resourceMentionSource(services.mcp, services.mcpGate) : undefined),
};
