import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer, type ScriptedStep } from '../../test/harness/modelServer.mjs';
import { wrap } from '../reminders/envelope';
import { SequentialIds } from '../testing/fakeClock';
import { READ_TOOL, run, textOf, type Outcome } from '../testing/streams';
import { assistantCalls, assistantText, resultsInUser, userText } from '../testing/history';
import type { ChatMessage } from './messages';
import { OpenAICompatibleProvider, type OpenAICompatibleOptions } from './openaiCompatible';
import type { ChatRequest } from './provider';

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
	return { model: 'qwen-test', system: 'You are Aside.', messages: [userText('hi')], tools: [], maxOutputTokens: 512, ...overrides };
}

async function withServer(
	test: (server: ModelServer, provider: OpenAICompatibleProvider) => Promise<void>,
	options: Partial<OpenAICompatibleOptions> = {},
): Promise<void> {
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
	it('sends the chat request to /v1/chat/completions, without an Authorization header when there is no key (Ollama)', async () => {
		const { error, server } = await streamOnce({ text: 'Hello from a local model — ✓' });
		assert.equal(error, undefined);
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
		assert.deepEqual(Object.keys(body), ['model', 'max_tokens', 'messages', 'stream', 'stream_options']);
		assert.deepEqual(body.messages, [{ role: 'user', content: 'hi' }]);
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

});

/** Chunks as `data:` events, each ended by its blank line. */
function sse(...chunks: readonly (object | string)[]): string[] {
	return chunks.map((chunk) => `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`);
}

function chunkOf(d: object, finishReason: string | null = null): object {
	return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_762_355_135, model: 'm', choices: [{ index: 0, delta: d, finish_reason: finishReason }] };
}

describe('OpenAICompatibleProvider: streams as real servers send them', () => {
	it("reports llama.cpp's error field after HTTP 200 as an error with the server's message", async () => {
		const message = 'the request exceeds the available context size. try increasing the context size or enable context shift';
		const raw = [
			...sse(chunkOf({ role: 'assistant', content: null })),
			`error: {"code":400,"message":"${message}","type":"invalid_request_error"}\n\n`,
			'data: [DONE]\n\n',
		];
		const { events, error } = await streamOnce({ raw });
		assert.deepEqual(events, [{ type: 'accepted' }]);
		// The request is longer than the server's context: compaction's kind, not a plain refusal.
		assert.equal(error?.kind, 'too-long');
		assert.ok(error.message.includes(message), error.message);
	});

	it('fails a [DONE] with nothing before it instead of taking it for an empty answer', async () => {
		const { events, error } = await streamOnce({ raw: sse('[DONE]') });
		assert.deepEqual(events, [{ type: 'accepted' }]);
		assert.equal(error?.kind, 'stream');
		assert.match(error.message, /ended the stream without an answer/);
	});

	it("joins Mistral's content parts, with thinking parts as reasoning, not answer", async () => {
		const raw = sse(
			chunkOf({ role: 'assistant', content: '' }),
			chunkOf({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'The user says hello; ' }] }] }),
			chunkOf({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'answer briefly.' }] }] }),
			chunkOf({ content: [{ type: 'text', text: 'Hello' }] }),
			chunkOf({ content: [{ type: 'text', text: ' there' }, { type: 'text', text: '!' }] }),
			chunkOf({ content: '' }, 'stop'),
			{ ...chunkOf({}), choices: [], usage: { prompt_tokens: 9, completion_tokens: 20, total_tokens: 29 } },
			'[DONE]',
		);
		const { events, error } = await streamOnce({ raw });
		assert.equal(error, undefined);
		assert.equal(textOf(events), 'Hello there!');
		assert.deepEqual(
			events.filter((event) => event.type === 'reasoning'),
			[
				{ type: 'reasoning', text: 'The user says hello; ' },
				{ type: 'reasoning', text: 'answer briefly.' },
			],
		);
		assert.deepEqual(events.slice(-2), [
			{ type: 'usage', inputTokens: 9, outputTokens: 20 },
			{ type: 'stop', reason: 'end' },
		]);
	});

	it("separates Ollama's parallel tool calls sent whole, each with its own id, all at index 0", async () => {
		const call = (id: string, path: string) => ({ id, index: 0, type: 'function', function: { name: 'Read', arguments: JSON.stringify({ path }) } });
		const raw = sse(
			chunkOf({ role: 'assistant', content: '', tool_calls: [call('call_v4wq8k1d', 'a.ts')] }),
			chunkOf({ role: 'assistant', content: '', tool_calls: [call('call_0scw2dos', 'b.ts')] }),
			chunkOf({ role: 'assistant', content: '' }, 'tool_calls'),
			'[DONE]',
		);
		const { events, error } = await streamOnce({ raw });
		assert.equal(error, undefined);
		assert.deepEqual(
			events.filter((event) => event.type === 'tool-call'),
			[
				{ type: 'tool-call', id: 'call_v4wq8k1d', name: 'Read', input: { path: 'a.ts' } },
				{ type: 'tool-call', id: 'call_0scw2dos', name: 'Read', input: { path: 'b.ts' } },
			],
		);
	});

	it('reads a final chunk that the server closes without the blank line', async () => {
		const raw = [...sse(chunkOf({ role: 'assistant', content: 'hi' })), `data: ${JSON.stringify(chunkOf({}, 'stop'))}\n`];
		const { events, error } = await streamOnce({ raw });
		assert.equal(error, undefined);
		assert.deepEqual(events, [{ type: 'accepted' }, { type: 'text', text: 'hi' }, { type: 'stop', reason: 'end' }]);
	});

	it('says what a 200 answer held when it was not an event stream', async () => {
		const cases: [ScriptedStep, RegExp][] = [
			[{ raw: ['<!doctype html><html><head><title>Open WebUI</title></head><body></body></html>'], headers: { 'content-type': 'text/html' } }, /an HTML page .*Open WebUI/],
			[{ raw: ['{"error":{"message":"model \\"qwen-test\\" not found, try pulling it first","type":"api_error"}}'], headers: { 'content-type': 'application/json' } }, /JSON .*model "qwen-test" not found/],
			[{ raw: ['{"id":"x","object":"chat.completion","choices":[{"message":{"content":"hi"}}]}'], headers: { 'content-type': 'application/json; charset=utf-8' } }, /JSON instead of an event stream/],
			[{ raw: [] }, /an empty answer/],
			[{ raw: [''], headers: { 'content-type': 'application/json' } }, /an empty answer/],
		];
		for (const [step, expected] of cases) {
			const { events, error } = await streamOnce(step);
			assert.equal(error?.kind, 'stream', String(expected));
			assert.match(error.message, expected);
			assert.doesNotMatch(error.message, /cut off/);
			assert.equal(textOf(events), '');
		}
	});

	it('reads an event stream labelled as JSON', async () => {
		const { events, error } = await streamOnce({ raw: sse(chunkOf({ content: 'still' }), chunkOf({}, 'stop'), '[DONE]'), headers: { 'content-type': 'application/json' } });
		assert.equal(error, undefined);
		assert.equal(textOf(events), 'still');
	});

});

