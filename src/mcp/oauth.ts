// OAuth sign-in for a remote MCP server (docs/mcp.md, "Signing in"), in Aside's terms: what is kept
// for one server and where. Everything a sign-in leaves — tokens, the client registration, the PKCE
// verifier, what discovery found — is one record in SecretStorage under a key made of the server
// URL's origin and path, and the record names that resource again: a token is only ever handed to
// the server it was issued for. The SDK's OAuth client drives the protocol (sdkAuth.ts adapts this
// to it); the browser opens only when the person asks (oauthSignIn.ts).
import { randomBytes } from 'node:crypto';
import { Emitter } from '../base/event';

/** Where a server's sign-in is kept in SecretStorage: this prefix and the server URL's origin and path. */
export const OAUTH_SECRET = 'aside.mcp.oauth.';

/** The part of SecretStorage a sign-in uses. */
export interface OAuthSecrets {
	get(key: string): PromiseLike<string | undefined>;
	store(key: string, value: string): PromiseLike<void>;
	delete(key: string): PromiseLike<void>;
}

/** A server's OAuth client registered beforehand (its `oauth` entry), used instead of registering one. */
export interface PreRegisteredClient {
	readonly clientId: string;
	readonly clientSecret?: string;
}

type Json = Readonly<Record<string, unknown>>;

/** What is kept for one server (the SDK's shapes, opaque here but for the few fields read below). */
interface OAuthRecord {
	/** The resource the record belongs to: a record read under another server's key is ignored. */
	readonly resource: string;
	readonly tokens?: Json;
	readonly client?: Json;
	readonly verifier?: string;
	readonly discovery?: Json;
}

/** An authorization the server asked for: the URL the browser is to open, and its `state`. */
export interface PendingSignIn {
	readonly url: string;
	readonly state: string;
	/** The scope it asks for (the token request asks for the same). */
	readonly scope?: string;
}

/** What the browser came back with: the authorization code, and the issuer when the server says it (RFC 9207). */
export interface OAuthCallback {
	readonly code: string;
	readonly iss?: string;
}

/** The resource a sign-in is bound to: the server URL's origin and path (no query, no fragment). */
export function oauthResource(url: string): string {
	const parsed = new URL(url);
	return `${parsed.origin}${parsed.pathname}`;
}

export interface ServerOAuthOptions {
	readonly secrets: OAuthSecrets;
	/** Where the authorization server sends the browser back (the URI handler's external URI, known once resolved). */
	readonly redirectUrl: () => string;
	/** An https URL of Aside's client metadata document (CIMD), used as client_id where the server supports it. */
	readonly clientMetadataUrl?: string;
	readonly preRegistered?: PreRegisteredClient;
}

/** One server's sign-in: its kept record, the authorization it asks for, and whether a sign-in runs. */
export class ServerOAuth {
	readonly resource: string;
	readonly key: string;
	private cached: Promise<OAuthRecord> | undefined;
	private writes: Promise<unknown> = Promise.resolve();
	private _signedIn = false;
	private _pending: PendingSignIn | undefined;
	/** While the person signs in, the verifier and discovery the open authorization used are kept as they are. */
	private signingIn = false;
	private readonly _onDidNeedSignIn = new Emitter<void>();
	/** The server asked for an authorization the person has to give (a first sign-in, a failed refresh, more scope). */
	readonly onDidNeedSignIn = this._onDidNeedSignIn.event;

	constructor(
		readonly url: string,
		private readonly options: ServerOAuthOptions,
	) {
		this.resource = oauthResource(url);
		this.key = `${OAUTH_SECRET}${this.resource}`;
	}

	get redirectUrl(): string {
		return this.options.redirectUrl();
	}

	get clientMetadataUrl(): string | undefined {
		return this.options.clientMetadataUrl;
	}

	/** Whether tokens are kept for this server (known once the record was read). */
	get signedIn(): boolean {
		return this._signedIn;
	}

	get pending(): PendingSignIn | undefined {
		return this._pending;
	}

	private record(): Promise<OAuthRecord> {
		this.cached ??= Promise.resolve(this.options.secrets.get(this.key)).then((text) => {
			const record = parse(text);
			const bound = record?.resource === this.resource ? record : { resource: this.resource };
			this._signedIn = bound.tokens !== undefined;
			return bound;
		});
		return this.cached;
	}

	private update(change: (record: OAuthRecord) => OAuthRecord): Promise<void> {
		const write = this.writes.then(async () => {
			const next = change(await this.record());
			this.cached = Promise.resolve(next);
			this._signedIn = next.tokens !== undefined;
			await this.options.secrets.store(this.key, JSON.stringify(next));
		});
		this.writes = write.catch(() => undefined);
		return write;
	}

	async tokens(): Promise<Json | undefined> {
		return (await this.record()).tokens;
	}

	saveTokens(tokens: Json): Promise<void> {
		return this.update((record) => ({ ...record, tokens }));
	}

	/** The client: the pre-registered one, else the one registered for this redirect URL. */
	async client(): Promise<Json | undefined> {
		const { preRegistered } = this.options;
		if (preRegistered) {
			return { client_id: preRegistered.clientId, ...(preRegistered.clientSecret === undefined ? {} : { client_secret: preRegistered.clientSecret }) };
		}
		const { client } = await this.record();
		// A registration made for another redirect URL (another VS Code flavour) would be refused: register again.
		const uris = client?.redirect_uris;
		return Array.isArray(uris) && !uris.includes(this.redirectUrl) ? undefined : client;
	}

	saveClient(client: Json): Promise<void> {
		return this.options.preRegistered ? Promise.resolve() : this.update((record) => ({ ...record, client }));
	}

	async verifier(): Promise<string> {
		const { verifier } = await this.record();
		if (verifier === undefined) {
			throw new Error('No sign-in is under way for this server (its PKCE verifier is gone): sign in again.');
		}
		return verifier;
	}

	saveVerifier(verifier: string): Promise<void> {
		return this.signingIn ? Promise.resolve() : this.update((record) => ({ ...record, verifier }));
	}

	async discovery(): Promise<Json | undefined> {
		return (await this.record()).discovery;
	}

	saveDiscovery(discovery: Json): Promise<void> {
		return this.signingIn ? Promise.resolve() : this.update((record) => ({ ...record, discovery }));
	}

	/** Forgets what the server says no longer holds. */
	invalidate(what: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
		if (what === 'all') {
			return this.update(() => ({ resource: this.resource }));
		}
		const field = what === 'verifier' ? 'verifier' : what === 'discovery' ? 'discovery' : what;
		return this.update((record) => ({ ...record, [field]: undefined }));
	}

	/** A new `state` for an authorization request. */
	newState(): string {
		return randomBytes(24).toString('base64url');
	}

	/** The SDK built an authorization URL: it waits for the person's Sign in (the browser never opens by itself). */
	authorizationNeeded(url: string): void {
		if (!this.signingIn) {
			const parsed = new URL(url);
			const scope = parsed.searchParams.get('scope') ?? undefined;
			this._pending = { url, state: parsed.searchParams.get('state') ?? '', ...(scope === undefined ? {} : { scope }) };
		}
		this._onDidNeedSignIn.fire();
	}

	/** Marks a sign-in under way (the open authorization stays the one the browser got) until `done`. */
	begin(): { readonly pending: PendingSignIn; readonly done: (succeeded: boolean) => void } {
		const pending = this._pending;
		if (!pending) {
			throw new Error('The server has not asked for a sign-in.');
		}
		this.signingIn = true;
		return {
			pending,
			done: (succeeded) => {
				this.signingIn = false;
				if (succeeded && this._pending === pending) {
					this._pending = undefined;
				}
			},
		};
	}

	/** Signs out: forgets the tokens, the registration and everything else kept for this server. */
	async signOut(): Promise<void> {
		await this.writes;
		this._pending = undefined;
		this.cached = Promise.resolve({ resource: this.resource });
		this._signedIn = false;
		await this.options.secrets.delete(this.key);
	}

	/** Reads the kept record now (so `signedIn` is known before the server is reached). */
	async load(): Promise<void> {
		await this.record();
	}
}

function parse(text: string | undefined): OAuthRecord | undefined {
	if (text === undefined) {
		return undefined;
	}
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === 'object' && value !== null && typeof (value as { resource?: unknown }).resource === 'string' ? (value as OAuthRecord) : undefined;
	} catch {
		return undefined;
	}
}

/** The servers' sign-ins in this window, one per server resource, so two connections of one server share it. */
export class OAuthRegistry {
	private readonly byKey = new Map<string, ServerOAuth>();

	constructor(private readonly options: Omit<ServerOAuthOptions, 'preRegistered'>) {}

	/** The sign-in of an HTTP server; none for one whose headers carry its own Authorization (taken at its word). */
	forServer(server: { readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly oauth?: PreRegisteredClient }):
		| ServerOAuth
		| undefined {
		return Object.keys(server.headers).some((name) => name.toLowerCase() === 'authorization') ? undefined : this.for(server.url, server.oauth);
	}

	for(url: string, preRegistered?: PreRegisteredClient): ServerOAuth {
		const key = `${oauthResource(url)}\n${JSON.stringify(preRegistered ?? null)}`;
		let oauth = this.byKey.get(key);
		if (!oauth) {
			oauth = new ServerOAuth(url, { ...this.options, ...(preRegistered ? { preRegistered } : {}) });
			this.byKey.set(key, oauth);
		}
		return oauth;
	}
}
