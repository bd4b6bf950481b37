import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer, type ScriptedStep } from '../../test/harness/modelServer.mjs';
import { wrap } from '../reminders/envelope';
import { READ_TOOL, run, textOf, type Outcome } from '../testing/streams';
import { assistantCalls, assistantText, resultsInUser, userText } from '../testing/history';
import { AnthropicProvider, toAnthropicMessages } from './anthropic';
import type { ChatMessage } from './messages';
import type { ChatRequest } from './provider';

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
	return { model: 'claude-test', system: 'You are Aside.', messages: [userText('hi')], tools: [], maxOutputTokens: 1024, ...overrides };
}

async function withServer(test: (server: ModelServer, provider: AnthropicProvider) => Promise<void>): Promise<void> {
	const server = await startModelServer();
	try {
		await test(server, new AnthropicProvider({ baseUrl: server.url, apiKey: 'sk-test' }));
	} finally {
		await server.close();
	}
}

async function streamOnce(step: ScriptedStep, req = request()): Promise<Outcome & { server: ModelServer }> {
	let outcome: (Outcome & { server: ModelServer }) | undefined;
	await withServer(async (server, provider) => {
		server.script(step);
		outcome = { ...(await run(provider.stream(req, new AbortController().signal))), server };
	});
	assert.ok(outcome);
	return outcome;
}

/** A provider whose fetch answers with a fixed SSE body, for streams the server can't misbehave into. */
function providerAnswering(sse: string): AnthropicProvider {
	const fetchStub: typeof fetch = () => Promise.resolve(new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
	return new AnthropicProvider({ apiKey: 'sk-test', fetch: fetchStub });
}

function frame(data: { readonly type: string; readonly [field: string]: unknown }): string {
	return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

describe('AnthropicProvider streaming', () => {
	it('sends the headers and the exact body, with the history converted and results first', async () => {
		const reminder = wrap('files.edited', 'src/a.ts changed');
		const history: ChatMessage[] = [
			userText('Fix the bug'),
			assistantCalls('c1', 'c2'),
			resultsInUser('c1', 'c2'),
			{ role: 'user', synthetic: 'reminders', content: [{ type: 'text', text: reminder }] },
			{ role: 'assistant', content: [{ type: 'text', text: '' }, { type: 'tool-call', id: 'c3', name: 'Bash', input: { command: 'npm test' } }] },
			userText('also check lint'),
			{ role: 'tool', callId: 'c3', content: 'exit 1', isError: true },
			assistantText('Done.'),
			userText('thanks'),
		];
		const { server } = await streamOnce({ text: 'ok' }, request({ messages: history, tools: [READ_TOOL] }));
		const [received] = server.requests;
		assert.equal(received?.method, 'POST');
		assert.equal(received.path, '/v1/messages');
		assert.equal(received.headers['x-api-key'], 'sk-test');
		assert.equal(received.headers['anthropic-version'], '2023-06-01');
		assert.equal(received.headers['content-type'], 'application/json');
		assert.deepEqual(received.body, {
			model: 'claude-test',
			max_tokens: 1024,
			system: [{ type: 'text', text: 'You are Aside.', cache_control: { type: 'ephemeral' } }],
			tools: [{ name: 'Read', description: 'Reads a file.', input_schema: READ_TOOL.inputSchema, cache_control: { type: 'ephemeral' } }],
			messages: [
				{ role: 'user', content: [{ type: 'text', text: 'Fix the bug' }] },
				{
					role: 'assistant',
					content: [
						{ type: 'text', text: 'Let me look.' },
						{ type: 'tool_use', id: 'c1', name: 'Read', input: { path: 'c1.ts' } },
						{ type: 'tool_use', id: 'c2', name: 'Read', input: { path: 'c2.ts' } },
					],
				},
				{
					role: 'user',
					content: [
						{ type: 'tool_result', tool_use_id: 'c1', content: 'contents of c1.ts' },
						{ type: 'tool_result', tool_use_id: 'c2', content: 'contents of c2.ts' },
						{ type: 'text', text: reminder },
					],
				},
				{ role: 'assistant', content: [{ type: 'tool_use', id: 'c3', name: 'Bash', input: { command: 'npm test' } }] },
				{
					role: 'user',
					content: [
						{ type: 'tool_result', tool_use_id: 'c3', content: 'exit 1', is_error: true },
						{ type: 'text', text: 'also check lint' },
					],
				},
				{ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
				{ role: 'user', content: [{ type: 'text', text: 'thanks', cache_control: { type: 'ephemeral' } }] },
			],
			stream: true,
		});
	});

	it('leaves out an empty system prompt and an empty tool list, and drops messages left empty', async () => {
		const messages = toAnthropicMessages([userText('a'), { role: 'assistant', content: [{ type: 'text', text: '' }] }, userText('b')]);
		assert.deepEqual(messages, [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }]);
		const { server } = await streamOnce({ text: 'ok' }, request({ system: '' }));
		assert.deepEqual(Object.keys(server.requests[0]?.body as object), ['model', 'max_tokens', 'messages', 'stream']);
	});

	it('counts cached prompt tokens as input, and keeps message_start counts message_delta leaves out', async () => {
		const sse = [
			frame({ type: 'message_start', message: { usage: { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 1 } } }),
			frame({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9, input_tokens: null } }),
			frame({ type: 'message_stop' }),
		].join('');
		const { events } = await run(providerAnswering(sse).stream(request(), new AbortController().signal));
		assert.deepEqual(events, [{ type: 'accepted' }, { type: 'usage', inputTokens: 1105, outputTokens: 9, cacheReadTokens: 1000, cacheWriteTokens: 100 }, { type: 'stop', reason: 'end' }]);
	});

	it('fails with "stream" when the stream ends without message_stop', async () => {
		const sse = frame({ type: 'message_start', message: { usage: { input_tokens: 5 } } }) + frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } });
		const { events, error } = await run(providerAnswering(sse).stream(request(), new AbortController().signal));
		assert.equal(textOf(events), 'partial');
		assert.equal(error?.kind, 'stream');
		assert.match(error.message, /cut off/);
	});
});

describe('AnthropicProvider.listModels', () => {
	it('lists the models with their display names', async () => {
		await withServer(async (server, provider) => {
			const models = await provider.listModels(new AbortController().signal);
			assert.deepEqual(models, [
				{ id: 'test-model', name: 'test-model' },
				{ id: 'test-model-large', name: 'test-model-large' },
			]);
			assert.equal(server.requests[0]?.path, '/v1/models');
			assert.equal(server.requests[0].headers['x-api-key'], 'sk-test');
		});
	});

});

/** One message's events as Anthropic sends them; `last` is the final frame's exact text. */
function recordedMessage(blocks: readonly string[], stop: string, last = frame({ type: 'message_stop' })): string[] {
	return [
		frame({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 12, output_tokens: 1 } } }),
		frame({ type: 'ping' }),
		...blocks,
		frame({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 30 } }),
		last,
	];
}

function toolUseFrames(index: number, id: string, name: string, pieces: readonly string[]): string[] {
	return [
		frame({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } }),
		...pieces.map((partial_json) => frame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } })),
		frame({ type: 'content_block_stop', index }),
	];
}

describe('AnthropicProvider: streams as real servers and gateways send them', () => {
	it('reads a final message_stop that a gateway closes without the blank line, keeping the tool calls', async () => {
		const raw = recordedMessage(toolUseFrames(0, 'toolu_1', 'Read', ['{"pa', 'th": "a.ts"}']), 'tool_use', 'event: message_stop\ndata: {"type":"message_stop"}\n');
		const { events, error } = await streamOnce({ raw });
		assert.equal(error, undefined);
		assert.deepEqual(events, [
			{ type: 'accepted' },
			{ type: 'tool-call', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } },
			{ type: 'usage', inputTokens: 12, outputTokens: 30 },
			{ type: 'stop', reason: 'tool-use' },
		]);
	});

	it('still reports a stream that ends inside an event as cut off', async () => {
		const raw = [...recordedMessage(toolUseFrames(0, 'toolu_1', 'Read', ['{}']), 'tool_use').slice(0, -1), 'event: message_stop\ndata: {"type":"mess'];
		const { events, error } = await streamOnce({ raw });
		assert.equal(error?.kind, 'stream');
		assert.match(error.message, /cut off/);
		assert.deepEqual(
			events.flatMap((event) => (event.type === 'tool-call' ? [event.id] : [])),
			['toolu_1'],
		);
	});

	it('streams thinking as reasoning, never as the answer', async () => {
		const raw = recordedMessage(
			[
				frame({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
				frame({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The user wants a greeting.' } }),
				frame({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } }),
				frame({ type: 'content_block_stop', index: 0 }),
				frame({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
				frame({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello!' } }),
				frame({ type: 'content_block_stop', index: 1 }),
			],
			'end_turn',
		);
		const { events, error } = await streamOnce({ raw });
		assert.equal(error, undefined);
		assert.equal(textOf(events), 'Hello!');
		assert.deepEqual(
			events.filter((event) => event.type === 'reasoning'),
			[{ type: 'reasoning', text: 'The user wants a greeting.' }],
		);
	});

	it('says what a 200 answer held when it was not an event stream', async () => {
		const portal: ScriptedStep = { raw: ['<!DOCTYPE html>\n<html><head><title>Sign in to Guest Wi-Fi</title></head><body><form></form></body></html>'], headers: { 'content-type': 'text/html; charset=utf-8' } };
		const cases: [ScriptedStep, RegExp][] = [
			[portal, /an HTML page .*Sign in to Guest Wi-Fi/],
			[{ raw: ['<html><body><h1>502 Bad Gateway</h1></body></html>'], headers: { 'content-type': 'text/plain' } }, /an HTML page .*502 Bad Gateway/],
			[{ raw: ['{"type":"error","error":{"type":"invalid_request_error","message":"streaming is off for this key"}}'], headers: { 'content-type': 'application/json' } }, /JSON .*streaming is off for this key/],
			[{ raw: [] }, /an empty answer/],
		];
		for (const [step, expected] of cases) {
			const { events, error } = await streamOnce(step);
			assert.equal(error?.kind, 'stream', String(expected));
			assert.match(error.message, expected);
			assert.doesNotMatch(error.message, /cut off/);
			assert.equal(textOf(events), '');
		}
		// Labelled as HTML, the answer fails before it counts as accepted.
		assert.deepEqual((await streamOnce(portal)).events, []);
	});

});

