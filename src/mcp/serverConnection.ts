// One configured MCP server's life in the window: connect, list its tools, list them again on
// `tools/list_changed`, and, when the connection ends, reconnect with backoff (a crashed stdio
// server is started again; an HTTP session that is gone is initialised again) and list everything
// again. Each change of state or of the tool list is one event, with what changed.
import { type Timers, systemTimers } from '../base/clock';
import { errorMessage } from '../base/errors';
import { Emitter } from '../base/event';
import { Disposable, DisposableStore } from '../base/lifecycle';
import type { ServerConfig } from './serverConfig';
import { ConnectionSignIn, type OAuthFor } from './connectionSignIn';
import type { ServerOAuth } from './oauth';
import { ToolListing } from './toolListing';
import {
	type CallOptions,
	type Launch,
	type McpCallResult,
	type McpConnector,
	type McpContent,
	type McpResourceInfo,
	type McpSession,
	type McpToolInfo,
	NeedsSignIn,
	SessionGone,
} from './session';
import type { ServerRequestHandlers } from './serverRequests';
import { describeState, RESTART_DELAYS_MS, type ServerEvent, type ServerState } from './serverState';

export interface ConnectionDeps {
	readonly connector: McpConnector;
	/** Resolves the server's variables and environment; throws an Error for the person. */
	readonly launch: (config: ServerConfig) => Promise<Launch>;
	readonly startupTimeoutMs: () => number;
	readonly oauth?: OAuthFor; // an HTTP server's sign-in (none for one with its own Authorization header)
	readonly stderr?: (text: string) => void;
	readonly log?: (text: string) => void;
	readonly requests?: (server: string) => ServerRequestHandlers; // who answers its sampling and elicitation requests
	readonly timers?: Timers;
}

export class ServerConnection extends Disposable {
	private readonly _onDidChange = this._register(new Emitter<ServerEvent>());
	readonly onDidChange = this._onDidChange.event;
	private _state: ServerState = { kind: 'stopped' };
	private session: McpSession | undefined;
	private readonly sessionStore = this._register(new DisposableStore());
	private starting: Promise<void> | undefined;
	private retry: unknown;
	private attempts = 0;
	/** Resources a chat asked updates of: renewed after every reconnect. */
	private readonly subscriptions = new Set<string>();
	private stopped = false;
	private disposed = false;
	private readonly abort = new AbortController();
	private readonly listing = new ToolListing(() => this.session, this.abort.signal, (change) => {
		this._onDidChange.fire({ kind: 'tools', change });
	}, (text) => this.deps.log?.(text));
	/** The server's sign-in (an HTTP server's), and whether the person just gave one. */
	private readonly signIn = this._register(new ConnectionSignIn(() => {
		this.signInNeeded();
	}));

	constructor(
		readonly config: ServerConfig,
		private readonly deps: ConnectionDeps,
	) {
		super();
	}

	get state(): ServerState {
		return this._state;
	}

	get tools(): readonly McpToolInfo[] {
		return this.listing.tools;
	}

	get oauth(): ServerOAuth | undefined {
		return this.signIn.oauth;
	}

	get pid(): number | undefined {
		return this.session?.pid;
	}

	/** The session while connected: what is asked of the server outside its tools (its prompts, prompts.ts). */
	get current(): McpSession | undefined {
		return this.connected();
	}

	/** Connects unless connected or connecting; resolves once connected or failed (never rejects). */
	start(): Promise<void> {
		this.stopped = false;
		if (this._state.kind === 'connected') {
			return Promise.resolve();
		}
		this.starting ??= this.connect().finally(() => {
			this.starting = undefined;
		});
		return this.starting;
	}

	/** Calls a tool on the current connection. */
	call(tool: string, args: Readonly<Record<string, unknown>>, options: CallOptions): Promise<McpCallResult> {
		return this.onSession((session) => session.callTool(tool, args, options));
	}

	readResource(uri: string, signal: AbortSignal): Promise<McpContent[]> {
		return this.onSession((session) => session.readResource(uri, signal));
	}

	listResources(signal: AbortSignal): Promise<McpResourceInfo[]> {
		return this.onSession((session) => session.listResources(signal));
	}

	/** Asks for updates of `uri`, now and after every reconnect; false when the server offers none. */
	async subscribe(uri: string): Promise<boolean> {
		const session = this.connected();
		if (!session?.facts.offers.subscribe) {
			return false;
		}
		// Asked for on this connection already (by another chat, or renewed after the reconnect).
		if (this.subscriptions.has(uri)) {
			return true;
		}
		this.subscriptions.add(uri);
		return this.onSession((current) => current.subscribe(uri));
	}

	/** Runs `request` on the current connection; when the server forgot the session (it restarted), initialises again and runs it once more. */
	private async onSession<T>(request: (session: McpSession) => Promise<T>): Promise<T> {
		const session = this.session;
		if (!session || this._state.kind !== 'connected') {
			throw new Error(`The MCP server "${this.config.name}" is not connected (${describeState(this._state)}).`);
		}
		try {
			return await request(session);
		} catch (error) {
			if (this.state.kind === 'needs-sign-in') {
				throw new NeedsSignIn(`The MCP server "${this.config.name}" asks you to sign in again: use Sign in in the chat's MCP server list.`, { cause: error });
			}
			if (!(error instanceof SessionGone) || this.session !== session) {
				throw error;
			}
		}
		await this.closeSession();
		this.setState({ kind: 'reconnecting', attempt: 1, message: 'the server no longer knew the session' });
		await this.start();
		const again = this.connected();
		if (!again) {
			throw new Error(`The MCP server "${this.config.name}" forgot its session and could not be initialised again (${describeState(this._state)}).`);
		}
		return request(again);
	}

	/** The session, when connected now (read afresh: a connect in between may have changed both). */
	private connected(): McpSession | undefined {
		return this._state.kind === 'connected' ? this.session : undefined;
	}

	/** Drops the connection and connects again now, attempts counted afresh. */
	async restart(options: { readonly afterSignIn?: boolean } = {}): Promise<void> {
		await this.closeSession();
		this.signIn.afterSignIn = options.afterSignIn === true;
		this.attempts = 0;
		this.clearRetry();
		// Its session is gone: start() must not take it for connected still (connect() says `starting` next).
		if (this._state.kind === 'connected') {
			this._state = { kind: 'stopped' };
		}
		await this.start();
	}

	private async connect(): Promise<void> {
		this.clearRetry();
		this.setState({ kind: 'starting' });
		let session: McpSession;
		try {
			const launch = await this.deps.launch(this.config);
			const oauth = this.signIn.watch(launch, this.deps.oauth);
			session = await this.deps.connector.connect(launch, {
				...(oauth ? { oauth } : {}),
				signal: this.abort.signal,
				timeoutMs: this.deps.startupTimeoutMs(),
				...(this.deps.stderr ? { stderr: this.deps.stderr } : {}),
				...(this.deps.log ? { log: this.deps.log } : {}), requests: this.deps.requests?.(this.config.name),
			});
		} catch (error) {
			if (error instanceof NeedsSignIn) {
				this.signInNeeded();
				return;
			}
			// A server that never connected is misconfigured or broken: trying again would not help.
			// One that connected before and is gone now gets its reconnect attempts.
			if (this.listing.listedOnce) {
				this.failed(errorMessage(error));
			} else {
				this.setState({ kind: 'failed', message: errorMessage(error) });
			}
			return;
		}
		if (this.stopped || this.disposed) {
			await session.close().catch(() => undefined);
			return;
		}
		this.session = session;
		this.sessionStore.add(session.onDidChangeTools(() => {
			void this.listing.list();
		}));
		this.sessionStore.add(session.onDidUpdateResource((uri) => {
			this._onDidChange.fire({ kind: 'resource-updated', uri });
		}));
		this.sessionStore.add(session.onDidClose(({ error }) => {
			if (this.session === session) {
				this.session = undefined;
				this.sessionStore.clear();
				this.failed(error === undefined ? 'the connection ended' : `the connection ended: ${error}`);
			}
		}));
		// Servers often announce list_changed right after connecting: the listing that counts is the last one.
		await this.listing.list();
		await this.listing.settled();
		if (this.session === session) {
			this.attempts = 0;
			this.signIn.afterSignIn = false;
			// Those asked for before this connection (a chat told of it below may ask for its own).
			const renewed = [...this.subscriptions];
			this.setState({ kind: 'connected', facts: session.facts });
			for (const uri of renewed) {
				session.subscribe(uri).catch((error: unknown) => {
					this.deps.log?.(`Renewing the subscription to ${uri} failed: ${errorMessage(error)}`);
				});
			}
		}
	}

	/** The server asked for an authorization: it waits for the person's Sign in (or fails, when they just gave one). */
	private signInNeeded(): void {
		if (this.stopped || this.disposed || (this._state.kind !== 'starting' && this._state.kind !== 'connected')) {
			return;
		}
		const state = this.signIn.stateAfter(this._state);
		this.clearRetry();
		void this.closeSession();
		this.setState(state);
	}

	private failed(message: string): void {
		if (this.stopped || this.disposed) {
			return;
		}
		const delay = RESTART_DELAYS_MS[this.attempts];
		if (delay === undefined) {
			this.setState({ kind: 'failed', message });
			return;
		}
		this.attempts++;
		this.setState({ kind: 'reconnecting', attempt: this.attempts, message });
		const timers = this.deps.timers ?? systemTimers;
		this.retry = timers.setTimeout(() => {
			this.retry = undefined;
			void this.start();
		}, delay);
	}

	/** Stops the server: closes its connection, no reconnect. */
	async stop(): Promise<void> {
		this.stopped = true;
		this.clearRetry();
		await this.closeSession();
		this.setState({ kind: 'stopped' });
	}

	private async closeSession(): Promise<void> {
		const session = this.session;
		this.session = undefined;
		this.sessionStore.clear();
		await session?.close().catch(() => undefined);
	}

	private clearRetry(): void {
		(this.deps.timers ?? systemTimers).clearTimeout(this.retry);
		this.retry = undefined;
	}

	private setState(state: ServerState): void {
		this._state = state;
		if (!this.disposed) {
			this._onDidChange.fire({ kind: 'state', state });
		}
	}

	override dispose(): void {
		this.disposed = true;
		this.stopped = true;
		this.clearRetry();
		this.abort.abort();
		void this.closeSession();
		super.dispose();
	}
}
