import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer, type ScriptedStep } from '../../test/harness/modelServer.mjs';
import { wrap } from '../reminders/envelope';
import { READ_TOOL, run, textOf, type Outcome } from '../testing/streams';
import { FakeClock } from '../testing/fakeClock';
import { assistantCalls, assistantText, resultsInUser, userText } from '../testing/history';
import { AnthropicProvider, toAnthropicMessages } from './anthropic';
import type { ChatMessage } from './messages';
import { ProviderError, type ChatRequest } from './provider';

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
	it('is accepted, streams text in pieces, then one usage and the stop reason', async () => {
		const { events, error } = await streamOnce({ text: 'Hello, streaming world! ✓', usage: { input: 42, output: 7 } });
		assert.equal(error, undefined);
		assert.deepEqual(events[0], { type: 'accepted' });
		assert.equal(textOf(events), 'Hello, streaming world! ✓');
		assert.ok(events.filter((event) => event.type === 'text').length > 3, 'the text arrived in several events');
		assert.deepEqual(events.slice(-2), [
			{ type: 'usage', inputTokens: 42, outputTokens: 7 },
			{ type: 'stop', reason: 'end' },
		]);
	});

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
			system: 'You are Aside.',
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
				{ role: 'user', content: [{ type: 'text', text: 'thanks' }] },
			],
			tools: [{ name: 'Read', description: 'Reads a file.', input_schema: READ_TOOL.inputSchema }],
			stream: true,
		});
	});

	it('leaves out an empty system prompt and an empty tool list, and drops messages left empty', async () => {
		const messages = toAnthropicMessages([userText('a'), { role: 'assistant', content: [{ type: 'text', text: '' }] }, userText('b')]);
		assert.deepEqual(messages, [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }]);
		const { server } = await streamOnce({ text: 'ok' }, request({ system: '' }));
		assert.deepEqual(Object.keys(server.requests[0]?.body as object), ['model', 'max_tokens', 'messages', 'stream']);
	});

	it('assembles parallel tool calls from fragments, exactly', async () => {
		const first = { path: 'src/ünïcode/🙂.ts', lines: [1, 20], options: { nested: { deep: true, text: 'a "quoted" \\ value' } } };
		const second = { command: 'grep -rn "x" .', timeoutMs: 5000 };
		const { events, error } = await streamOnce({
			text: 'Reading both.',
			toolCalls: [
				{ id: 'toolu_a', name: 'Read', input: first },
				{ id: 'toolu_b', name: 'Bash', input: second },
				{ id: 'toolu_c', name: 'List', input: {} },
			],
		});
		assert.equal(error, undefined);
		assert.equal(textOf(events), 'Reading both.');
		assert.deepEqual(
			events.filter((event) => event.type === 'tool-call'),
			[
				{ type: 'tool-call', id: 'toolu_a', name: 'Read', input: first },
				{ type: 'tool-call', id: 'toolu_b', name: 'Bash', input: second },
				{ type: 'tool-call', id: 'toolu_c', name: 'List', input: {} },
			],
		);
		assert.deepEqual(events.at(-1), { type: 'stop', reason: 'tool-use' });
	});

	it('maps every stop reason', async () => {
		const cases = [
			['end_turn', 'end'],
			['tool_use', 'tool-use'],
			['max_tokens', 'max-tokens'],
			['refusal', 'refusal'],
			['stop_sequence', 'other'],
			['pause_turn', 'other'],
		] as const;
		for (const [wire, neutral] of cases) {
			const { events } = await streamOnce({ text: 'x', stop: wire });
			assert.deepEqual(events.at(-1), { type: 'stop', reason: neutral }, wire);
		}
	});

	it('counts cached prompt tokens as input, and keeps message_start counts message_delta leaves out', async () => {
		const sse = [
			frame({ type: 'message_start', message: { usage: { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 1 } } }),
			frame({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9, input_tokens: null } }),
			frame({ type: 'message_stop' }),
		].join('');
		const { events } = await run(providerAnswering(sse).stream(request(), new AbortController().signal));
		assert.deepEqual(events, [{ type: 'accepted' }, { type: 'usage', inputTokens: 1105, outputTokens: 9 }, { type: 'stop', reason: 'end' }]);
	});

	it('fails with "stream" when the stream ends without message_stop', async () => {
		const sse = frame({ type: 'message_start', message: { usage: { input_tokens: 5 } } }) + frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } });
		const { events, error } = await run(providerAnswering(sse).stream(request(), new AbortController().signal));
		assert.equal(textOf(events), 'partial');
		assert.equal(error?.kind, 'stream');
		assert.match(error.message, /cut off/);
	});
});

describe('AnthropicProvider failures', () => {
	it('maps HTTP errors before streaming to kinds, with the server\'s message and nothing yielded', async () => {
		const cases = [
			[401, 'auth'],
			[403, 'auth'],
			[400, 'bad-request'],
			[404, 'bad-request'],
			[413, 'bad-request'],
			[422, 'bad-request'],
			[429, 'rate-limit'],
			[500, 'server'],
			[503, 'server'],
			[529, 'overloaded'],
		] as const;
		for (const [status, kind] of cases) {
			const { events, error } = await streamOnce({ status, message: `scripted ${status} explanation` });
			assert.deepEqual(events, [], `${status}: nothing before the error`);
			assert.equal(error?.kind, kind, `${status}`);
			assert.equal(error.details.status, status);
			assert.match(error.message, new RegExp(`HTTP ${status} from Anthropic: scripted ${status} explanation`));
		}
	});

	it('reads retry-after in seconds, as an HTTP date, and retry-after-ms', async () => {
		const seconds = await streamOnce({ status: 429, retryAfter: 2 });
		assert.equal(seconds.error?.details.retryAfterMs, 2000);
		assert.equal(seconds.error.retryable, true);
		const ms = await streamOnce({ status: 529, retryAfterMs: 1500 });
		assert.equal(ms.error?.details.retryAfterMs, 1500);

		const clock = new FakeClock();
		await withServer(async (server) => {
			server.script({ status: 429, retryAfter: new Date(clock.now() + 3000).toUTCString() });
			const provider = new AnthropicProvider({ baseUrl: server.url, apiKey: 'k', clock });
			const { error } = await run(provider.stream(request(), new AbortController().signal));
			assert.equal(error?.details.retryAfterMs, 3000);
		});
	});

	it('fails with "stream" after accepted when the connection is cut, keeping the text that streamed', async () => {
		// message_start, ping, content_block_start, then two deltas of four characters.
		const { events, error } = await streamOnce({ text: 'abcdefghijklmnop', cutAfterChunks: 5 });
		assert.deepEqual(events[0], { type: 'accepted' });
		assert.equal(textOf(events), 'abcdefgh');
		assert.equal(error?.kind, 'stream');
		assert.equal(error.retryable, false);
	});

	it('turns an error event in the stream into a typed error', async () => {
		const { events, error } = await streamOnce({ streamError: { type: 'overloaded_error', message: 'Overloaded' } });
		assert.deepEqual(events, [{ type: 'accepted' }]);
		assert.equal(error?.kind, 'overloaded');
		assert.match(error.message, /Overloaded/);
	});

	it('fails with "stream" when a tool call\'s input is not valid JSON', async () => {
		const { error } = await streamOnce({ toolCalls: [{ name: 'Read', arguments: '{"path": "a.ts"' }] });
		assert.equal(error?.kind, 'stream');
		assert.match(error.message, /Read/);
	});

	it('is cancelled when stopped mid-stream', async () => {
		await withServer(async (server, provider) => {
			server.script({ hangAfterAccept: true });
			const controller = new AbortController();
			const { events, error } = await run(provider.stream(request(), controller.signal), () => {
				controller.abort();
			});
			assert.deepEqual(events, [{ type: 'accepted' }]);
			assert.equal(error?.kind, 'cancelled');
			await server.waitForDisconnects(1);
		});
	});

	it('is cancelled when stopped before the server answers', async () => {
		await withServer(async (server, provider) => {
			server.script({ delayMs: 10_000 });
			const controller = new AbortController();
			setTimeout(() => {
				controller.abort();
			}, 20);
			const { events, error } = await run(provider.stream(request(), controller.signal));
			assert.deepEqual(events, []);
			assert.equal(error?.kind, 'cancelled');
		});
	});

	it('fails with a retryable "network" error when nothing listens', async () => {
		const server = await startModelServer();
		await server.close();
		const provider = new AnthropicProvider({ baseUrl: server.url, apiKey: 'k' });
		const { error } = await run(provider.stream(request(), new AbortController().signal));
		assert.equal(error?.kind, 'network');
		assert.equal(error.retryable, true);
		assert.match(error.message, /ECONNREFUSED/);
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

	it('throws a typed error instead of an empty list', async () => {
		await withServer(async (server, provider) => {
			server.scriptModels({ status: 401, message: 'invalid x-api-key' });
			await assert.rejects(provider.listModels(new AbortController().signal), (error: unknown) => error instanceof ProviderError && error.kind === 'auth');
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

const API_KEY = 'sk-ant-api03-Q9vLx2-secret-key-material-AA';

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

	it('stops reading an endless event or line with a clear error instead of running out of memory', { timeout: 60_000 }, async () => {
		for (const step of [
			{ raw: ['event: content_block_delta\n'], repeat: `data: ${'x'.repeat(64 * 1024)}\n` },
			{ raw: ['event: content_block_delta\ndata: '], repeat: 'x'.repeat(64 * 1024) },
		]) {
			await withServer(async (server, provider) => {
				server.script(step);
				const { error } = await run(provider.stream(request(), new AbortController().signal));
				assert.equal(error?.kind, 'stream');
				assert.match(error.message, /Anthropic sent more than .* in one event/);
				await server.waitForDisconnects(1);
			});
		}
	});
});

describe('AnthropicProvider: the API key stays secret', () => {
	async function withKeyedServer(test: (server: ModelServer, provider: AnthropicProvider) => Promise<void>): Promise<void> {
		const server = await startModelServer();
		try {
			await test(server, new AnthropicProvider({ baseUrl: server.url, apiKey: API_KEY }));
		} finally {
			await server.close();
		}
	}

	it('never quotes the key from an error body or a stream error', async () => {
		await withKeyedServer(async (server, provider) => {
			server.script({ status: 401, message: `invalid x-api-key: ${API_KEY}` }, { text: 'partial', streamError: { type: 'authentication_error', message: `key ${API_KEY} was revoked` } });
			const before = await run(provider.stream(request(), new AbortController().signal));
			assert.equal(before.error?.kind, 'auth');
			assert.match(before.error.message, /HTTP 401 from Anthropic: invalid x-api-key: \[redacted\]/);
			const after = await run(provider.stream(request(), new AbortController().signal));
			assert.match(after.error?.message ?? '', /key \[redacted\] was revoked/);
			for (const error of [before.error, after.error]) {
				assert.ok(!JSON.stringify({ message: error?.message, cause: String(error?.details.cause) }).includes(API_KEY));
			}
		});
	});

	it('does not follow a redirect to another origin with the key', async () => {
		const elsewhere = await startModelServer();
		try {
			await withKeyedServer(async (server, provider) => {
				server.script({ redirect: { status: 307, location: `${elsewhere.url}/v1/messages` } });
				const { events, error } = await run(provider.stream(request(), new AbortController().signal));
				assert.deepEqual(events, []);
				assert.equal(error?.kind, 'bad-request');
				assert.match(error.message, new RegExp(`redirected .*to http://127\\.0\\.0\\.1:${elsewhere.port}`));
				assert.equal(error.retryable, false);
				assert.equal(elsewhere.requests.length, 0, 'nothing reached the other origin');
			});
		} finally {
			await elsewhere.close();
		}
	});

	it('follows a redirect on the same origin, with the key', async () => {
		await withKeyedServer(async (server, provider) => {
			server.script({ redirect: { status: 308, location: '/v1/messages?region=2' } }, { text: 'moved fine' });
			const { events, error } = await run(provider.stream(request(), new AbortController().signal));
			assert.equal(error, undefined);
			assert.equal(textOf(events), 'moved fine');
			assert.deepEqual(
				server.requests.map((received) => [received.method, received.headers['x-api-key'], typeof received.body]),
				[
					['POST', API_KEY, 'object'],
					['POST', API_KEY, 'object'],
				],
			);
		});
	});

	it('refuses a base URL with a user name or password, without printing them or sending anything', async () => {
		await withKeyedServer(async (server) => {
			const provider = new AnthropicProvider({ baseUrl: `http://gateway-user:hunter2-pass@127.0.0.1:${server.port}`, apiKey: API_KEY });
			const { error } = await run(provider.stream(request(), new AbortController().signal));
			assert.equal(error?.kind, 'bad-request');
			assert.match(error.message, /user name or password/);
			assert.ok(!error.message.includes('hunter2-pass') && !error.message.includes('gateway-user'), error.message);
			assert.equal(server.requests.length, 0);
		});
	});
});
