// `mention.mcp-resource`: an MCP resource the person attached to a message with `@mcp:<server>/<uri>`
// (resourceMention.ts reads it). Its entries, one per mention, in the mention stage: the contents,
// bounded like a mentioned file's, binary parts named, never inlined; that the chat already has it
// unchanged; or why nothing is attached. Everything from outside (the contents, the URI, the server's
// words) is quoted neutralised. An attached resource's entry records it as its subject, so the chat
// knows it was given (and follows its updates, chatMcp.ts) from its records alone.
import { plural } from '../../base/words';
import { declareReminder, entryOf } from '../../reminders/declaration';
import type { ReminderSubject, StagedEntry } from '../../reminders/definition';
import { deliveredSubjects, type RecordLike } from '../../reminders/history';
import { sanitizeUntrusted } from '../../reminders/envelope';
import { fenced } from '../../reminders/builtin/mentions';
import { formatBytes } from '../../tools/text';
import { serversLabel } from './serverNews';

export const MENTION_MCP_RESOURCE = declareReminder({
	type: 'mentionMcpResource',
	key: 'mention.mcp-resource',
	label: 'MCP resource',
	purpose: 'An MCP resource the user mentioned (`@mcp:<server>/<uri>`): its contents, bounded like a mentioned file\'s, binary parts named but not attached; that it is already in context when this chat was given it unchanged; or why it is not attached (an unknown or disconnected server, an unknown URI, the server\'s error, Restricted Mode). The chat then follows its updates (`mcp.resources-updated`).',
	introducedIn: '0.6.0',
	configurable: true,
	description: 'Attaches the contents of an MCP resource you mention with @mcp:server/uri to your message (bounded like a file), and tells the model when it changes.',
});

/** The subject an attached resource is recorded under: the mention as written unquoted. */
export function resourceRef(server: string, uri: string): string {
	return `mcp:${server}/${uri}`;
}

/** A resource given by a mention: its server, its URI and the hashes of the contents given. */
export interface GivenResource {
	readonly server: string;
	readonly uri: string;
	readonly hashes: Set<string>;
}

/** The resources this chat's kept records were given by mentions, each with the hashes of what it was given. */
export function mentionedResources(records: Iterable<RecordLike>): Map<string, GivenResource> {
	const given = new Map<string, GivenResource>();
	for (const subjects of deliveredSubjects(records, MENTION_MCP_RESOURCE.type)) {
		for (const { ref, hashes } of subjects) {
			const slash = ref.indexOf('/');
			if (!ref.startsWith('mcp:') || slash < 0) {
				continue;
			}
			const known = given.get(ref) ?? { server: ref.slice('mcp:'.length, slash), uri: ref.slice(slash + 1), hashes: new Set<string>() };
			hashes.forEach((hash) => known.hashes.add(hash));
			given.set(ref, known);
		}
	}
	return given;
}

function entry(reason: string, body: string, subjects?: readonly ReminderSubject[], server?: string): StagedEntry {
	const label = server === undefined ? {} : { label: serversLabel(MENTION_MCP_RESOURCE.label, [server]) };
	return { ...entryOf(MENTION_MCP_RESOURCE), ...label, reason, body, ...(subjects ? { subjects } : {}) };
}

/** A binary part of the contents: named, never attached. */
export interface BinaryPart {
	readonly uri: string;
	readonly mimeType?: string;
	readonly bytes: number;
}

export interface ResourceAttachment {
	/** The mention as written. */
	readonly raw: string;
	readonly server: string;
	readonly uri: string;
	/** The text parts, joined (each under a `--- uri ---` line when there are several), bounded. */
	readonly text: string;
	/** The lines attached and the text's line count (0: no text). */
	readonly last: number;
	readonly total: number;
	readonly mimeType?: string;
	readonly binary: readonly BinaryPart[];
	readonly subject: ReminderSubject;
}

function binaryLine(part: BinaryPart): string {
	return `- ${sanitizeUntrusted(part.uri)} (${part.mimeType === undefined ? 'binary' : sanitizeUntrusted(part.mimeType)}, ${formatBytes(part.bytes)})`;
}

function readAgain(server: string, uri: string): string {
	return `McpReadResource with server "${sanitizeUntrusted(server)}" and uri "${sanitizeUntrusted(uri)}"`;
}

export function mentionedResource(resource: ResourceAttachment): StagedEntry {
	const { server, uri } = resource;
	const type = resource.mimeType === undefined ? '' : `${sanitizeUntrusted(resource.mimeType)}, `;
	const what = `the resource ${sanitizeUntrusted(uri)} of the MCP server ${sanitizeUntrusted(server)}`;
	const mentioned = `The user mentioned ${sanitizeUntrusted(resource.raw)}: ${what}`;
	const parts =
		resource.total === 0
			? [`${mentioned} (${type}no text).`]
			: [`${mentioned} (${type}lines 1–${resource.last} of ${resource.total}). Its contents, as of this message:`, fenced(resource.text)];
	if (resource.last < resource.total) {
		parts.push(`The attachment stops at line ${resource.last}, its size bound. For more, read it with ${readAgain(server, uri)} (its result is bounded too).`);
	}
	if (resource.binary.length > 0) {
		parts.push([`Binary contents, named here but not attached (${plural(resource.binary.length, 'part')}):`, ...resource.binary.map(binaryLine)].join('\n'));
	}
	parts.push('You are told (mcp.resources-updated) when this resource changes, if its server says so.');
	return entry('you mentioned an MCP resource', parts.join('\n\n'), [resource.subject], server);
}

export function resourceAlreadyInContext(raw: string): StagedEntry {
	return entry(
		'you mentioned an MCP resource already given',
		`The user mentioned ${sanitizeUntrusted(raw)} again. It is already in context, unchanged, from an earlier message of this chat; it is not attached again.`,
	);
}

/** Why a mention attaches nothing: a sentence that completes "is not attached: …". */
export function resourceRejected(raw: string, why: string): StagedEntry {
	return entry('you mentioned an MCP resource that could not be attached', `The user mentioned ${sanitizeUntrusted(raw)}, which is not attached: ${sanitizeUntrusted(why)}`);
}
