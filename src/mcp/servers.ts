// The window's MCP servers (docs/mcp.md): what the configuration names, each server's connection,
// and the tools they offer together. Nothing starts until a chat's first request asks the tools to
// be ready (`ready`); from then on a server added to the configuration starts, one removed stops,
// one whose entry changed starts again. A workspace's server starts only once the person approved
// it (the approval port binds that to its launch configuration); a disabled one never does.
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { CallTool, McpTool } from './mcpTools';
import { DEFAULT_DEFER_AT, type DeferAt, type ToolOffer } from './deferral';
import type { DefinitionStore } from './definitionApprovals';
import type { McpContent, McpResourceInfo, McpSession } from './session';
import type { Tool } from '../tools/tool';
import { ToolOffering } from './toolOffering';
import { type ConnectionDeps, ServerConnection } from './serverConnection';
import type { EntryState, ServerEvent } from './serverState';
import type { ServerConfig, ServerProblem } from './serverConfig';

/** Where the configuration comes from: settings and the workspace's files. */
export interface ServerSource {
	read(): { readonly servers: readonly ServerConfig[]; readonly problems: readonly ServerProblem[] };
	readonly onDidChange: Event<void>;
}

export interface McpServersDeps extends Omit<ConnectionDeps, 'stderr' | 'log'> {
	readonly source: ServerSource;
	/** Whether a workspace server may start: asks the person when its launch configuration was not approved yet. */
	readonly approve: (config: ServerConfig) => Promise<boolean>;
	readonly requestTimeoutMs: () => number;
	/** `aside.mcp.deferAt`; 10% of the context window when absent. */
	readonly deferAt?: () => DeferAt;
	/** The tool definitions the person approved; in memory when absent. */
	readonly definitions?: DefinitionStore;
	/** Where a server's stderr and log messages go. */
	readonly output?: (server: string) => { readonly stderr: (text: string) => void; readonly log: (text: string) => void };
}


export interface ServerEntry {
	readonly config: ServerConfig;
	readonly state: EntryState;
	readonly toolCount: number;
}

export type ServersChange = { readonly kind: 'server'; readonly server: string; readonly event: ServerEvent } | { readonly kind: 'configuration' };

interface Slot {
	readonly config: ServerConfig;
	readonly key: string;
	connection?: ServerConnection;
	declined?: boolean;
}

export class McpServers extends Disposable {
	private readonly _onDidChange = this._register(new Emitter<ServersChange>());
	readonly onDidChange = this._onDidChange.event;
	private readonly slots = new Map<string, Slot>();
	private problems: readonly ServerProblem[] = [];
	private started: Promise<void> | undefined;
	/** Servers starting now (the first start, or one the configuration added since): `ready` waits for them too. */
	private readonly starting = new Set<Promise<void>>();
	private readonly offering = new ToolOffering({
		listed: () => [...this.slots.values()].flatMap((slot) => (slot.connection?.state.kind === 'connected' ? [{ config: slot.config, tools: slot.connection.tools }] : [])),
		call: (server, tool, args, options) => this.call(server, tool, args, options),
		requestTimeoutMs: () => this.deps.requestTimeoutMs(),
		deferAt: () => this.deps.deferAt?.() ?? DEFAULT_DEFER_AT,
		definitions: () => this.deps.definitions,
		withResources: () => this.withResources(),
		listResources: (server, signal) => this.connection(server).listResources(signal),
		readResource: (server, uri, signal) => this.connection(server).readResource(uri, signal),
	});

	constructor(private readonly deps: McpServersDeps) {
		super();
		this.reload();
		this._register(deps.source.onDidChange(() => {
			this.reload();
		}));
	}

	/** The configured servers, in the configuration's order. */
	entries(): ServerEntry[] {
		return [...this.slots.values()].map((slot) => ({ config: slot.config, state: this.stateOf(slot), toolCount: slot.connection?.tools.length ?? 0 }));
	}

	/** The configuration's problems: servers that could not be read. */
	configurationProblems(): readonly ServerProblem[] {
		return this.problems;
	}

	/** Whether the servers were asked to start (a chat sent its first message). */
	get isStarted(): boolean {
		return this.started !== undefined;
	}

	/** Starts every server the first time; resolves when each is connected, failed or declined (never rejects). */
	start(): Promise<void> {
		this.started ??= Promise.all([...this.slots.values()].map((slot) => this.startTracked(slot))).then(() => undefined);
		return this.started;
	}

	/** Starts `slot`, counted among those `ready` waits for until it is connected, failed or declined. */
	private startTracked(slot: Slot): Promise<void> {
		const starting = this.startSlot(slot).finally(() => {
			this.starting.delete(starting);
		});
		this.starting.add(starting);
		return starting;
	}

	/** Resolves once no server is starting (those the configuration adds meanwhile included). */
	private async settled(): Promise<void> {
		await this.start();
		while (this.starting.size > 0) {
			await Promise.all([...this.starting]);
		}
	}

	/** Starts the servers and waits for them, or until `signal` aborts. */
	async ready(signal: AbortSignal): Promise<void> {
		if (signal.aborted) {
			return;
		}
		let stop: (() => void) | undefined;
		const aborted = new Promise<void>((resolve) => {
			stop = resolve;
			signal.addEventListener('abort', stop, { once: true });
		});
		try {
			await Promise.race([this.settled(), aborted]);
		} finally {
			if (stop) {
				signal.removeEventListener('abort', stop);
			}
		}
	}

	/**
	 * The tools of the connected servers, sorted by name, then the resource tools when a server has
	 * resources (the same objects until a list or state changes); the catalog tools instead once
	 * they are deferred for an `offer` (toolOffering.ts).
	 */
	tools(offer?: ToolOffer): readonly Tool[] {
		return this.offering.tools(offer);
	}

	/** Every connected server's tools as they would be offered one by one (also while deferred). */
	mcpTools(): readonly McpTool[] {
		return this.offering.mcpTools();
	}

	/** Why the tools are deferred behind McpDescribe and McpCall, or undefined. */
	get deferred(): string | undefined {
		return this.offering.deferred;
	}

	/** Tools that are not offered, and why (a bad schema, a name two tools share). */
	toolProblems(): readonly string[] {
		return this.offering.problems();
	}

	/** Connects a server again (the person's Restart, or an approval given later). */
	async restart(name: string): Promise<void> {
		const slot = this.slots.get(name);
		if (!slot) {
			throw new Error(`There is no MCP server named "${name}".`);
		}
		slot.declined = false;
		if (slot.connection) {
			await slot.connection.restart();
		} else {
			await this.startSlot(slot);
		}
	}

	readonly call: CallTool = (server, tool, args, options) => this.connection(server).call(tool, args, options);

	/** A connected server's session, for what is asked of it beside its tools (its prompts). */
	sessionOf(name: string): McpSession | undefined {
		return this.slots.get(name)?.connection?.current;
	}

	/** Every connected server's process id (stdio), by name. */
	pids(): ReadonlyMap<string, number> {
		return new Map([...this.slots].flatMap(([name, { connection }]) => (connection?.pid === undefined ? [] : [[name, connection.pid] as const])));
	}

	/** A server's connection, once it was started (its sign-in, oauthSignIn.ts). */
	connectionOf(name: string): ServerConnection | undefined {
		return this.slots.get(name)?.connection;
	}

	private stateOf(slot: Slot): EntryState {
		if (slot.config.disabled) {
			return { kind: 'disabled' };
		}
		if (slot.declined) {
			return { kind: 'declined' };
		}
		return slot.connection?.state ?? { kind: 'stopped' };
	}

	/** The connected servers that offer resources. */
	private withResources(): string[] {
		return [...this.slots.values()].flatMap((slot) => {
			const state = slot.connection?.state;
			return state?.kind === 'connected' && state.facts.offers.resources ? [slot.config.name] : [];
		});
	}

	private connection(server: string): ServerConnection {
		const connection = this.slots.get(server)?.connection;
		if (!connection) {
			throw new Error(`The MCP server "${server}" is not running.`);
		}
		return connection;
	}

	/** A resource's contents. */
	readResource(server: string, uri: string, signal: AbortSignal): Promise<McpContent[]> {
		return this.connection(server).readResource(uri, signal);
	}

	listResources(server: string, signal: AbortSignal): Promise<McpResourceInfo[]> {
		return this.connection(server).listResources(signal);
	}

	/** Asks `server` for updates of `uri` (renewed after reconnects); false when it offers none. */
	subscribe(server: string, uri: string): Promise<boolean> {
		return this.connectionOf(server)?.subscribe(uri) ?? Promise.resolve(false);
	}

	private async startSlot(slot: Slot): Promise<void> {
		if (slot.config.disabled || this.slots.get(slot.config.name) !== slot) {
			return;
		}
		if (slot.config.origin.kind === 'workspace' && !(await this.deps.approve(slot.config))) {
			slot.declined = true;
			this.fire({ kind: 'server', server: slot.config.name, event: { kind: 'state', state: { kind: 'stopped' } } });
			return;
		}
		if (this.slots.get(slot.config.name) !== slot) {
			return;
		}
		slot.connection ??= this.connectionFor(slot.config);
		await slot.connection.start();
	}

	private connectionFor(config: ServerConfig): ServerConnection {
		const output = this.deps.output?.(config.name);
		const connection = new ServerConnection(config, { ...this.deps, ...(output ? { stderr: output.stderr, log: output.log } : {}) });
		connection.onDidChange((event) => {
			this.fire({ kind: 'server', server: config.name, event });
		});
		return connection;
	}

	private reload(): void {
		const { servers, problems } = this.deps.source.read();
		this.problems = problems;
		const next = new Map<string, Slot>();
		for (const config of servers) {
			const key = JSON.stringify(config);
			const old = this.slots.get(config.name);
			next.set(config.name, old?.key === key ? old : { config, key });
		}
		for (const [name, slot] of this.slots) {
			if (next.get(name) !== slot) {
				slot.connection?.dispose();
			}
		}
		this.slots.clear();
		for (const [name, slot] of next) {
			this.slots.set(name, slot);
		}
		this.fire({ kind: 'configuration' });
		if (this.started) {
			for (const slot of this.slots.values()) {
				if (!slot.connection && !slot.declined) {
					void this.startTracked(slot);
				}
			}
		}
	}

	private fire(change: ServersChange): void {
		this.offering.invalidate();
		this._onDidChange.fire(change);
	}

	override dispose(): void {
		for (const slot of this.slots.values()) {
			slot.connection?.dispose();
		}
		this.slots.clear();
		super.dispose();
	}
}
