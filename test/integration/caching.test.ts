// Prompt caching end to end in the real extension host: the Anthropic provider pointed at the
// scripted model server, whose requests are what was dispatched. The breakpoints are where the
// API caches, the second request repeats the first up to its tail, and the cache counters the
// server reported reach the transcript on disk.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, useScriptedServer } from './support';

const EPHEMERAL = { type: 'ephemeral' };
const MARKER = ',"cache_control":{"type":"ephemeral"}';

interface Block {
	readonly type: string;
	readonly text?: string;
	readonly tool_use_id?: string;
	readonly cache_control?: unknown;
}

interface Body {
	readonly system: readonly Block[];
	readonly tools: readonly { readonly name: string; readonly cache_control?: unknown }[];
	readonly messages: readonly { readonly role: string; readonly content: readonly Block[] }[];
}

function bodyOf(request: ReceivedRequest | undefined): Body {
	assert.ok(request);
	return request.body as Body;
}

/** The message blocks that carry a breakpoint. */
function markedBlocks(body: Body): Block[] {
	return body.messages.flatMap((message) => message.content).filter((block) => block.cache_control !== undefined);
}

describe('prompt caching, with the scripted Anthropic endpoint', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		server = await startModelServer({ models: ['claude-scripted'] });
		restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', mode: 'auto-edit', apiKey: 'sk-test-caching' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
	});

	it('the requests carry the breakpoints, the second repeats the first up to its tail, and the cache usage is recorded', async () => {
		const { api, hooks } = await activeAside();
		server.script(
			{ text: 'Let me read it.', toolCalls: [{ id: 'toolu_read', name: 'Read', input: { path: 'src/greeting.ts' } }], usage: { input: 3200, output: 20, cacheWrite: 2900 } },
			{ text: 'It greets by name.', usage: { input: 3900, output: 12, cacheRead: 2900, cacheWrite: 650 } },
		);
		const first = server.requests.length;
		const result = await api.sendMessage('What does src/greeting.ts do?');
		assert.equal(result.outcome, 'done', result.error);
		const requests = server.requests.slice(first).filter((request) => request.path === '/v1/messages');
		assert.equal(requests.length, 2);
		const [one, two] = [bodyOf(requests[0]), bodyOf(requests[1])];
		for (const body of [one, two]) {
			assert.equal(body.system.length, 1, 'the system prompt is one text block');
			assert.deepEqual(body.system[0]?.cache_control, EPHEMERAL);
			assert.deepEqual(body.tools.at(-1)?.cache_control, EPHEMERAL, 'the last tool');
			assert.ok(body.tools.slice(0, -1).every((tool) => tool.cache_control === undefined), 'only the last tool');
			const count = JSON.stringify(body).split('"cache_control"').length - 1;
			assert.ok(count >= 3 && count <= 4, `3 or 4 breakpoints, the API's limit: ${count}`);
		}
		assert.deepEqual(Object.keys(requests[1]?.body as object), ['model', 'max_tokens', 'system', 'tools', 'messages', 'stream']);
		// The tail: the person's message in the first, the tool result in the second; the reminders after it stay unmarked.
		assert.deepEqual(markedBlocks(one).map((block) => block.text), ['What does src/greeting.ts do?']);
		assert.deepEqual(markedBlocks(two).map((block) => [block.type, block.tool_use_id]), [['tool_result', 'toolu_read']]);
		const last = two.messages.at(-1)?.content ?? [];
		const tailAt = last.findIndex((block) => block.cache_control !== undefined);
		assert.ok(last.slice(tailAt + 1).every((block) => block.type === 'text' && (block.text ?? '').startsWith('<system-reminder key=')), 'only reminders after the tail');
		// The cached prefix: the first request's messages, markers aside, start the second one.
		const before = JSON.stringify(one).replaceAll(MARKER, '');
		const after = JSON.stringify(two).replaceAll(MARKER, '');
		assert.ok(after.startsWith(before.slice(0, before.length - '],"stream":true}'.length)), 'the second request repeats the first');
		// The counters as the server sent them, with the whole prompt as input, on the records.
		const usages = readFileSync(join(hooks.sessionsDir, `${result.sessionId}.jsonl`), 'utf8')
			.split('\n')
			.filter((line) => line.includes('"kind":"assistant"'))
			.map((line) => (JSON.parse(line) as { usage?: unknown }).usage);
		assert.deepEqual(usages, [
			{ inputTokens: 3200, outputTokens: 20, cacheWriteTokens: 2900 },
			{ inputTokens: 3900, outputTokens: 12, cacheReadTokens: 2900, cacheWriteTokens: 650 },
		]);
	});
});
