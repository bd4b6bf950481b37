// The context window with a real provider: the OpenAI-compatible provider pointed at the scripted
// server standing in for Ollama. Its chat responses carry usage and no window, as real servers'
// do; the window comes from Ollama's own /api/show (num_ctx), asked in the background. The meter
// in the real workbench's webview shows it, and a request carries `context.usage` once the last
// answer left the window more than half full.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import ollamaPsEmpty from '../fixtures/model-servers/ollama-ps-empty.json';
import ollamaShowNumCtx from '../fixtures/model-servers/ollama-show-num-ctx.json';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, until, useScriptedServer } from './support';

const MODEL = 'qwen2.5-coder-8k';
const USAGE_BLOCK = '<system-reminder key="context.usage">';

interface ContextReading {
	readonly text: string;
	readonly meterShown: boolean;
	readonly percent: string | null;
}

function lastMessage(request: ReceivedRequest | undefined): string {
	const messages = ((request?.body ?? {}) as { messages?: { content?: string | null }[] }).messages ?? [];
	return messages.at(-1)?.content ?? '';
}

describe('the context window, with the scripted server as Ollama', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;
	const aside = vscode.workspace.getConfiguration('aside');

	before(async () => {
		server = await startModelServer({ models: [MODEL] });
		server.serve('POST', '/api/show', { body: ollamaShowNumCtx });
		server.serve('GET', '/api/ps', { body: ollamaPsEmpty });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: MODEL });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await aside.update('contextWindow', undefined, vscode.ConfigurationTarget.Global);
		await restore();
		await server.close();
	});

	it('finds the window through /api/show, shows it in the meter, and context.usage rides the request after a half-full answer', async () => {
		const { api, hooks } = await activeAside();
		await until(() => hooks.contextWindow(), (window) => window === 8192, "the window from Ollama's /api/show (num_ctx 8192)");
		const show = server.requests.filter((request) => request.path === '/api/show');
		assert.deepEqual(show.map((request) => request.body), [{ model: MODEL }], 'asked once, about the configured model');

		// A small first turn, then one whose first answer fills 61% of the window.
		server.script({ text: 'Hi.', usage: { input: 100, output: 10 } });
		assert.equal((await api.sendMessage('Hello.')).outcome, 'done');
		server.script(
			{ text: 'Let me read it.', toolCalls: [{ id: 'call_read', name: 'Read', input: { path: 'src/greeting.ts' } }], usage: { input: 4800, output: 200 } },
			{ text: 'It greets.', usage: { input: 5100, output: 50 } },
		);
		const before = chatRequests(server).length;
		const result = await api.sendMessage('What does src/greeting.ts do?');
		assert.equal(result.outcome, 'done', result.error);

		const requests = chatRequests(server).slice(before);
		assert.equal(requests.length, 2);
		assert.ok(!lastMessage(requests[0]).includes(USAGE_BLOCK), 'not while the window is 1% full');
		assert.match(lastMessage(requests[1]), /<system-reminder key="context\.usage">\nContext window: 5,000 of 8,192 tokens in use \(61%\)\./);
		assert.equal(server.requests.filter((request) => request.path === '/api/show').length, 1, 'the window is cached: not asked before every request');

		if (hasDriver) {
			await vscode.commands.executeCommand('aside.focusChat');
			const meter = await driver<ContextReading>('readContext', { waitFor: '/ 8.2k' });
			assert.match(meter.text, /5\.2k \/ 8\.2k tokens \(63%\)/, meter.text);
			assert.equal(meter.meterShown, true);
			assert.equal(meter.percent, '63');
		}
	});

	it('aside.contextWindow overrides what the server says', async () => {
		const { hooks } = await activeAside();
		await aside.update('contextWindow', 100_000, vscode.ConfigurationTarget.Global);
		await until(() => hooks.contextWindow(), (window) => window === 100_000, 'the window from the setting');
		if (hasDriver) {
			const meter = await driver<ContextReading>('readContext', { waitFor: '/ 100k' });
			assert.match(meter.text, /5\.2k \/ 100k tokens \(5%\)/, meter.text);
		}
		await aside.update('contextWindow', undefined, vscode.ConfigurationTarget.Global);
		await until(() => hooks.contextWindow(), (window) => window === 8192, 'the server\'s window again');
	});
});
