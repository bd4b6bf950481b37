// API keys go only to the origin they were stored for. Two scripted servers on loopback: the
// user settings point Aside at A, where a key is stored; the workspace's settings
// (.vscode/settings.json) point it at B. B must never see A's key — not at a model-list refresh,
// not at a turn (activation: origins.reload.test.ts) — and the chat names the origin with no key.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, type ChatReading, driver, hasDriver, until } from './support';

const Global = vscode.ConfigurationTarget.Global;
const Workspace = vscode.ConfigurationTarget.Workspace;

function credentials(requests: readonly ReceivedRequest[]): string[] {
	return requests.flatMap((request) => [request.headers.authorization, request.headers['x-api-key']].flatMap((value) => (typeof value === 'string' ? [value] : [])));
}

async function chatUntil(done: (chat: ChatReading) => boolean, what: string): Promise<ChatReading> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const chat = await driver<ChatReading>('readChat');
		if (done(chat)) {
			return chat;
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}; the chat shows ${JSON.stringify(chat)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

describe('API keys go only to the origin they were stored for', function () {
	let a: ModelServer;
	let b: ModelServer;
	const aside = () => vscode.workspace.getConfiguration('aside');

	before(async () => {
		a = await startModelServer({ models: ['model-a'] });
		b = await startModelServer({ models: ['model-b'] });
	});

	after(async () => {
		const { hooks } = await activeAside();
		await aside().update('baseUrl', undefined, Workspace);
		for (const key of ['provider', 'baseUrl', 'model']) {
			await aside().update(key, undefined, Global);
		}
		for (const server of [a, b]) {
			await hooks.storeApiKey('openai-compatible', server.url, undefined);
			await hooks.storeApiKey('anthropic', server.url, undefined);
		}
		await a.close();
		await b.close();
	});

	it('OpenAI-compatible: the workspace\'s server gets no key at a refresh or at a turn', async () => {
		const { api, hooks } = await activeAside();
		await hooks.storeApiKey('openai-compatible', a.url, 'sk-origin-a');
		await aside().update('provider', 'openai-compatible', Global);
		await aside().update('baseUrl', `${a.url}/v1`, Global);
		// The key works where it was stored.
		await until(() => credentials(a.requests), (seen) => seen.includes('Bearer sk-origin-a'), 'A to get its key with the model list');
		const atA = a.requests.length;

		await aside().update('baseUrl', `${b.url}/v1`, Workspace);
		await until(() => b.requests.filter((request) => request.path === '/v1/models').length, (count) => count > 0, 'the model list refresh at B');
		b.script({ text: 'B answers.' });
		const result = await api.sendMessage('Which server answers?');
		assert.equal(result.outcome, 'done', result.error);
		assert.ok(b.requests.some((request) => request.path === '/v1/chat/completions'), 'the turn went to B');
		assert.deepEqual(credentials(b.requests), [], 'B never saw a key');
		// A may still answer what the switch left in flight (its model list, its context window),
		// with its own key; the turn is what must not go there.
		assert.deepEqual(
			a.requests.slice(atA).filter((request) => request.path.endsWith('/chat/completions')),
			[],
			'and the turn did not go to A',
		);
	});

	it('a key stored for B\'s origin is used at B, and A never sees it', async () => {
		const { api, hooks } = await activeAside();
		await hooks.storeApiKey('openai-compatible', b.url, 'sk-origin-b');
		await until(() => credentials(b.requests), (seen) => seen.includes('Bearer sk-origin-b'), 'the refresh at B with its own key');
		const result = await api.sendMessage('And now?');
		assert.equal(result.outcome, 'done', result.error);
		const turn = b.requests.findLast((request) => request.path === '/v1/chat/completions');
		assert.equal(turn?.headers.authorization, 'Bearer sk-origin-b');
		assert.ok(!credentials(a.requests).includes('Bearer sk-origin-b'), 'A never saw B\'s key');
		assert.ok(!credentials(b.requests).includes('Bearer sk-origin-a'), 'B never saw A\'s key');
	});

	it('Anthropic: nothing goes to a server with no key stored; the chat names it, and its button stores one for it', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { api, hooks } = await activeAside();
		await aside().update('baseUrl', undefined, Workspace);
		await hooks.storeApiKey('anthropic', a.url, 'sk-ant-a');
		await aside().update('provider', 'anthropic', Global);
		await aside().update('baseUrl', a.url, Global);
		await until(() => credentials(a.requests), (seen) => seen.includes('sk-ant-a'), 'A to get its Anthropic key with the model list');
		const atB = b.requests.length;

		await aside().update('baseUrl', b.url, Workspace);
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
		const button = `Store an Anthropic API key for ${b.url}`;
		const chat = await chatUntil((reading) => reading.actions.includes(button), 'the store-key action');
		assert.match(chat.emptyState ?? '', new RegExp(`No Anthropic API key is stored for ${b.url.replace(/[.]/g, '\\.')}`));
		const refused = await api.sendMessage('Hello?');
		assert.equal(refused.outcome, 'failed');
		assert.match(refused.error ?? '', /No Anthropic API key is stored for http:\/\/127\.0\.0\.1:\d+/);
		assert.equal(b.requests.length, atB, 'B got no request at all');

		await vscode.commands.executeCommand('aside.newChat');
		await driver('clickInChat', { name: button });
		await driver('answerQuickInput', { title: `Anthropic API key for ${b.url}`, value: 'sk-ant-b' });
		await until(() => credentials(b.requests), (seen) => seen.includes('sk-ant-b'), 'the refresh at B with the key stored for it');
		b.script({ text: 'B answers with its own key.' });
		const result = await api.sendMessage('Hello again?');
		assert.equal(result.outcome, 'done', result.error);
		assert.equal(b.requests.findLast((request) => request.path === '/v1/messages')?.headers['x-api-key'], 'sk-ant-b');
		assert.ok(!credentials(a.requests).includes('sk-ant-b'), 'A never saw B\'s key');
		assert.ok(!credentials(b.requests).includes('sk-ant-a'), 'B never saw A\'s key');
	});

	it('OpenAI-compatible: a server that refuses for want of a key gets the same offer, for its origin', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { hooks } = await activeAside();
		await hooks.storeApiKey('openai-compatible', b.url, undefined);
		b.scriptModels({ status: 401, message: 'Missing API key.' }, { status: 401, message: 'Missing API key.' }, { status: 401, message: 'Missing API key.' });
		await aside().update('baseUrl', `${b.url}/v1`, Workspace);
		await aside().update('provider', 'openai-compatible', Global);
		await vscode.commands.executeCommand('aside.newChat');
		const button = `Store an OpenAI-compatible API key for ${b.url}`;
		const chat = await chatUntil((reading) => reading.actions.includes(button), 'the store-key action');
		assert.match(chat.emptyState ?? '', /Missing API key\. No API key is stored for http:\/\/127\.0\.0\.1:\d+: run "Aside: Set API Key"/);
	});
});

// After every other test of this window (a root hook): leave the user settings and a key
// pointing at the harness's server A and the workspace's at B, for the reloaded window to
// activate with (origins.reload.test.ts). Those two servers outlive the extension host.
after(async () => {
	const servers = JSON.parse(process.env.ASIDE_ORIGIN_SERVERS ?? '{}') as { a?: string; b?: string };
	if (!servers.a || !servers.b) {
		return;
	}
	const { hooks } = await activeAside();
	await hooks.storeApiKey('openai-compatible', servers.a, 'sk-reload-a');
	const aside = vscode.workspace.getConfiguration('aside');
	await aside.update('provider', 'openai-compatible', Global);
	await aside.update('baseUrl', `${servers.a}/v1`, Global);
	await aside.update('baseUrl', `${servers.b}/v1`, Workspace);
});
