// The prompts of the window's MCP servers (docs/mcp.md#prompts): each connected server's
// `prompts/list` (every page), listed again on `notifications/prompts/list_changed` and after every
// reconnect, gone while the server is not connected; a prompt filled in (`prompts/get`) and the
// values of an argument being typed (`completion/complete`, only of a server that offers it).
// Nothing here while MCP may not run (Restricted Mode).
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import { Disposable, type IDisposable } from '../base/lifecycle';
import type { ServerEntry, ServersChange } from './servers';
import type { McpCompletion, McpPromptInfo, McpPromptResult, McpSession } from './session';

/** What the prompts need of the window's servers (McpServers). */
export interface PromptServers {
	entries(): readonly ServerEntry[];
	readonly onDidChange: Event<ServersChange>;
	/** The session of a server, while it has one. */
	sessionOf(server: string): McpSession | undefined;
}

export interface PromptsDeps {
	readonly requestTimeoutMs: () => number;
	/** Whether MCP may run (not in Restricted Mode); always when absent. */
	readonly enabled?: () => boolean;
	readonly log?: (text: string) => void;
}

/** A connected server's prompts. */
export interface ServerPrompts {
	readonly server: string;
	readonly prompts: readonly McpPromptInfo[];
	/** It answers argument completion. */
	readonly completions: boolean;
}

/** How long the composer's argument completion waits for a server. */
export const COMPLETION_TIMEOUT_MS = 10_000;

interface Listed {
	readonly session: McpSession;
	readonly watch: IDisposable;
	prompts: readonly McpPromptInfo[];
}

export class McpPrompts extends Disposable {
	private readonly _onDidChange = this._register(new Emitter<void>());
	/** A server's prompts changed, appeared or went. */
	readonly onDidChange: Event<void> = this._onDidChange.event;
	private readonly listed = new Map<string, Listed>();
	/** Per server, the latest listing: an older one that ends later counts for nothing. */
	private readonly generations = new Map<string, number>();
	private readonly abort = new AbortController();

	constructor(
		private readonly source: PromptServers,
		private readonly deps: PromptsDeps,
	) {
		super();
		this._register(source.onDidChange((change) => {
			this.take(change);
		}));
		for (const entry of source.entries()) {
			if (entry.state.kind === 'connected') {
				void this.list(entry.config.name);
			}
		}
	}

	/** The connected servers that offer prompts, in the configuration's order. */
	servers(): ServerPrompts[] {
		if (this.deps.enabled?.() === false) {
			return [];
		}
		return this.source.entries().flatMap((entry): ServerPrompts[] => {
			const listed = this.listed.get(entry.config.name);
			if (!listed || entry.state.kind !== 'connected' || listed.prompts.length === 0) {
				return [];
			}
			return [{ server: entry.config.name, prompts: listed.prompts, completions: listed.session.facts.offers.completions }];
		});
	}

	/** `prompt` of `server` filled in with `args`; rejects with the server's error. */
	async get(server: string, prompt: string, args: Readonly<Record<string, string>>, signal: AbortSignal): Promise<McpPromptResult> {
		return this.sessionFor(server).getPrompt(prompt, args, { signal, timeoutMs: this.deps.requestTimeoutMs() });
	}

	/** The values `server` offers for `argument` of `prompt` as typed so far; none when it offers no completions. */
	async complete(
		server: string,
		prompt: string,
		argument: { readonly name: string; readonly value: string },
		context: Readonly<Record<string, string>>,
		signal: AbortSignal,
	): Promise<McpCompletion> {
		const session = this.sessionFor(server);
		if (!session.facts.offers.completions) {
			return { values: [], hasMore: false };
		}
		return session.completePromptArgument(prompt, argument, context, { signal, timeoutMs: COMPLETION_TIMEOUT_MS });
	}

	private sessionFor(server: string): McpSession {
		if (this.deps.enabled?.() === false) {
			throw new Error('MCP servers do not run in Restricted Mode: trust the workspace to use them.');
		}
		const connected = this.source.entries().some((entry) => entry.config.name === server && entry.state.kind === 'connected');
		const session = connected ? this.listed.get(server)?.session : undefined;
		if (!session) {
			throw new Error(`The MCP server "${server}" is not connected.`);
		}
		return session;
	}

	private take(change: ServersChange): void {
		if (change.kind === 'configuration') {
			const connected = new Set(this.source.entries().flatMap((entry) => (entry.state.kind === 'connected' ? [entry.config.name] : [])));
			for (const server of [...this.listed.keys()]) {
				if (!connected.has(server)) {
					this.drop(server);
				}
			}
			return;
		}
		if (change.event.kind !== 'state') {
			return;
		}
		if (change.event.state.kind === 'connected') {
			void this.list(change.server);
		} else {
			this.drop(change.server);
		}
	}

	private async list(server: string): Promise<void> {
		const session = this.source.sessionOf(server);
		if (!session || this.store.isDisposed) {
			return;
		}
		const generation = (this.generations.get(server) ?? 0) + 1;
		this.generations.set(server, generation);
		let entry = this.listed.get(server);
		if (entry?.session !== session) {
			entry?.watch.dispose();
			entry = {
				session,
				prompts: entry?.prompts ?? [],
				watch: session.onDidChangePrompts(() => {
					void this.list(server);
				}),
			};
			this.listed.set(server, entry);
		}
		let prompts: McpPromptInfo[];
		try {
			prompts = await session.listPrompts(this.abort.signal);
		} catch (error) {
			this.deps.log?.(`Listing the prompts of the MCP server "${server}" failed: ${errorMessage(error)}`);
			return;
		}
		if (generation !== this.generations.get(server) || this.listed.get(server) !== entry) {
			return;
		}
		const changed = JSON.stringify(prompts) !== JSON.stringify(entry.prompts);
		entry.prompts = prompts;
		if (changed) {
			this._onDidChange.fire();
		}
	}

	private drop(server: string): void {
		const entry = this.listed.get(server);
		this.generations.set(server, (this.generations.get(server) ?? 0) + 1);
		if (!entry) {
			return;
		}
		entry.watch.dispose();
		this.listed.delete(server);
		if (entry.prompts.length > 0) {
			this._onDidChange.fire();
		}
	}

	override dispose(): void {
		this.abort.abort();
		for (const entry of this.listed.values()) {
			entry.watch.dispose();
		}
		this.listed.clear();
		super.dispose();
	}
}
