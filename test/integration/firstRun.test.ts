// The first run in the real workbench: nothing can answer (code-server has no chat models), so
// the empty state offers the ways on. The scripted server stands in for a local Ollama on its
// path shape (`/api/tags`, `/v1/models`, `/v1/chat/completions`), on a port the test hooks move
// Aside's probe to; the quick picks are answered in the workbench as a person would.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import type { TranscriptItem } from '../../src/protocol/messages';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, type ChatReading, driver, hasDriver, until } from './support';

/** A port nothing listens on, for the LM Studio probe. */
function closedPort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => {
				resolve(typeof address === 'object' && address ? address.port : 0);
			});
		});
	});
}

/** Reads the chat until `done` holds (the host's changes reach the view asynchronously). */
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

async function sendAndAwaitAnswer(text: string): Promise<void> {
	const { hooks } = await activeAside();
	const answered = waitForEvent(hooks.onDidAppend, (items: readonly TranscriptItem[]) => items.some((item) => item.kind === 'turn-end'), 60_000, 'the end of the turn');
	await driver('typeInChat', { text });
	await answered;
	const items = hooks.currentSessionItems();
	const end = items.findLast((item) => item.kind === 'turn-end');
	assert.equal(end?.kind === 'turn-end' ? end.outcome : undefined, 'done', JSON.stringify(end));
	const answer = items.findLast((item) => item.kind === 'assistant');
	assert.equal(answer?.kind === 'assistant' ? answer.text : undefined, 'Hello from the local model.');
}

/** The user-level value of an aside.* setting (Choose a Provider writes there, the provider last). */
function userSetting(key: string): unknown {
	return vscode.workspace.getConfiguration('aside').inspect(key)?.globalValue;
}

describe('the first run: the empty state offers a way on', function () {
	let ollama: ModelServer;
	const aside = vscode.workspace.getConfiguration('aside');
	const reset = async (): Promise<void> => {
		for (const key of ['provider', 'baseUrl', 'model']) {
			await aside.update(key, undefined, vscode.ConfigurationTarget.Global);
		}
	};

	before(async function () {
		if (!hasDriver) {
			this.skip();
		}
		ollama = await startModelServer({ models: ['llama3.2:1b', 'qwen2.5-coder:7b', 'phi4-mini'] });
		// Honoured only because the harness runs the extension host with ASIDE_TEST_HOOKS=1.
		process.env.ASIDE_TEST_LOCAL_PORTS = `ollama=${ollama.port},lmstudio=${await closedPort()}`;
		await reset();
	});

	after(async () => {
		delete process.env.ASIDE_TEST_LOCAL_PORTS;
		await reset();
		await ollama.close();
	});

	it('finds the local Ollama and offers it by name; one click uses it, and a message is answered', async () => {
		const url = `http://localhost:${ollama.port}/v1`;
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
		const offer = `Use Ollama on localhost:${ollama.port} (3 models)`;
		const chat = await chatUntil((reading) => reading.actions.includes(offer), 'the Ollama offer');
		assert.deepEqual(chat.actions, [offer, 'Choose a provider']);
		assert.match(chat.emptyState ?? '', /No chat model is available in VS Code/);
		await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/first-run.png` });

		await driver('clickInChat', { name: offer });
		await until(() => userSetting('provider'), (value) => value === 'openai-compatible', 'aside.provider in the user settings');
		assert.equal(userSetting('baseUrl'), url);
		await chatUntil((reading) => reading.actions.length === 0, 'the agent to be ready');

		ollama.script({ text: 'Hello from the local model.' });
		await sendAndAwaitAnswer('Hello, local model?');
		const paths = ollama.requests.map((request) => `${request.method} ${request.path}`);
		assert.ok(paths.includes('GET /api/tags'), 'the probe asked Ollama its way');
		assert.ok(paths.includes('POST /v1/chat/completions'));
		for (const request of ollama.requests) {
			assert.equal(request.headers.authorization, undefined, `${request.path} carried no key`);
		}
	});

	it('Choose a provider: the quick picks in the workbench, OpenAI-compatible, then the Ollama URL listed', async () => {
		await reset();
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
		await chatUntil((reading) => reading.actions.includes('Choose a provider'), 'the setup actions');
		await driver('clickInChat', { name: 'Choose a provider' });
		await driver('answerQuickInput', { title: 'Aside: Choose a Provider', value: 'OpenAI-compatible', pick: 'OpenAI-compatible server' });
		const url = `http://localhost:${ollama.port}/v1`;
		// The common local servers are listed, the one running marked; a local one needs no key.
		await driver('answerQuickInput', { title: 'base URL', value: 'Ollama', pick: url });
		await until(() => userSetting('provider'), (value) => value === 'openai-compatible', 'aside.provider in the user settings');
		assert.equal(userSetting('baseUrl'), url);
		assert.equal(vscode.workspace.getConfiguration('aside').inspect('baseUrl')?.workspaceValue, undefined, 'never the workspace settings');
		await chatUntil((reading) => reading.actions.length === 0, 'the agent to be ready');
		ollama.script({ text: 'Hello from the local model.' });
		await sendAndAwaitAnswer('Are you there?');
	});
});
