// Signing in to an OAuth-protected MCP server, end to end against a real one on loopback
// (src/testing/oauthServer.ts) through Aside's whole stack — the window's servers, the SDK
// connector and its OAuth client, the sign-in — with only the browser headless: it follows the
// authorization URL and hands the redirect to the sign-in, as VS Code's URI handler does.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Emitter } from '../base/event';
import { MemorySecrets } from '../testing/memorySecrets';
import { type OAuthMcpServer, startOAuthMcpServer } from '../testing/oauthServer';
import type { ToolContext } from '../tools/tool';
import { launchOf } from './launch';
import { OAuthRegistry } from './oauth';
import { McpSignIn, OAuthCallbacks } from './oauthSignIn';
import { exchangeSdkCode } from './sdkAuth';
import { sdkConnector } from './sdkConnector';
import { readUserServers } from './serverConfig';
import { McpServers } from './servers';

const context = () => ({ signal: new AbortController().signal }) as unknown as ToolContext;
const started: { close(): Promise<void> }[] = [];
const opened: McpServers[] = [];
after(async () => {
	opened.forEach((servers) => {
		servers.dispose();
	});
	await Promise.all(started.map((server) => server.close()));
});

async function setup(count = 1) {
	const remote: OAuthMcpServer[] = [];
	for (let i = 0; i < count; i++) {
		remote.push(await startOAuthMcpServer());
	}
	started.push(...remote);
	const secrets = new MemorySecrets();
	const registry = new OAuthRegistry({ secrets, redirectUrl: () => 'vscode://aside-dev.aside/mcp-oauth-callback' });
	const settings = Object.fromEntries(remote.map((server, i) => [`s${i}`, { type: 'http', url: server.url }]));
	const servers = new McpServers({
		source: { read: () => readUserServers(settings), onDidChange: new Emitter<void>().event },
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: {}, readFile: () => Promise.reject(new Error('none')) }),
		approve: () => Promise.resolve(true),
		startupTimeoutMs: () => 10_000,
		requestTimeoutMs: () => 10_000,
		oauth: (server) => registry.forServer(server),
	});
	opened.push(servers);
	const callbacks = new OAuthCallbacks();
	const followed: string[] = [];
	const signIns = new McpSignIn(servers, {
		callbacks,
		openBrowser: async (url) => {
			followed.push(url);
			const location = (await fetch(url, { redirect: 'manual' })).headers.get('location');
			return location !== null && callbacks.deliver(new URL(location).search);
		},
		exchange: exchangeSdkCode,
		timeoutMs: 5000,
	});
	const states: string[] = [];
	servers.onDidChange((change) => {
		if (change.kind === 'server' && change.event.kind === 'state') {
			states.push(`${change.server} ${change.event.state.kind}`);
		}
	});
	const call = () => {
		const tool = servers.tools().find((candidate) => candidate.name === 'mcp__s0__whoami');
		assert.ok(tool, 'whoami is offered');
		return tool.run({}, context());
	};
	return { remote, secrets, servers, signIns, callbacks, followed, states, call };
}

describe('signing in to an OAuth-protected MCP server', () => {
	it('needs sign-in at start without opening the browser; Sign in connects it and keeps the tokens for that server only', async () => {
		const { remote, secrets, servers, signIns, followed, call } = await setup(2);
		const [first, second] = remote;
		assert.ok(first && second);
		await servers.ready(new AbortController().signal);
		assert.deepEqual(servers.entries().map((entry) => entry.state.kind), ['needs-sign-in', 'needs-sign-in']);
		assert.deepEqual(followed, [], 'the browser opens only on Sign in');
		assert.equal(first.authorizeRequests.length, 0, 'nothing reached the authorization endpoint before Sign in');
		assert.deepEqual(servers.tools(), []);
		await signIns.signIn('s0', new AbortController().signal);
		assert.equal(followed.length, 1);
		const [authorize] = first.authorizeRequests;
		assert.ok(authorize);
		assert.equal(authorize.code_challenge_method, 'S256');
		assert.equal(authorize.resource, first.url);
		assert.deepEqual(servers.entries().map((entry) => entry.state.kind), ['connected', 'needs-sign-in']);
		assert.match((await call()).content, /^signed in with at-/);
		const kept = JSON.parse(secrets.values.get(`aside.mcp.oauth.${first.url}`) ?? '{}') as { resource?: string; tokens?: { access_token?: string } };
		assert.equal(kept.resource, first.url);
		assert.ok(kept.tokens?.access_token?.startsWith('at-'));
		assert.equal(signIns.signedIn('s0'), true);
		// The other server never saw s0's token, and is still asking.
		assert.ok(second.authorizations.every((header) => header === undefined));
		assert.equal(signIns.signedIn('s1'), false);
	});

	it('refreshes an expired token silently; a refresh that fails goes back to needs sign-in', async () => {
		const { remote, servers, signIns, states, call } = await setup();
		await servers.ready(new AbortController().signal);
		await signIns.signIn('s0', new AbortController().signal);
		const server = remote[0];
		assert.ok(server);
		server.expireTokens();
		assert.match((await call()).content, /^signed in with at-/);
		assert.deepEqual(server.tokenRequests, ['authorization_code', 'refresh_token']);
		assert.equal(states.at(-1), 's0 connected');
		server.expireTokens();
		server.refuseRefresh = true;
		await assert.rejects(call(), /asks you to sign in again/);
		assert.equal(servers.entries()[0]?.state.kind, 'needs-sign-in');
	});

	it('Sign out forgets the tokens: the server asks for a sign-in again', async () => {
		const { remote, secrets, servers, signIns } = await setup();
		await servers.ready(new AbortController().signal);
		await signIns.signIn('s0', new AbortController().signal);
		await signIns.signOut('s0');
		// What the server asked for again is kept (a new registration, the verifier), no token.
		const kept = JSON.parse(secrets.values.get(`aside.mcp.oauth.${remote[0]?.url ?? ''}`) ?? '{}') as { tokens?: unknown; client?: { client_id?: string } };
		assert.equal(kept.tokens, undefined);
		assert.equal(kept.client?.client_id, 'client-2');
		assert.equal(servers.entries()[0]?.state.kind, 'needs-sign-in');
		assert.equal(signIns.signedIn('s0'), false);
		await assert.rejects(signIns.signOut('nothing'), /no sign-in to forget/);
	});

	it('refuses a redirect of another state; a sign-in that never comes back or is cancelled says so, and can be tried again', async () => {
		const { servers, signIns, callbacks } = await setup();
		await servers.ready(new AbortController().signal);
		assert.equal(callbacks.deliver('code=forged&state=not-waited-for'), false);
		const never = new McpSignIn(servers, { callbacks, openBrowser: () => Promise.resolve(true), exchange: exchangeSdkCode, timeoutMs: 50 });
		await assert.rejects(never.signIn('s0', new AbortController().signal), /did not come back to VS Code/);
		const abort = new AbortController();
		const cancelled = never.signIn('s0', abort.signal);
		abort.abort();
		await assert.rejects(cancelled, /cancelled/);
		const refused = new McpSignIn(servers, { callbacks, openBrowser: () => Promise.resolve(false), exchange: exchangeSdkCode });
		await assert.rejects(refused.signIn('s0', new AbortController().signal), /browser_not_opened/);
		assert.equal(servers.entries()[0]?.state.kind, 'needs-sign-in');
		// An authorization endpoint that is no web page never reaches the browser.
		const oauth = servers.connectionOf('s0')?.oauth;
		assert.ok(oauth);
		const real = oauth.pending;
		oauth.authorizationNeeded('command:workbench.action.terminal.new?state=s');
		await assert.rejects(refused.signIn('s0', new AbortController().signal), /not a web page: refused/);
		assert.ok(real);
		oauth.authorizationNeeded(real.url);
		await signIns.signIn('s0', new AbortController().signal);
		assert.equal(servers.entries()[0]?.state.kind, 'connected');
		await assert.rejects(signIns.signIn('s0', new AbortController().signal), /does not ask for a sign-in/);
	});
});
