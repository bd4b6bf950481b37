// What the window's MCP servers offer the model as tools: each connected server's tools (mcpTools.ts)
// and the resource tools when a server has resources — or, once their schemas pass the budget
// (deferral.ts), the three stable catalog tools instead, for the rest of the window's life (or
// until aside.mcp.deferAt changes), so the tool array stays byte-identical whatever the servers do.
import type { Tool } from '../tools/tool';
import { catalogTools } from './catalogTools';
import { type DefinitionStore, memoryDefinitions } from './definitionApprovals';
import { type DeferAt, deferralReason, type ToolOffer } from './deferral';
import { type CallTool, type ListedServer, type McpTool, mcpTools } from './mcpTools';
import { type ResourceReader, resourceTools } from './resourceTools';

export interface OfferingDeps extends ResourceReader {
	/** The connected servers and their listed tools. */
	listed(): ListedServer[];
	readonly call: CallTool;
	requestTimeoutMs(): number;
	deferAt(): DeferAt;
	/** The definitions the person approved (definitionApprovals.ts); kept in memory for the window's life when absent. */
	definitions?(): DefinitionStore | undefined;
}

export class ToolOffering {
	private listing: { readonly tools: readonly McpTool[]; readonly offered: readonly Tool[]; readonly problems: string[] } | undefined;
	/** Why the tools are deferred: once they are, they stay (the prompt cache survives) until aside.mcp.deferAt changes. */
	private deferredBecause: string | undefined;
	/** The aside.mcp.deferAt they were deferred under. */
	private deferredUnder = '';
	/** McpListResources and McpReadResource: the same objects always (their specs are kept per object). */
	private readonly resources: readonly Tool[];
	private readonly deferredTools: readonly Tool[];
	private readonly memory = memoryDefinitions();

	constructor(private readonly deps: OfferingDeps) {
		this.resources = resourceTools(deps);
		const { describe, call } = catalogTools({
			mcpTools: () => this.mcpTools(),
			connected: () => [...new Set(deps.listed().map((server) => server.config.name))],
			withResources: () => deps.withResources(),
			listResources: (server, signal) => deps.listResources(server, signal),
		});
		const read = this.resources[1];
		this.deferredTools = read ? [describe, call, read] : [describe, call];
	}

	/** A server, its state or its list changed: the tools are made again when next asked for. */
	invalidate(): void {
		this.listing = undefined;
	}

	/** Every connected server's tools as they would be offered one by one (also while deferred). */
	mcpTools(): readonly McpTool[] {
		return this.list().tools;
	}

	/** Tools that are not offered, and why (a bad schema, a name two tools share). */
	problems(): readonly string[] {
		return this.list().problems;
	}

	/** Why the tools are deferred, or undefined while they are offered one by one. */
	get deferred(): string | undefined {
		return this.deferredBecause;
	}

	/** The tools for a request (`offer` says to what; without it, no deferral is decided). */
	tools(offer?: ToolOffer): readonly Tool[] {
		const { tools, offered } = this.list();
		const deferAt = this.deps.deferAt();
		if (this.deferredBecause !== undefined && JSON.stringify(deferAt) !== this.deferredUnder) {
			this.deferredBecause = undefined;
		}
		if (this.deferredBecause === undefined && offer !== undefined) {
			this.deferredBecause = deferralReason(tools, deferAt, offer);
			this.deferredUnder = JSON.stringify(deferAt);
		}
		return this.deferredBecause === undefined ? offered : this.deferredTools;
	}

	private list(): NonNullable<ToolOffering['listing']> {
		if (!this.listing) {
			const { tools, problems } = mcpTools(this.deps.listed(), this.deps.call, this.deps.requestTimeoutMs(), this.deps.definitions?.() ?? this.memory);
			this.listing = { tools, offered: this.deps.withResources().length > 0 ? [...tools, ...this.resources] : tools, problems };
		}
		return this.listing;
	}
}
