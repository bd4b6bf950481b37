import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer, type ScriptedStep } from '../../test/harness/modelServer.mjs';
import { wrap } from '../reminders/envelope';
import { SequentialIds } from '../testing/fakeClock';
import { READ_TOOL, run, textOf, type Outcome } from '../testing/streams';
import { assistantCalls, assistantText, resultsInUser, userText } from '../testing/history';
import type { ChatMessage } from './messages';
import { OpenAICompatibleProvider, type OpenAICompatibleOptions } from './openaiCompatible';
import { ProviderError, type ChatRequest } from './provider';

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
	return { model: 'qwen-test', system: 'You are Aside.', messages: [userText('hi')], tools: [], maxOutputTokens: 512, ...overrides };
}

async function withServer(test: (server: ModelServer, provider: OpenAICompatibleProvider) => Promise<void>, options: Partial<OpenAICompatibleOptions> = {}): Promise<void> {
	const server = await startModelServer();
	try {
		await test(server, new OpenAICompatibleProvider({ baseUrl: `${server.url}/v1`, ...options }));
	} finally {
		await server.close();
	}
}

async function streamOnce(step: ScriptedStep, req = request(), options: Partial<OpenAICompatibleOptions> = {}): Promise<Outcome & { server: ModelServer }> {
	let outcome: (Outcome & { server: ModelServer }) | undefined;
	await withServer(async (server, provider) => {
		server.script(step);
		outcome = { ...(await run(provider.stream(req, new AbortController().signal))), server };
	}, options);
	assert.ok(outcome);
	return outcome;
}

/** A provider whose fetch answers with these chunks as SSE, for streams the server doesn't send. */
function providerAnswering(chunks: readonly (object | string)[]): OpenAICompatibleProvider {
	const sse = chunks.map((chunk) => `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`).join('');
	const fetchStub: typeof fetch = () => Promise.resolve(new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
	return new OpenAICompatibleProvider({ baseUrl: 'http://localhost:11434/v1', fetch: fetchStub, ids: new SequentialIds('gen') });
}

function delta(d: object, finishReason: string | null = null): object {
	return { choices: [{ index: 0, delta: d, finish_reason: finishReason }] };
}

describe('OpenAICompatibleProvider streaming', () => {
	it('is accepted, streams text in pieces, then usage and the stop reason', async () => {
		const { events, error, server } = await streamOnce({ text: 'Hello from a local model — ✓', usage: { input: 30, output: 8 } });
		assert.equal(error, undefined);
		assert.deepEqual(events[0], { type: 'accepted' });
		assert.equal(textOf(events), 'Hello from a local model — ✓');
		assert.ok(events.filter((event) => event.type === 'text').length > 3);
		assert.deepEqual(events.slice(-2), [
			{ type: 'usage', inputTokens: 30, outputTokens: 8 },
			{ type: 'stop', reason: 'end' },
		]);
		assert.equal(server.requests[0]?.path, '/v1/chat/completions');
		assert.equal(server.requests[0].headers.authorization, undefined, 'no key, no Authorization header (Ollama)');
	});

	it('sends a bearer token only when given a key', async () => {
		const { server } = await streamOnce({ text: 'ok' }, request(), { apiKey: 'sk-local' });
		assert.equal(server.requests[0]?.headers.authorization, 'Bearer sk-local');
	});

	it('sends the exact body, with tool results as tool messages before the user text', async () => {
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
			{ role: 'user', content: [{ type: 'tool-result', callId: 'c4', content: 'late result' }, { type: 'text', text: 'thanks' }] },
		];
		const { server } = await streamOnce({ text: 'ok' }, request({ messages: history, tools: [READ_TOOL] }));
		const call = (id: string, name: string, args: object) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
		assert.deepEqual(server.requests[0]?.body, {
			model: 'qwen-test',
			messages: [
				{ role: 'system', content: 'You are Aside.' },
				{ role: 'user', content: 'Fix the bug' },
				{ role: 'assistant', content: 'Let me look.', tool_calls: [call('c1', 'Read', { path: 'c1.ts' }), call('c2', 'Read', { path: 'c2.ts' })] },
				{ role: 'tool', tool_call_id: 'c1', content: 'contents of c1.ts' },
				{ role: 'tool', tool_call_id: 'c2', content: 'contents of c2.ts' },
				{ role: 'user', content: reminder },
				{ role: 'assistant', tool_calls: [call('c3', 'Bash', { command: 'npm test' })] },
				{ role: 'tool', tool_call_id: 'c3', content: 'exit 1' },
				{ role: 'user', content: 'also check lint' },
				{ role: 'assistant', content: 'Done.' },
				{ role: 'tool', tool_call_id: 'c4', content: 'late result' },
				{ role: 'user', content: 'thanks' },
			],
			tools: [{ type: 'function', function: { name: 'Read', description: 'Reads a file.', parameters: READ_TOOL.inputSchema } }],
			stream: true,
			stream_options: { include_usage: true },
			max_tokens: 512,
		});
	});

	it('leaves out an empty system prompt and an empty tool list', async () => {
		const { server } = await streamOnce({ text: 'ok' }, request({ system: '' }));
		const body = server.requests[0]?.body as { messages: unknown[] };
		assert.deepEqual(Object.keys(body), ['model', 'messages', 'stream', 'stream_options', 'max_tokens']);
		assert.deepEqual(body.messages, [{ role: 'user', content: 'hi' }]);
	});

	it('assembles parallel tool calls from fragments, exactly', async () => {
		const first = { path: 'src/ünïcode/🙂.ts', lines: [1, 20], options: { nested: { deep: true, text: 'a "quoted" \\ value' } } };
		const second = { command: 'grep -rn "x" .', timeoutMs: 5000 };
		const { events, error } = await streamOnce({
			text: 'Reading both.',
			toolCalls: [
				{ id: 'call_a', name: 'Read', input: first },
				{ id: 'call_b', name: 'Bash', input: second },
				{ id: 'call_c', name: 'List', input: {} },
			],
		});
		assert.equal(error, undefined);
		assert.equal(textOf(events), 'Reading both.');
		assert.deepEqual(
			events.filter((event) => event.type === 'tool-call'),
			[
				{ type: 'tool-call', id: 'call_a', name: 'Read', input: first },
				{ type: 'tool-call', id: 'call_b', name: 'Bash', input: second },
				{ type: 'tool-call', id: 'call_c', name: 'List', input: {} },
			],
		);
		assert.deepEqual(events.at(-1), { type: 'stop', reason: 'tool-use' });
	});

	it('maps every finish reason', async () => {
		const cases = [
			['stop', 'end'],
			['tool_calls', 'tool-use'],
			['length', 'max-tokens'],
			['content_filter', 'refusal'],
			['function_call', 'other'],
		] as const;
		for (const [wire, neutral] of cases) {
			const { events } = await streamOnce({ text: 'x', stop: wire });
			assert.deepEqual(events.at(-1), { type: 'stop', reason: neutral }, wire);
		}
	});

	it('says tool-use when a server finishes tool calls with "stop"', async () => {
		const { events } = await streamOnce({ toolCalls: [{ id: 'c', name: 'List', input: {} }], stop: 'stop' });
		assert.deepEqual(events.at(-1), { type: 'stop', reason: 'tool-use' });
	});

	it('separates calls streamed whole without an index, and names calls streamed without an id', async () => {
		const provider = providerAnswering([
			delta({ tool_calls: [{ id: 'x1', function: { name: 'Read', arguments: '{"path":"a"}' } }] }),
			delta({ tool_calls: [{ id: 'x2', function: { name: 'Read', arguments: '{"path":"b"}' } }] }),
			delta({ tool_calls: [{ index: 2, function: { name: 'List', arguments: '' } }] }),
			delta({}, 'tool_calls'),
			'[DONE]',
		]);
		const { events } = await run(provider.stream(request(), new AbortController().signal));
		assert.deepEqual(events, [
			{ type: 'accepted' },
			{ type: 'tool-call', id: 'x1', name: 'Read', input: { path: 'a' } },
			{ type: 'tool-call', id: 'x2', name: 'Read', input: { path: 'b' } },
			{ type: 'tool-call', id: 'call_gen-1', name: 'List', input: {} },
			{ type: 'stop', reason: 'tool-use' },
		]);
	});

	it('accepts a stream that ends after finish_reason without [DONE], and fails one that ends before it', async () => {
		const complete = await run(providerAnswering([delta({ content: 'hi' }), delta({}, 'stop')]).stream(request(), new AbortController().signal));
		assert.deepEqual(complete.events, [{ type: 'accepted' }, { type: 'text', text: 'hi' }, { type: 'stop', reason: 'end' }]);
		const cut = await run(providerAnswering([delta({ content: 'hi' })]).stream(request(), new AbortController().signal));
		assert.equal(textOf(cut.events), 'hi');
		assert.equal(cut.error?.kind, 'stream');
	});
});

describe('OpenAICompatibleProvider failures', () => {
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
			[529, 'server'],
		] as const;
		for (const [status, kind] of cases) {
			const { events, error } = await streamOnce({ status, message: `model "qwen-test" says ${status}` });
			assert.deepEqual(events, [], `${status}: nothing before the error`);
			assert.equal(error?.kind, kind, `${status}`);
			assert.equal(error.details.status, status);
			assert.match(error.message, new RegExp(`HTTP ${status} from the model server at 127\\.0\\.0\\.1:\\d+: model "qwen-test" says ${status}`));
		}
	});

	it('reads retry-after and retry-after-ms on a 429', async () => {
		assert.equal((await streamOnce({ status: 429, retryAfter: 3 })).error?.details.retryAfterMs, 3000);
		assert.equal((await streamOnce({ status: 429, retryAfterMs: 250 })).error?.details.retryAfterMs, 250);
	});

	it('fails with "stream" after accepted when the connection is cut, keeping the text that streamed', async () => {
		// The role chunk, then three chunks of four characters.
		const { events, error } = await streamOnce({ text: 'abcdefghijklmnop', cutAfterChunks: 4 });
		assert.deepEqual(events[0], { type: 'accepted' });
		assert.equal(textOf(events), 'abcdefghijkl');
		assert.equal(error?.kind, 'stream');
	});

	it('fails with "stream" when tool call arguments are not valid JSON', async () => {
		const { error } = await streamOnce({ toolCalls: [{ name: 'Read', arguments: '{"path": ' }] });
		assert.equal(error?.kind, 'stream');
		assert.match(error.message, /Read/);
	});

	it('turns an error chunk in the stream into an error', async () => {
		const { events, error } = await streamOnce({ streamError: { type: 'server_error', message: 'the model crashed' } });
		assert.deepEqual(events, [{ type: 'accepted' }]);
		assert.ok(error);
		assert.match(error.message, /the model crashed/);
	});

	it('is cancelled when stopped mid-stream', async () => {
		await withServer(async (server, provider) => {
			server.script({ hangAfterAccept: true, text: 'never finished' });
			const controller = new AbortController();
			const { events, error } = await run(provider.stream(request(), controller.signal), () => {
				controller.abort();
			});
			assert.deepEqual(events, [{ type: 'accepted' }]);
			assert.equal(error?.kind, 'cancelled');
			await server.waitForDisconnects(1);
		});
	});

	it('fails with a retryable "network" error when nothing listens', async () => {
		const server = await startModelServer();
		await server.close();
		const provider = new OpenAICompatibleProvider({ baseUrl: `${server.url}/v1` });
		const { error } = await run(provider.stream(request(), new AbortController().signal));
		assert.equal(error?.kind, 'network');
		assert.ok(error.retryable);
	});
});

describe('OpenAICompatibleProvider.listModels', () => {
	it('lists the models the server offers', async () => {
		await withServer(async (server, provider) => {
			server.scriptModels({ models: ['llama3.2:3b', 'qwen2.5-coder:7b'] });
			const models = await provider.listModels(new AbortController().signal);
			assert.deepEqual(models, [
				{ id: 'llama3.2:3b', name: 'llama3.2:3b' },
				{ id: 'qwen2.5-coder:7b', name: 'qwen2.5-coder:7b' },
			]);
			assert.equal(server.requests[0]?.path, '/v1/models');
		});
	});

	it('throws a typed error instead of an empty list', async () => {
		await withServer(async (server, provider) => {
			server.scriptModels({ status: 500 });
			await assert.rejects(provider.listModels(new AbortController().signal), (error: unknown) => error instanceof ProviderError && error.kind === 'server');
		});
	});
});
