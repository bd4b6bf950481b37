// Signing in to an OAuth-protected MCP server in the real workbench: a real loopback server with its
// own authorization server (src/testing/oauthServer.ts: discovery, dynamic registration, PKCE S256
// checked at its token endpoint), configured in the user settings as an `http` server. A chat's first
// message starts it and its row says it needs sign-in, with no browser opened; the list's Sign in
// runs the sign-in. The one step a headless harness cannot take is the person's browser: the test
// hooks keep the authorization URL instead of opening it, this test fetches it (the server's authorize
// endpoint redirects straight back, the consent taken as given) and hands the redirect to the
// extension's registered URI handler, as VS Code does when the browser comes back. The tokens land in
// SecretStorage for that server, its tool answers, and Sign out forgets them.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type OAuthMcpServer, startOAuthMcpServer } from '../../src/testing/oauthServer';
import { type ModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, lastUserText, until, useMcpChat } from './support';

type Request = ModelServer['requests'][number];

function messagesRequests(server: ModelServer): Request[] {
	return server.requests.filter((request) => request.path === '/v1/messages');
}

interface KeptRecord {
	readonly resource?: string;
	readonly tokens?: { readonly access_token?: string; readonly refresh_token?: string };
	readonly client?: { readonly client_id?: string };
}

describe('signing in to an OAuth-protected MCP server in the real workbench', function () {
	this.timeout(120_000);
	let model: ModelServer;
	let remote: OAuthMcpServer;
	let close: () => Promise<void>;
	/** The extension's API and test hooks, and its MCP test hooks (`oauth`). */
	const aside = async () => {
		const { api, hooks } = await activeAside();
		assert.ok(hooks.mcp, 'the MCP test hooks');
		return { api, hooks, oauth: hooks.mcp };
	};
	const state = async () => (await aside()).oauth.servers().find((entry) => entry.name === 'remote')?.state;
	const stateIs = async (wanted: string, what: string) => {
		const { oauth } = await aside();
		await until(() => oauth.servers().find((entry) => entry.name === 'remote')?.state, (kind) => kind === wanted, what, 60_000);
	};

	before(async () => {
		remote = await startOAuthMcpServer();
		const { oauth } = await aside();
		oauth.interceptBrowser(true);
		({ server: model, close } = await useMcpChat({ remote: { type: 'http', url: remote.url } }, 'sk-test-mcp-oauth'));
	});

	after(async () => {
		const { oauth } = await aside();
		oauth.interceptBrowser(false);
		await close();
		await remote.close();
	});

	it('a chat starts it as needing sign-in, without opening the browser; the model is told why its tools are missing', async () => {
		const { api, oauth } = await aside();
		model.script({ text: 'Hello.' }, { text: 'Noted.' });
		assert.equal((await api.sendMessage('Hello.')).outcome, 'done');
		await stateIs('needs-sign-in', 'the server to ask for a sign-in');
		assert.deepEqual(oauth.authorizationsOpened(), [], 'no browser when a chat starts');
		assert.equal(remote.authorizeRequests.length, 0);
		assert.equal(oauth.tools().some((name) => name.startsWith('mcp__remote__')), false);
		assert.equal(await oauth.oauthRecord(remote.url).then((record) => (record as KeptRecord | undefined)?.tokens), undefined);
		const before = messagesRequests(model).length;
		assert.equal((await api.sendMessage('Which MCP servers are there?')).outcome, 'done');
		assert.match(JSON.stringify(messagesRequests(model).slice(before)[0]?.body), /remote: needs sign-in: its tools are not offered until the person signs in/);
	});

	it('Sign in completes through the URI handler: tokens in SecretStorage for that server, its tool answers', async () => {
		const { api, hooks, oauth } = await aside();
		if (hasDriver) {
			await driver('clickInChat', { name: 'MCP servers: 0 of 1 connected, 1 needs sign-in' });
			await driver('clickInChat', { name: 'Sign in to remote' });
		} else {
			void oauth.signIn('remote');
		}
		const [authorization] = await until(() => oauth.authorizationsOpened(), (urls) => urls.length === 1, 'the Sign in to open the authorization');
		assert.ok(authorization);
		const asked = new URL(authorization).searchParams;
		assert.equal(asked.get('code_challenge_method'), 'S256');
		assert.equal(asked.get('resource'), remote.url);
		assert.equal(asked.get('redirect_uri'), oauth.redirectUrl());
		// A redirect no sign-in waits for (another state) is refused: the sign-in still waits.
		oauth.deliverRedirect(`${oauth.redirectUrl()}?code=forged&state=forged`);
		await new Promise((resolve) => setTimeout(resolve, 300));
		assert.equal(await state(), 'needs-sign-in');
		assert.equal(remote.tokenRequests.length, 0, 'a forged redirect reaches no token endpoint');
		// The person's browser, headless: the authorize endpoint answers with the redirect back to VS Code.
		const location = (await fetch(authorization, { redirect: 'manual' })).headers.get('location');
		assert.ok(location !== null && location.startsWith(oauth.redirectUrl().split('?')[0] ?? ''), `redirected to ${location ?? 'nowhere'}`);
		oauth.deliverRedirect(location);
		await stateIs('connected', 'the server to connect after the sign-in');
		assert.deepEqual(remote.tokenRequests, ['authorization_code']);
		const kept = (await oauth.oauthRecord(remote.url)) as KeptRecord | undefined;
		assert.ok(kept);
		assert.equal(kept.resource, remote.url);
		assert.match(kept.tokens?.access_token ?? '', /^at-/);
		assert.equal(remote.authorizations.at(-1), `Bearer ${kept.tokens?.access_token ?? ''}`, 'the server got the kept token');

		model.script({ toolCalls: [{ id: 'toolu_whoami', name: 'mcp__remote__whoami', input: {} }] }, { text: 'Signed in.' });
		const before = messagesRequests(model).length;
		const approver = setInterval(() => {
			if (hooks.pendingApproval() === 'toolu_whoami') {
				hooks.approve('toolu_whoami', true);
			}
		}, 50);
		try {
			assert.equal((await api.sendMessage('Who am I on the remote server?')).outcome, 'done');
		} finally {
			clearInterval(approver);
		}
		assert.match(lastUserText(messagesRequests(model).slice(before)[1]), /signed in with at-/);
	});

	it('Sign out forgets the tokens, and the server asks for a sign-in again', async () => {
		const { oauth } = await aside();
		if (hasDriver) {
			await driver('clickInChat', { name: 'Sign out of remote' });
		} else {
			await oauth.signOut('remote');
		}
		await stateIs('needs-sign-in', 'the server to ask for a sign-in again');
		const kept = (await oauth.oauthRecord(remote.url)) as KeptRecord | undefined;
		assert.equal(kept?.tokens, undefined, 'no token kept');
		assert.equal(remote.authorizations.at(-1), undefined, 'it connected again without a token');
		assert.equal(oauth.tools().some((name) => name.startsWith('mcp__remote__')), false);
	});

	it('Aside: Sign In to MCP Server… signs in the same way', async () => {
		const { oauth } = await aside();
		const commands = await vscode.commands.getCommands(true);
		assert.ok(commands.includes('aside.mcp.signIn') && commands.includes('aside.mcp.signOut'), 'both commands are registered');
		// The one server that asks is signed in to without a pick; the command returns once it connected.
		const signedIn = vscode.commands.executeCommand('aside.mcp.signIn');
		const opened = await until(() => oauth.authorizationsOpened(), (urls) => urls.length === 2, 'the command to open the authorization');
		const location = (await fetch(opened[1] ?? '', { redirect: 'manual' })).headers.get('location');
		assert.ok(location !== null);
		oauth.deliverRedirect(location);
		await signedIn;
		assert.equal(await state(), 'connected');
		assert.match(((await oauth.oauthRecord(remote.url)) as KeptRecord | undefined)?.tokens?.access_token ?? '', /^at-/);
	});
});
