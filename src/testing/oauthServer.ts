// An OAuth-protected MCP server on loopback, for the tests (node:http only): its own authorization
// server (RFC 9728 protected resource metadata, RFC 8414 metadata, dynamic registration, an
// authorize endpoint that redirects straight back with a code — the person's consent taken as given
// — PKCE S256 checked at the token endpoint, refresh tokens) and a small Streamable HTTP MCP server
// (JSON responses) with one tool, `whoami`, that answers only with a valid bearer token. It records
// the Authorization header of every MCP request, and can expire its tokens or refuse refreshes.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface OAuthMcpServer {
	/** The MCP endpoint: `http://127.0.0.1:<port>/mcp`. */
	readonly url: string;
	/** The Authorization header of each MCP request, in order (undefined: none). */
	readonly authorizations: (string | undefined)[];
	/** The grant types of the token requests, in order. */
	readonly tokenRequests: string[];
	/** The authorization requests' query parameters. */
	readonly authorizeRequests: Readonly<Record<string, string>>[];
	/** Makes every access token issued so far invalid (a refresh gets a new one). */
	expireTokens(): void;
	/** Refresh requests fail with invalid_grant from now on. */
	refuseRefresh: boolean;
	close(): Promise<void>;
}

function body(request: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		let text = '';
		request.on('data', (chunk: Buffer) => {
			text += chunk.toString();
		});
		request.on('end', () => {
			resolve(text);
		});
		request.on('error', reject);
	});
}

function json(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
	response.writeHead(status, { 'content-type': 'application/json', ...headers });
	response.end(JSON.stringify(value));
}

/** The MCP methods it answers (2025 revisions; `server/discover` is not known, so clients fall back to `initialize`). */
function mcpResult(method: string, params: Record<string, unknown> | undefined, token: string): unknown {
	switch (method) {
		case 'initialize':
			return {
				protocolVersion: typeof params?.protocolVersion === 'string' ? params.protocolVersion : '2025-06-18',
				capabilities: { tools: {} },
				serverInfo: { name: 'oauth-test', version: '1.0.0' },
			};
		case 'tools/list':
			return { tools: [{ name: 'whoami', description: 'Says which token called it.', inputSchema: { type: 'object', properties: {} } }] };
		case 'tools/call':
			return { content: [{ type: 'text', text: `signed in with ${token.slice(0, 6)}…` }] };
		default:
			return undefined;
	}
}

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
	let base = '';
	const clients = new Set<string>();
	const codes = new Map<string, { challenge: string; clientId: string }>();
	const access = new Set<string>();
	const refresh = new Set<string>();
	const authorizations: (string | undefined)[] = [];
	const tokenRequests: string[] = [];
	const authorizeRequests: Readonly<Record<string, string>>[] = [];
	const issue = () => {
		const tokens = { access_token: `at-${randomBytes(8).toString('hex')}`, refresh_token: `rt-${randomBytes(8).toString('hex')}` };
		access.add(tokens.access_token);
		refresh.add(tokens.refresh_token);
		return { ...tokens, token_type: 'Bearer', expires_in: 3600 };
	};
	const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
		const url = new URL(request.url ?? '/', base);
		const text = await body(request);
		if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
			json(response, 200, { resource: `${base}/mcp`, authorization_servers: [base] }); return;
		}
		if (url.pathname === '/.well-known/oauth-authorization-server') {
			json(response, 200, {
				issuer: base,
				authorization_endpoint: `${base}/authorize`,
				token_endpoint: `${base}/token`,
				registration_endpoint: `${base}/register`,
				response_types_supported: ['code'],
				grant_types_supported: ['authorization_code', 'refresh_token'],
				code_challenge_methods_supported: ['S256'],
				token_endpoint_auth_methods_supported: ['none'],
			}); return;
		}
		if (url.pathname === '/register' && request.method === 'POST') {
			const clientId = `client-${clients.size + 1}`;
			clients.add(clientId);
			json(response, 201, { ...(JSON.parse(text) as object), client_id: clientId }); return;
		}
		if (url.pathname === '/authorize') {
			authorizeRequests.push(Object.fromEntries(url.searchParams));
			const code = `code-${randomBytes(8).toString('hex')}`;
			codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', clientId: url.searchParams.get('client_id') ?? '' });
			const back = new URL(url.searchParams.get('redirect_uri') ?? '');
			back.searchParams.set('code', code);
			back.searchParams.set('state', url.searchParams.get('state') ?? '');
			response.writeHead(302, { location: back.href });
			response.end();
			return;
		}
		if (url.pathname === '/token' && request.method === 'POST') {
			const form = new URLSearchParams(text);
			const grant = form.get('grant_type') ?? '';
			tokenRequests.push(grant);
			if (grant === 'authorization_code') {
				const code = codes.get(form.get('code') ?? '');
				codes.delete(form.get('code') ?? '');
				const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
				if (!code || code.challenge !== challenge || !clients.has(code.clientId)) {
					json(response, 400, { error: 'invalid_grant', error_description: 'bad code or PKCE verifier' }); return;
				}
				json(response, 200, issue()); return;
			}
			const token = form.get('refresh_token') ?? '';
			if (grant === 'refresh_token' && refresh.has(token) && !server.refuseRefresh) {
				refresh.delete(token);
				json(response, 200, issue()); return;
			}
			json(response, 400, { error: 'invalid_grant', error_description: 'the refresh token is not valid' }); return;
		}
		if (url.pathname === '/mcp' && request.method === 'POST') {
			const header = request.headers.authorization;
			authorizations.push(header);
			const token = header?.startsWith('Bearer ') === true ? header.slice(7) : '';
			if (!access.has(token)) {
				const challenge = `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
				json(response, 401, { error: 'invalid_token' }, { 'www-authenticate': challenge }); return;
			}
			const message = JSON.parse(text) as { id?: number | string; method: string; params?: Record<string, unknown> };
			if (message.id === undefined) {
				response.writeHead(202);
				response.end();
				return;
			}
			const result = mcpResult(message.method, message.params, token);
			const answer = result === undefined ? { error: { code: -32601, message: 'Method not found' } } : { result };
			json(response, 200, { jsonrpc: '2.0', id: message.id, ...answer }); return;
		}
		response.writeHead(url.pathname === '/mcp' ? 405 : 404);
		response.end();
	};
	const http: Server = createServer((request, response) => {
		handle(request, response).catch(() => {
			response.writeHead(500);
			response.end();
		});
	});
	await new Promise<void>((resolve) => {
		http.listen(0, '127.0.0.1', resolve);
	});
	const address = http.address();
	base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
	const server: OAuthMcpServer = {
		url: `${base}/mcp`,
		authorizations,
		tokenRequests,
		authorizeRequests,
		expireTokens: () => {
			access.clear();
		},
		refuseRefresh: false,
		close: () =>
			new Promise<void>((resolve) => {
				http.closeAllConnections();
				http.close(() => {
					resolve();
				});
			}),
	};
	return server;
}
