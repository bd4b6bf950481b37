// OAuth sign-in to remote MCP servers in VS Code (docs/mcp.md, "Signing in"): what is kept goes in
// SecretStorage (oauth.ts); the authorization server sends the browser back to this extension's URI
// handler (`<scheme>://aside-dev.aside/mcp-oauth-callback`, made external with asExternalUri), whose
// redirect goes to the sign-in waiting for its `state`. A sign-in shows a notification while it
// waits, with Cancel, and opens the browser only when the person asked for it (Sign in, or the
// command); Sign out forgets the server's tokens.
import * as vscode from 'vscode';
import type { DisposableStore } from '../../base/lifecycle';
import { errorMessage } from '../../base/errors';
import type { Logger } from '../../base/log';
import type { OAuthFor } from '../../mcp/connectionSignIn';
import { OAuthRegistry } from '../../mcp/oauth';
import { McpSignIn, OAuthCallbacks } from '../../mcp/oauthSignIn';
import { exchangeSdkCode } from '../../mcp/sdkAuth';
import type { McpServers } from '../../mcp/servers';

/** The path of the URI handler's redirect. */
export const OAUTH_CALLBACK_PATH = '/mcp-oauth-callback';

/** Opens an authorization URL; false when it could not. */
export type OpenBrowser = (url: string) => Promise<boolean>;

export interface WindowOAuth {
	/** Each HTTP server's sign-in (the servers' `oauth` dependency). */
	readonly oauthFor: OAuthFor;
	/** Sign in and Sign out, once the servers exist. */
	attach(servers: McpServers): WindowSignIn;
}

export interface WindowSignIn {
	readonly signIns: McpSignIn;
	/** Signs in to `server` with a notification that waits (and can cancel); resolves once it connects again or is cancelled. */
	signIn(server: string): Promise<void>;
	signOut(server: string): Promise<void>;
	/** Who opens the authorization URL: the browser, unless the test hooks follow it themselves. */
	answerBrowser(open: OpenBrowser | undefined): void;
	/** The URI handler registered for the redirects (the test hooks hand it theirs, as VS Code does). */
	readonly uriHandler: vscode.UriHandler;
	/** The redirect URL the authorization server is given (the URI handler's, made external). */
	redirectUrl(): string;
}

export function windowOAuth(context: vscode.ExtensionContext, store: DisposableStore, log: Logger): WindowOAuth {
	const callback = vscode.Uri.parse(`${vscode.env.uriScheme}://${context.extension.id}${OAUTH_CALLBACK_PATH}`);
	// The external form (another one in a browser-hosted VS Code) is known shortly; servers connect later, at a chat's first message.
	let redirect = callback.toString(true);
	vscode.env.asExternalUri(callback).then(
		(external) => {
			redirect = external.toString(true);
		},
		(error: unknown) => {
			log.warn(`Aside: no external URI for the MCP sign-in redirect (${errorMessage(error)}); using ${redirect}.`);
		},
	);
	const registry = new OAuthRegistry({ secrets: context.secrets, redirectUrl: () => redirect });
	const callbacks = new OAuthCallbacks();
	const uriHandler: vscode.UriHandler = {
		handleUri: (uri) => {
			if (uri.path !== OAUTH_CALLBACK_PATH) {
				return;
			}
			if (!callbacks.deliver(uri.query)) {
				log.warn('Aside: a sign-in redirect came back that no sign-in waits for (it timed out, was cancelled, or is not this window\'s); ignored.');
				void vscode.window.showWarningMessage('Aside: this sign-in is no longer waiting (it timed out or was cancelled). Choose Sign in again.');
			}
		},
	};
	store.add(vscode.window.registerUriHandler(uriHandler));
	return {
		oauthFor: (server) => registry.forServer(server),
		attach: (servers) => {
			let browser: OpenBrowser | undefined;
			const signIns = new McpSignIn(servers, {
				callbacks,
				openBrowser: (url) => (browser ?? ((target) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(target, true)))))(url),
				exchange: exchangeSdkCode,
			});
			return {
				signIns,
				uriHandler,
				redirectUrl: () => redirect,
				answerBrowser: (open) => {
					browser = open;
				},
				signIn: (server) =>
					Promise.resolve(vscode.window.withProgress(
						{ location: vscode.ProgressLocation.Notification, title: `Aside: signing in to the MCP server "${server}" in your browser…`, cancellable: true },
						async (_progress, token) => {
							const abort = new AbortController();
							const cancel = token.onCancellationRequested(() => {
								abort.abort();
							});
							try {
								await signIns.signIn(server, abort.signal);
							} catch (error) {
								// Cancelled by the person: nothing to say.
								if (!abort.signal.aborted) {
									throw error;
								}
							} finally {
								cancel.dispose();
							}
						},
					)),
				signOut: async (server) => {
					await signIns.signOut(server);
					log.info(`Aside: signed out of the MCP server "${server}"; its tokens were removed from the secret storage.`);
				},
			};
		},
	};
}
