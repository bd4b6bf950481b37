// What a server's connection (serverConnection.ts) keeps of its sign-in: the sign-in of the server it
// reached (an HTTP server's, oauth.ts), told to it when the server asks for an authorization, and
// whether the person just signed in — a server that asks again while connecting right after that
// does not take what it asked for, and fails instead of asking the person round and round.
import { type IDisposable, MutableDisposable } from '../base/lifecycle';
import type { ServerOAuth } from './oauth';
import type { Launch } from './session';
import type { ServerState } from './serverState';

/** An HTTP server's sign-in; undefined for one that brings its own Authorization header. */
export type OAuthFor = (server: Exclude<Launch, { readonly transport: 'stdio' }>) => ServerOAuth | undefined;

export class ConnectionSignIn implements IDisposable {
	private _oauth: ServerOAuth | undefined;
	private readonly listener = new MutableDisposable();
	/** Connecting again because the person signed in. */
	afterSignIn = false;

	constructor(private readonly needed: () => void) {}

	get oauth(): ServerOAuth | undefined {
		return this._oauth;
	}

	/** The sign-in of the server `launch` reaches, followed from now on. */
	watch(launch: Launch, oauthFor: OAuthFor | undefined): ServerOAuth | undefined {
		const oauth = launch.transport === 'stdio' ? undefined : oauthFor?.(launch);
		if (oauth !== this._oauth) {
			this._oauth = oauth;
			this.listener.value = oauth?.onDidNeedSignIn(this.needed);
		}
		return oauth;
	}

	/** The state of a server that asked for an authorization while it was `state`. */
	stateAfter(state: ServerState): ServerState {
		return this.afterSignIn && state.kind === 'starting'
			? { kind: 'failed', message: 'it asked for a sign-in again right after you signed in: its authorization server does not grant the access it asks for' }
			: { kind: 'needs-sign-in' };
	}

	dispose(): void {
		this.listener.dispose();
	}
}
