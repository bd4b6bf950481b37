// Prompt-cache usage and tool_choice on both HTTP protocols: the cache counters read from streams
// as the APIs send them, the scripted model server's shapes of them, and tool_choice on the wire.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer } from '../../test/harness/modelServer.mjs';
import { userText } from '../testing/history';
import { READ_TOOL, run } from '../testing/streams';
import { AnthropicProvider } from './anthropic';
import { OpenAICompatibleProvider, openAIBody } from './openaiCompatible';
import type { ChatRequest, StreamEvent } from './provider';

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
	return { model: 'm', system: 'You are Aside.', messages: [userText('hi')], tools: [], maxOutputTokens: 512, ...overrides };
}

async function withServer(test: (server: ModelServer) => Promise<void>): Promise<void> {
	const server = await startModelServer();
	try {
		await test(server);
	} finally {
		await server.close();
	}
}

function answering(body: string): typeof fetch {
	return () => Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
}

function usageOf(events: readonly StreamEvent[]): StreamEvent | undefined {
	return events.find((event) => event.type === 'usage');
}

/** The data of each SSE event of a raw body. */
function dataOf(sse: string): unknown[] {
	return sse
		.split('\n')
		.filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
		.map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
}

// A stream as the Messages API sends it with caching on (its message_start carries the cache
// counters; message_delta the output, and in newer versions the input counters again).
const ANTHROPIC_CACHED_STREAM = [
	'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"cache_creation_input_tokens":1843,"cache_read_input_tokens":20480,"output_tokens":1,"service_tier":"standard"}}}\n\n',
	'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
	'event: ping\ndata: {"type": "ping"}\n\n',
	'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Done."}}\n\n',
	'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
	'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":12,"cache_creation_input_tokens":1843,"cache_read_input_tokens":20480,"output_tokens":7}}\n\n',
	'event: message_stop\ndata: {"type":"message_stop"}\n\n',
].join('');

// The last chunk of an OpenAI completion with stream_options.include_usage.
const OPENAI_CACHED_STREAM = [
	'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"role":"assistant","content":"Done."},"finish_reason":null}]}\n\n',
	'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
	'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[],"usage":{"prompt_tokens":2006,"completion_tokens":300,"total_tokens":2306,"prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}\n\n',
	'data: [DONE]\n\n',
].join('');

describe('prompt-cache usage', () => {
	it('Anthropic: the whole prompt as input, with what was read from the cache and written to it', async () => {
		const provider = new AnthropicProvider({ apiKey: 'sk-test', fetch: answering(ANTHROPIC_CACHED_STREAM) });
		const { events } = await run(provider.stream(request(), new AbortController().signal));
		assert.deepEqual(usageOf(events), { type: 'usage', inputTokens: 12 + 1843 + 20480, outputTokens: 7, cacheReadTokens: 20480, cacheWriteTokens: 1843 });
	});

	it('Anthropic: no cache counters in the stream, none in the usage', async () => {
		const plain = ANTHROPIC_CACHED_STREAM.replaceAll(',"cache_creation_input_tokens":1843,"cache_read_input_tokens":20480', '');
		const provider = new AnthropicProvider({ apiKey: 'sk-test', fetch: answering(plain) });
		const { events } = await run(provider.stream(request(), new AbortController().signal));
		assert.deepEqual(usageOf(events), { type: 'usage', inputTokens: 12, outputTokens: 7 });
	});

	it('OpenAI-compatible: prompt_tokens stays the whole prompt; cached_tokens is what the cache held', async () => {
		const provider = new OpenAICompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', fetch: answering(OPENAI_CACHED_STREAM) });
		const { events } = await run(provider.stream(request(), new AbortController().signal));
		assert.deepEqual(usageOf(events), { type: 'usage', inputTokens: 2006, outputTokens: 300, cacheReadTokens: 1920 });
		const nulled = OPENAI_CACHED_STREAM.replace('"prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":0}', '"prompt_tokens_details":null');
		const bare = new OpenAICompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', fetch: answering(nulled) });
		assert.deepEqual(usageOf((await run(bare.stream(request(), new AbortController().signal))).events), { type: 'usage', inputTokens: 2006, outputTokens: 300 });
	});

	it("OpenAI-compatible: DeepSeek's prompt_cache_hit_tokens is the cached part too", async () => {
		const deepseek = OPENAI_CACHED_STREAM.replace('"prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":0}', '"prompt_cache_hit_tokens":1920,"prompt_cache_miss_tokens":86');
		const provider = new OpenAICompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', fetch: answering(deepseek) });
		assert.deepEqual(usageOf((await run(provider.stream(request(), new AbortController().signal))).events), { type: 'usage', inputTokens: 2006, outputTokens: 300, cacheReadTokens: 1920 });
	});
});

describe('the scripted model server: cache usage and error codes in the real shapes', () => {
	it('Anthropic: cache counters in message_start, input_tokens the uncached rest; read back as the scripted whole', async () => {
		await withServer(async (server) => {
			const usage = { input: 5000, output: 9, cacheRead: 4000, cacheWrite: 600 };
			server.script({ text: 'ok', usage });
			const raw = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [] }) });
			const start = dataOf(await raw.text())[0] as { type: string; message: { usage: unknown } };
			assert.equal(start.type, 'message_start');
			assert.deepEqual(start.message.usage, { input_tokens: 400, cache_creation_input_tokens: 600, cache_read_input_tokens: 4000, output_tokens: 1 });
			server.script({ text: 'ok', usage });
			const { events } = await run(new AnthropicProvider({ baseUrl: server.url, apiKey: 'sk-test' }).stream(request(), new AbortController().signal));
			assert.deepEqual(usageOf(events), { type: 'usage', inputTokens: 5000, outputTokens: 9, cacheReadTokens: 4000, cacheWriteTokens: 600 });
		});
	});

	it('OpenAI: prompt_tokens_details.cached_tokens, and no cache write (the API has none)', async () => {
		await withServer(async (server) => {
			server.script({ text: 'ok', usage: { input: 5000, output: 9, cacheRead: 4000, cacheWrite: 600 } });
			const raw = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [] }) });
			const last = dataOf(await raw.text()).at(-1) as { usage: unknown };
			assert.deepEqual(last.usage, { prompt_tokens: 5000, completion_tokens: 9, total_tokens: 5009, prompt_tokens_details: { cached_tokens: 4000 } });
			server.script({ text: 'ok', usage: { input: 5000, output: 9, cacheRead: 4000 } });
			const { events } = await run(new OpenAICompatibleProvider({ baseUrl: `${server.url}/v1` }).stream(request(), new AbortController().signal));
			assert.deepEqual(usageOf(events), { type: 'usage', inputTokens: 5000, outputTokens: 9, cacheReadTokens: 4000 });
		});
	});

	it('OpenAI: an error body carries the scripted errorCode', async () => {
		await withServer(async (server) => {
			server.script({ status: 400, message: 'This model\'s maximum context length is 8192 tokens.', errorType: 'invalid_request_error', errorCode: 'context_length_exceeded' });
			const raw = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [] }) });
			assert.equal(raw.status, 400);
			assert.deepEqual(await raw.json(), { error: { message: 'This model\'s maximum context length is 8192 tokens.', type: 'invalid_request_error', param: null, code: 'context_length_exceeded' } });
		});
	});
});

describe('tool_choice on the wire', () => {
	it("OpenAI-compatible: 'none' beside the tools, stable parts before messages; none without tools", async () => {
		await withServer(async (server) => {
			server.script({ text: 'summary' });
			await run(new OpenAICompatibleProvider({ baseUrl: `${server.url}/v1` }).stream(request({ tools: [READ_TOOL], toolChoice: 'none' }), new AbortController().signal));
			const body = server.requests[0]?.body as Record<string, unknown>;
			assert.deepEqual(Object.keys(body), ['model', 'max_tokens', 'tools', 'tool_choice', 'messages', 'stream', 'stream_options']);
			assert.equal(body.tool_choice, 'none');
		});
		assert.equal(openAIBody(request({ toolChoice: 'none' })).tool_choice, undefined, 'OpenAI refuses a tool_choice without tools');
		assert.equal(openAIBody(request({ tools: [READ_TOOL] })).tool_choice, undefined, 'absent: the server default (auto)');
	});

	it("Anthropic: {type: 'none'} beside the tools, as the API takes it", async () => {
		await withServer(async (server) => {
			server.script({ text: 'summary' });
			await run(new AnthropicProvider({ baseUrl: server.url, apiKey: 'sk-test' }).stream(request({ tools: [READ_TOOL], toolChoice: 'none' }), new AbortController().signal));
			const body = server.requests[0]?.body as Record<string, unknown>;
			assert.deepEqual(body.tool_choice, { type: 'none' });
			assert.deepEqual(Object.keys(body), ['model', 'max_tokens', 'system', 'tools', 'tool_choice', 'messages', 'stream']);
		});
	});
});
