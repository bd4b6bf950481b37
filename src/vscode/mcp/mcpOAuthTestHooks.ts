// What the integration tests reach of the MCP sign-in (only with ASIDE_TEST_HOOKS=1): Sign in and
// Sign out by the path the server list's buttons take; the browser step, which a headless harness
// cannot take (it cannot click through a real external browser): the authorization URL is kept for
// the test instead of opening the browser, the test fetches it itself, and hands the redirect it got
// to the extension's registered URI handler as VS Code does when the browser comes back — the same
// handler, the same `state` check; and what SecretStorage keeps for a server.
import * as vscode from 'vscode';
import { OAUTH_SECRET, oauthResource } from '../../mcp/oauth';
import { OAUTH_CALLBACK_PATH } from './mcpOAuth';
import type { WindowMcp } from './mcpWindow';

export interface McpOAuthTestHooks {
	/** Sign in, as the server list's button does (the same control call). */
	readonly signIn: (name: string) => Promise<void>;
	readonly signOut: (name: string) => Promise<void>;
	/** From now on the authorization URLs are kept for the test instead of opening the browser (false: the browser again). */
	readonly interceptBrowser: (intercept: boolean) => void;
	/** The authorization URLs the browser would have opened, in order. */
	readonly authorizationsOpened: () => readonly string[];
	/** The redirect URL the authorization server is given. */
	readonly redirectUrl: () => string;
	/** Hands the URI handler the redirect the authorization server answered with (its `Location`), as VS Code does. */
	readonly deliverRedirect: (location: string) => void;
	/** What SecretStorage keeps for the server at `url`, parsed, or undefined. */
	readonly oauthRecord: (url: string) => Promise<unknown>;
}

/** The query VS Code hands the handler: the redirect's own, or the one a browser-hosted VS Code carries in `vscode-query`. */
function redirectQuery(location: string): string {
	const url = new URL(location);
	return url.searchParams.get('vscode-query') ?? url.search.replace(/^\?/, '');
}

export function mcpOAuthTestHooks(mcp: WindowMcp, secrets: vscode.SecretStorage): McpOAuthTestHooks {
	const opened: string[] = [];
	return {
		signIn: (name) => mcp.control.signIn?.(name) ?? Promise.reject(new Error('no sign-in here')),
		signOut: (name) => mcp.control.signOut?.(name) ?? Promise.reject(new Error('no sign-out here')),
		interceptBrowser: (intercept) => {
			mcp.signIn.answerBrowser(intercept ? (url) => {
				opened.push(url);
				return Promise.resolve(true);
			} : undefined);
		},
		authorizationsOpened: () => opened.slice(),
		redirectUrl: () => mcp.signIn.redirectUrl(),
		deliverRedirect: (location) => {
			const uri = vscode.Uri.from({ scheme: vscode.env.uriScheme, authority: 'aside-dev.aside', path: OAUTH_CALLBACK_PATH, query: redirectQuery(location) });
			void mcp.signIn.uriHandler.handleUri(uri);
		},
		oauthRecord: async (url) => {
			const text = await secrets.get(`${OAUTH_SECRET}${oauthResource(url)}`);
			return text === undefined ? undefined : (JSON.parse(text) as unknown);
		},
	};
}
