import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageAssembler } from './anthropicEvents';
import { errorFieldOf } from './answer';
import { errorFromResponse } from './http';
import { overflowKind, saysTooLong } from './overflow';
import { ProviderError } from './provider';

// What real servers sent when a request was longer than the model's window (see overflow.ts).
const TOO_LONG_BODIES: readonly (readonly [server: string, status: number, body: string])[] = [
	['Anthropic', 400, '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 200251 tokens > 200000 maximum"},"request_id":"req_011CWdepJvA2D819tdYYq4h7"}'],
	['Anthropic (bytes)', 413, '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}'],
	['OpenAI', 400, '{"error":{"message":"This model\'s maximum context length is 8192 tokens. However, your messages resulted in 8227 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}'],
	['vLLM', 400, '{"object":"error","message":"This model\'s maximum context length is 131072 tokens. However, you requested 351430 tokens. Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}'],
	['llama.cpp', 400, '{"error":{"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":14429,"n_ctx":8192}}'],
	['llama.cpp (before 2025)', 500, '{"error":{"code":500,"message":"the request exceeds the available context size, try increasing it","type":"server_error"}}'],
	['LM Studio', 400, '{"error":"Trying to keep the first 15857 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input"}'],
	['LM Studio (n_keep)', 400, '{"error":"Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)"}'],
	['GitHub Copilot', 400, '{"error":{"message":"prompt token count of 132354 exceeds the limit of 128000","code":"model_max_prompt_tokens_exceeded"}}'],
	['OpenRouter', 400, '{"error":{"message":"This endpoint\'s maximum context length is 131072 tokens. However, you requested about 140000 tokens (132000 of text input, 8000 in the output). Please reduce the length of either one, or use the \\"middle-out\\" transform to compress your prompt automatically.","code":400}}'],
];

// Refusals that are not about length, which compaction would not help.
const OTHER_BODIES: readonly (readonly [status: number, body: string])[] = [
	[400, '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 21333 > 4096, which is the maximum allowed number of output tokens for claude-3-opus-20240229"}}'],
	[400, '{"error":{"message":"Invalid schema for function \'Read\'","type":"invalid_request_error","param":"tools[0]","code":"invalid_function_parameters"}}'],
	[404, '{"error":{"message":"The model `gpt-5` does not exist","type":"invalid_request_error","code":"model_not_found"}}'],
	[500, '{"error":{"code":500,"message":"failed to load model","type":"server_error"}}'],
	[400, '{"error":"messages: text content blocks must be non-empty"}'],
];

describe('A request too long for the model', () => {
	it('is recognised in the words of every server Aside speaks to', () => {
		for (const [server, , body] of TOO_LONG_BODIES) {
			assert.ok(saysTooLong(body), server);
		}
	});

	it('is not confused with other refusals (an output limit, a bad schema, a missing model)', () => {
		for (const [status, body] of OTHER_BODIES) {
			assert.equal(overflowKind('bad-request', status, body), 'bad-request', body);
		}
	});

	it('makes an HTTP refusal a too-long error, not retried, with the server\'s own words', async () => {
		for (const [server, status, body] of TOO_LONG_BODIES) {
			const error = await errorFromResponse('Server', new Response(body, { status }));
			assert.equal(error.kind, 'too-long', server);
			assert.equal(error.retryable, false, `${server}: sending the same request again cannot help`);
			assert.match(error.message, new RegExp(`^HTTP ${status} from Server: `));
		}
		// A 429 that happens to mention length is still a rate limit.
		assert.equal((await errorFromResponse('Server', new Response('{"error":{"message":"prompt is too long for your tier, slow down"}}', { status: 429 }))).kind, 'rate-limit');
	});

	it('is recognised in a stream: Anthropic\'s error event, llama.cpp\'s error field', () => {
		const assembler = new MessageAssembler();
		assert.throws(
			() => assembler.take({ event: 'error', data: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210194 tokens > 200000 maximum"}}' }),
			(error: unknown) => error instanceof ProviderError && error.kind === 'too-long' && /prompt is too long/.test(error.message),
		);
		assert.equal(errorFieldOf('llama.cpp', '{"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error"}').kind, 'too-long');
		assert.equal(errorFieldOf('llama.cpp', '{"code":500,"message":"failed to load model"}').kind, 'server');
	});
});
