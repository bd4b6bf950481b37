// What a server's sign-in keeps, and where: one SecretStorage record per server URL (origin and
// path), bound to that resource; the pre-registered client; a registration for another redirect
// dropped; the open authorization left alone while the person signs in; Sign out forgets it all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemorySecrets } from '../testing/memorySecrets';
import { OAUTH_SECRET, OAuthRegistry, oauthResource, ServerOAuth } from './oauth';
import { readUserServers } from './serverConfig';
import { inputsUsed, resolveVariables } from './variables';

const REDIRECT = 'vscode://aside-dev.aside/mcp-oauth-callback';

function oauthOf(url: string, secrets = new MemorySecrets(), redirect = REDIRECT) {
	return { secrets, oauth: new ServerOAuth(url, { secrets, redirectUrl: () => redirect }) };
}

describe('a server sign-in: what is kept', () => {
	it('keeps tokens under the server URL\'s origin and path, never its query or fragment', async () => {
		const { secrets, oauth } = oauthOf('https://mcp.example.com/v1/mcp?tenant=a#x');
		assert.equal(oauthResource('https://mcp.example.com/v1/mcp?tenant=a#x'), 'https://mcp.example.com/v1/mcp');
		await oauth.saveTokens({ access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1' });
		assert.deepEqual([...secrets.values.keys()], [`${OAUTH_SECRET}https://mcp.example.com/v1/mcp`]);
		const kept = JSON.parse(secrets.values.get(oauth.key) ?? '{}') as { resource: string; tokens: { access_token: string } };
		assert.equal(kept.resource, 'https://mcp.example.com/v1/mcp');
		assert.equal(kept.tokens.access_token, 'at-1');
		assert.equal(oauth.signedIn, true);
	});

	it('gives a server only its own tokens: another path, port or host has none, and a record for another resource is ignored', async () => {
		const secrets = new MemorySecrets();
		const { oauth: first } = oauthOf('https://mcp.example.com/a', secrets);
		await first.saveTokens({ access_token: 'at-a', token_type: 'Bearer' });
		for (const other of ['https://mcp.example.com/b', 'https://mcp.example.com:8443/a', 'https://evil.example.com/a', 'http://mcp.example.com/a']) {
			assert.equal(await oauthOf(other, secrets).oauth.tokens(), undefined, other);
		}
		// A record copied under this server's key that names another resource is not this server's.
		secrets.values.set(`${OAUTH_SECRET}https://mcp.example.com/b`, secrets.values.get(first.key) ?? '');
		const { oauth: second } = oauthOf('https://mcp.example.com/b', secrets);
		assert.equal(await second.tokens(), undefined);
		assert.equal(second.signedIn, false);
		assert.equal((await oauthOf('https://mcp.example.com/a', secrets).oauth.tokens())?.access_token, 'at-a');
	});

	it('uses the pre-registered client as configured, and never stores one over it', async () => {
		const secrets = new MemorySecrets();
		const preRegistered = { clientId: 'mine', clientSecret: 's3cret' };
		const oauth = new ServerOAuth('https://mcp.example.com/mcp', { secrets, redirectUrl: () => REDIRECT, preRegistered });
		await oauth.saveClient({ client_id: 'registered' });
		assert.deepEqual(await oauth.client(), { client_id: 'mine', client_secret: 's3cret' });
		assert.equal(secrets.values.size, 0);
	});

	it('registers again when the kept registration is for another redirect URL (another VS Code)', async () => {
		const secrets = new MemorySecrets();
		const { oauth: first } = oauthOf('https://mcp.example.com/mcp', secrets, 'vscode://aside-dev.aside/mcp-oauth-callback');
		await first.saveClient({ client_id: 'c1', redirect_uris: [REDIRECT] });
		assert.equal((await oauthOf('https://mcp.example.com/mcp', secrets).oauth.client())?.client_id, 'c1');
		assert.equal(await oauthOf('https://mcp.example.com/mcp', secrets, 'vscode-insiders://aside-dev.aside/mcp-oauth-callback').oauth.client(), undefined);
	});

	it('keeps the open authorization\'s verifier while the person signs in, and forgets everything on sign out', async () => {
		const { secrets, oauth } = oauthOf('https://mcp.example.com/mcp');
		await oauth.saveVerifier('v1');
		let asked = 0;
		oauth.onDidNeedSignIn(() => asked++);
		oauth.authorizationNeeded('https://auth.example.com/authorize?state=s1&scope=read%20write');
		assert.deepEqual(oauth.pending, { url: 'https://auth.example.com/authorize?state=s1&scope=read%20write', state: 's1', scope: 'read write' });
		const { pending, done } = oauth.begin();
		// Another connection asking meanwhile must not replace what the browser was given.
		await oauth.saveVerifier('v2');
		oauth.authorizationNeeded('https://auth.example.com/authorize?state=s2');
		assert.equal(await oauth.verifier(), 'v1');
		assert.equal(oauth.pending, pending);
		assert.equal(asked, 2);
		done(true);
		assert.equal(oauth.pending, undefined);
		await oauth.saveTokens({ access_token: 'at', token_type: 'Bearer' });
		await oauth.signOut();
		assert.equal(secrets.values.size, 0);
		assert.equal(oauth.signedIn, false);
		assert.equal(await oauth.tokens(), undefined);
		await assert.rejects(oauth.verifier(), /sign in again/);
	});

	it('takes a server with its own Authorization header at its word: no sign-in', () => {
		const registry = new OAuthRegistry({ secrets: new MemorySecrets(), redirectUrl: () => REDIRECT });
		assert.equal(registry.forServer({ url: 'https://a.example.com/mcp', headers: { authorization: 'Bearer mine' } }), undefined);
		const oauth = registry.forServer({ url: 'https://a.example.com/mcp', headers: {} });
		assert.ok(oauth);
		assert.equal(registry.forServer({ url: 'https://a.example.com/mcp?x=1', headers: {} }), oauth);
	});

	it('reads a server\'s pre-registered client (`oauth`), its secret an ${input:…} kept in the secret storage', async () => {
		const { servers, problems } = readUserServers({
			api: { type: 'http', url: 'https://mcp.example.com/mcp', oauth: { clientId: 'aside-app', clientSecret: '${input:api-secret}' } },
			bad: { type: 'http', url: 'https://mcp.example.com/mcp', oauth: { clientId: '' } },
		});
		assert.equal(servers.length, 1);
		assert.match(problems[0]?.message ?? '', /MCP server "bad"/);
		const [api] = servers;
		assert.ok(api?.transport === 'http');
		assert.deepEqual(api.oauth, { clientId: 'aside-app', clientSecret: '${input:api-secret}' });
		assert.deepEqual(inputsUsed(api), ['api-secret']);
		const resolved = await resolveVariables(api, { userHome: '/home/me', env: {}, input: (id) => Promise.resolve(id === 'api-secret' ? 's3cret' : undefined) });
		assert.ok('transport' in resolved && resolved.transport === 'http');
		assert.deepEqual(resolved.oauth, { clientId: 'aside-app', clientSecret: 's3cret' });
	});
});
