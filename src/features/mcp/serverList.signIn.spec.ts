// The server list's sign-in, host side, against a real OAuth-protected server on loopback
// (src/testing/oauthServer.ts): the row says "needs sign-in" and the model is told why its tools are
// missing; the list's Sign in and Sign out messages run the sign-in (the browser headless: it follows
// the authorization URL and hands the redirect back as VS Code's URI handler does).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Emitter } from '../../base/event';
import { launchOf } from '../../mcp/launch';
import { OAuthRegistry } from '../../mcp/oauth';
import { McpSignIn, OAuthCallbacks } from '../../mcp/oauthSignIn';
import { exchangeSdkCode } from '../../mcp/sdkAuth';
import { sdkConnector } from '../../mcp/sdkConnector';
import { readUserServers } from '../../mcp/serverConfig';
import { McpServers } from '../../mcp/servers';
import type { McpServersView } from '../../protocol/mcp';
import { MemorySecrets } from '../../testing/memorySecrets';
import { type OAuthMcpServer, startOAuthMcpServer } from '../../testing/oauthServer';
import { RecordingLogger } from '../../testing/recordingLogger';
import type { FeatureViewPort, Unsequenced } from '../../view/featureView';
import { McpServerList } from './serverList';
import { serversBody } from './serverSections';

const opened: { dispose(): void }[] = [];
const remotes: OAuthMcpServer[] = [];
after(async () => {
	opened.forEach((item) => {
		item.dispose();
	});
	await Promise.all(remotes.map((remote) => remote.close()));
});

async function setup() {
	const remote = await startOAuthMcpServer();
	remotes.push(remote);
	const secrets = new MemorySecrets();
	const registry = new OAuthRegistry({ secrets, redirectUrl: () => 'vscode://aside-dev.aside/mcp-oauth-callback' });
	const servers = new McpServers({
		source: { read: () => readUserServers({ remote: { type: 'http', url: remote.url } }), onDidChange: new Emitter<void>().event },
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: {}, readFile: () => Promise.reject(new Error('none')) }),
		approve: () => Promise.resolve(true),
		startupTimeoutMs: () => 10_000,
		requestTimeoutMs: () => 10_000,
		oauth: (server) => registry.forServer(server),
	});
	const callbacks = new OAuthCallbacks();
	let browserOpens = true;
	const signIns = new McpSignIn(servers, {
		callbacks,
		openBrowser: async (url) => {
			const location = browserOpens ? (await fetch(url, { redirect: 'manual' })).headers.get('location') : null;
			return location !== null && callbacks.deliver(new URL(location).search);
		},
		exchange: exchangeSdkCode,
		timeoutMs: 5000,
	});
	const list = new McpServerList(servers, {
		trusted: () => true,
		showOutput: () => undefined,
		stderrTail: () => '',
		setDisabled: () => Promise.resolve(undefined),
		signIn: (name) => signIns.signIn(name, new AbortController().signal),
		signOut: (name) => signIns.signOut(name),
	}, new RecordingLogger());
	opened.push(list, servers);
	const sent: Unsequenced[] = [];
	const notices: string[] = [];
	const port: FeatureViewPort = { send: (message) => sent.push(message), notice: (_level, text) => notices.push(text) };
	opened.push(list.connect(port));
	const last = (): McpServersView['servers'][number] | undefined =>
		sent.flatMap((message) => (message.type === 'mcp.servers' ? [message.view] : [])).at(-1)?.servers[0];
	/** Waits until the list last sent shows the server in `state`. */
	const shows = async (state: string): Promise<void> => {
		for (let waited = 0; last()?.state !== state; waited += 20) {
			assert.ok(waited < 5000, `the row shows ${state} (it shows ${last()?.state ?? 'nothing'})`);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	};
	return { remote, secrets, servers, list, port, notices, last, shows, setBrowser: (opens: boolean) => (browserOpens = opens) };
}

describe('the MCP server list: signing in', () => {
	it('shows needs sign-in and tells the model why; Sign in connects it, Sign out forgets it', async () => {
		const { remote, secrets, servers, list, port, last, shows } = await setup();
		await servers.ready(new AbortController().signal);
		await shows('needs-sign-in');
		assert.equal(last()?.signedIn, undefined, 'nothing to sign out of yet');
		assert.match(serversBody(servers) ?? '', /- remote: needs sign-in: its tools are not offered until the person signs in/);
		assert.equal(remote.authorizeRequests.length, 0, 'no browser before the click');
		list.receive({ type: 'mcp.signIn', server: 'remote' }, port);
		await shows('connected');
		assert.equal(last()?.signedIn, true);
		assert.equal(last()?.toolCount, 1);
		assert.ok(secrets.values.get(`aside.mcp.oauth.${remote.url}`)?.includes('"access_token"'));
		list.receive({ type: 'mcp.signOut', server: 'remote' }, port);
		await shows('needs-sign-in');
		assert.equal(last()?.signedIn, undefined);
		assert.ok(!secrets.values.get(`aside.mcp.oauth.${remote.url}`)?.includes('"access_token"'), 'the tokens are gone');
	});

	it('says why a sign-in failed, and the row still asks for one', async () => {
		const { servers, list, port, notices, last, shows, setBrowser } = await setup();
		await servers.ready(new AbortController().signal);
		await shows('needs-sign-in');
		setBrowser(false);
		list.receive({ type: 'mcp.signIn', server: 'remote' }, port);
		for (let waited = 0; notices.length === 0; waited += 20) {
			assert.ok(waited < 5000, 'a notice says why');
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		assert.match(notices[0] ?? '', /Signing in to the MCP server "remote" failed: .*browser_not_opened/);
		assert.equal(last()?.state, 'needs-sign-in');
	});
});
