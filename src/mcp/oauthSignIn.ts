// The person's sign-in to a server that asked for one (docs/mcp.md, "Signing in"): only on their
// Sign in, the browser opens the authorization the server asked for; the authorization server sends
// it back to VS Code's URI handler, whose redirect is matched to the waiting sign-in by its `state`
// (any other is refused); the code is exchanged for tokens (kept in SecretStorage), and the server
// connects again. A sign-in the person cancels or that never comes back ends with a message.
import type { OAuthCallback, ServerOAuth } from './oauth';
import type { McpServers } from './servers';
import { describeState } from './serverState';

/** How long a sign-in waits for the browser to come back. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

interface Waiter {
	resolve(callback: OAuthCallback): void;
	reject(error: Error): void;
}

/** The redirects the URI handler receives, each delivered to the sign-in that waits for its `state`. */
export class OAuthCallbacks {
	private readonly waiting = new Map<string, Waiter>();

	/** Delivers a redirect's query; false when no sign-in waits for its state (a stale or forged redirect). */
	deliver(query: string): boolean {
		const params = new URLSearchParams(query);
		const state = params.get('state');
		const waiter = state === null ? undefined : this.waiting.get(state);
		if (state === null || !waiter) {
			return false;
		}
		this.waiting.delete(state);
		const error = params.get('error');
		const code = params.get('code');
		const iss = params.get('iss');
		if (error !== null) {
			const why = params.get('error_description');
			waiter.reject(new Error(`the authorization server refused it: ${error}${why === null ? '' : ` (${why})`}`));
		} else if (code === null || code === '') {
			waiter.reject(new Error('the browser came back without an authorization code'));
		} else {
			waiter.resolve({ code, ...(iss === null ? {} : { iss }) });
		}
		return true;
	}

	/** Waits for the redirect of `state`, at most `timeoutMs`, or until `signal` aborts. */
	wait(state: string, signal: AbortSignal, timeoutMs: number): Promise<OAuthCallback> {
		return new Promise<OAuthCallback>((resolve, reject) => {
			const end = () => {
				clearTimeout(timer);
				signal.removeEventListener('abort', cancelled);
				this.waiting.delete(state);
			};
			const cancelled = () => {
				end();
				reject(new Error('it was cancelled'));
			};
			const timer = setTimeout(() => {
				end();
				reject(new Error(`the browser did not come back to VS Code within ${Math.round(timeoutMs / 60_000)} minutes`));
			}, timeoutMs);
			this.waiting.set(state, {
				resolve: (callback) => {
					end();
					resolve(callback);
				},
				reject: (error) => {
					end();
					reject(error);
				},
			});
			if (signal.aborted) {
				cancelled();
			} else {
				signal.addEventListener('abort', cancelled, { once: true });
			}
		});
	}
}

export interface SignInDeps {
	readonly callbacks: OAuthCallbacks;
	/** Opens the authorization URL in the person's browser; false when it could not. */
	readonly openBrowser: (url: string) => Promise<boolean>;
	/** Exchanges the code for tokens (the SDK's OAuth client, sdkAuth.ts), for the authorization's scope. */
	readonly exchange: (oauth: ServerOAuth, callback: OAuthCallback, scope: string | undefined) => Promise<void>;
	readonly timeoutMs?: number;
}

/** Sign in and Sign out of the window's servers. */
export class McpSignIn {
	/** The sign-in under way per server: a second Sign in opens its browser page again instead of starting another. */
	private readonly running = new Map<string, Promise<void>>();

	constructor(
		private readonly servers: McpServers,
		private readonly deps: SignInDeps,
	) {}

	/** Whether `name` waits for the person to sign in. */
	needsSignIn(name: string): boolean {
		return this.servers.connectionOf(name)?.state.kind === 'needs-sign-in';
	}

	/** Signs in to `name`: opens the browser, waits for it to come back, keeps the tokens, connects the server again. */
	signIn(name: string, signal: AbortSignal): Promise<void> {
		const running = this.running.get(name);
		const pending = this.servers.connectionOf(name)?.oauth?.pending;
		if (running && pending) {
			void this.deps.openBrowser(pending.url);
			return running;
		}
		const started = this.run(name, signal).finally(() => {
			this.running.delete(name);
		});
		this.running.set(name, started);
		return started;
	}

	private async run(name: string, signal: AbortSignal): Promise<void> {
		const connection = this.servers.connectionOf(name);
		const oauth = connection?.oauth;
		if (!connection || connection.state.kind !== 'needs-sign-in' || !oauth?.pending) {
			const state = connection ? describeState(connection.state) : 'not running';
			throw new Error(`The MCP server "${name}" does not ask for a sign-in (it is ${state}).`);
		}
		// The server names the authorization endpoint: only a web page opens, never another scheme (command:, file:, vscode:).
		if (!/^https?:$/.test(new URL(oauth.pending.url).protocol)) {
			throw new Error(`The MCP server "${name}" asks to sign in at ${oauth.pending.url.slice(0, 200)}, which is not a web page: refused.`);
		}
		const { pending, done } = oauth.begin();
		let succeeded = false;
		try {
			const callback = this.deps.callbacks.wait(pending.state, signal, this.deps.timeoutMs ?? SIGN_IN_TIMEOUT_MS);
			// Settled here too, so a browser that fails to open leaves no unhandled rejection behind.
			callback.catch(() => {
				// Its rejection is the one awaited below.
			});
			if (!(await this.deps.openBrowser(pending.url))) {
				this.deps.callbacks.deliver(new URLSearchParams({ state: pending.state, error: 'browser_not_opened' }).toString());
			}
			await this.deps.exchange(oauth, await callback, pending.scope);
			succeeded = true;
		} catch (error) {
			throw new Error(`Signing in to the MCP server "${name}" failed: ${error instanceof Error ? error.message : String(error)}.`, { cause: error });
		} finally {
			done(succeeded);
		}
		await connection.restart({ afterSignIn: true });
	}

	/** Whether tokens are kept for `name` (its Sign out then has something to forget). */
	signedIn(name: string): boolean {
		return this.servers.connectionOf(name)?.oauth?.signedIn === true;
	}

	/** Forgets `name`'s tokens and registration, and connects it again (it then asks for a sign-in). */
	async signOut(name: string): Promise<void> {
		const connection = this.servers.connectionOf(name);
		const oauth = connection?.oauth;
		if (!connection || !oauth) {
			throw new Error(`The MCP server "${name}" has no sign-in to forget.`);
		}
		await oauth.signOut();
		await connection.restart();
	}
}
