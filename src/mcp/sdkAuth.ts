// The SDK's OAuth client over Aside's sign-in (oauth.ts): the OAuthClientProvider the HTTP and SSE
// transports are given, the code exchange once the browser came back, and the SDK's "authorization
// required" as Aside's NeedsSignIn. The SDK does discovery (RFC 9728 protected resource metadata,
// RFC 8414 / OpenID metadata, the 2025-03-26 fallbacks), dynamic registration or a client ID
// metadata document, PKCE (S256), the resource indicator, scope selection and step-up, refresh;
// Aside keeps what it stores, and never opens the browser from here: an authorization the SDK asks
// for waits for the person's Sign in.
import {
	auth,
	type OAuthClientMetadata,
	type OAuthClientProvider,
	type OAuthDiscoveryState,
	type StoredOAuthClientInformation,
	type StoredOAuthTokens,
	UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { OAuthCallback, ServerOAuth } from './oauth';
import { NeedsSignIn } from './session';

export class SdkOAuthProvider implements OAuthClientProvider {
	constructor(private readonly oauth: ServerOAuth) {}

	get redirectUrl(): string {
		return this.oauth.redirectUrl;
	}

	get clientMetadataUrl(): string | undefined {
		return this.oauth.clientMetadataUrl;
	}

	get clientMetadata(): OAuthClientMetadata {
		// A public client (RFC 8252: a native app keeps no secret): no scope of its own, so the server's are asked for.
		return {
			client_name: 'Aside (VS Code)',
			redirect_uris: [this.oauth.redirectUrl],
			grant_types: ['authorization_code', 'refresh_token'],
			response_types: ['code'],
			token_endpoint_auth_method: 'none',
		};
	}

	state(): string {
		return this.oauth.newState();
	}

	async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
		return (await this.oauth.client()) as StoredOAuthClientInformation | undefined;
	}

	saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
		return this.oauth.saveClient(client);
	}

	async tokens(): Promise<StoredOAuthTokens | undefined> {
		return (await this.oauth.tokens()) as StoredOAuthTokens | undefined;
	}

	saveTokens(tokens: StoredOAuthTokens): Promise<void> {
		return this.oauth.saveTokens(tokens);
	}

	redirectToAuthorization(authorizationUrl: URL): void {
		this.oauth.authorizationNeeded(authorizationUrl.href);
	}

	saveCodeVerifier(codeVerifier: string): Promise<void> {
		return this.oauth.saveVerifier(codeVerifier);
	}

	codeVerifier(): Promise<string> {
		return this.oauth.verifier();
	}

	invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
		return this.oauth.invalidate(scope);
	}

	saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
		return this.oauth.saveDiscovery(state as unknown as Readonly<Record<string, unknown>>);
	}

	async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
		return (await this.oauth.discovery()) as OAuthDiscoveryState | undefined;
	}
}

/** Exchanges the code the browser came back with for tokens (kept by `oauth`): the authorization's own scope and discovery. */
export async function exchangeSdkCode(oauth: ServerOAuth, callback: OAuthCallback, scope: string | undefined): Promise<void> {
	const result = await auth(new SdkOAuthProvider(oauth), {
		serverUrl: oauth.url,
		authorizationCode: callback.code,
		...(callback.iss === undefined ? {} : { iss: callback.iss }),
		...(scope === undefined ? {} : { scope }),
	});
	if (result !== 'AUTHORIZED') {
		throw new Error('The authorization server did not issue tokens for the sign-in.');
	}
}

/** The SDK's "authorization required" (a 401 no kept token answers) as Aside's NeedsSignIn; undefined for any other error. */
export function signInError(error: unknown, server: string): NeedsSignIn | undefined {
	return UnauthorizedError.isInstance(error) ? new NeedsSignIn(`${server} asks you to sign in before it answers.`, { cause: error }) : undefined;
}
