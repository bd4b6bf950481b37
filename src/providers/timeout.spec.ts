import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer } from '../../test/harness/modelServer.mjs';
import { userText } from '../testing/history';
import { run } from '../testing/streams';
import { AnthropicProvider } from './anthropic';
import { OpenAICompatibleProvider } from './openaiCompatible';
import { ProviderError, type ChatProvider, type ChatRequest, type StreamEvent } from './provider';
import { timedProvider, withIdleTimeout } from './timeout';

const REQUEST: ChatRequest = { model: 'm', system: '', messages: [userText('write it')], tools: [], maxOutputTokens: 1000 };

/** Yields `events`, waiting `gapMs` before each, and honours the abort signal like a real stream. */
async function* slow(events: StreamEvent[], gapMs: number, signal: AbortSignal): AsyncGenerator<StreamEvent> {
	for (const event of events) {
		await new Promise<void>((resolve, reject) => {
			const timer = setTimeout(resolve, gapMs);
			signal.addEventListener('abort', () => {
				clearTimeout(timer);
				reject(new ProviderError('cancelled', 'aborted'));
			}, { once: true });
		});
		yield event;
	}
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
	const out: StreamEvent[] = [];
	for await (const event of stream) {
		out.push(event);
	}
	return out;
}

describe('request timeout', () => {
	it('lets a stream through whose gaps stay under the timeout, however long it runs', async () => {
		const events: StreamEvent[] = [{ type: 'accepted' }, { type: 'text', text: 'a' }, { type: 'text', text: 'b' }, { type: 'stop', reason: 'end' }];
		const got = await collect(withIdleTimeout((signal) => slow(events, 20, signal), new AbortController().signal, 200));
		assert.deepEqual(got, events);
	});

	it('fails a silent provider with a timeout error naming the setting', async () => {
		const stream = withIdleTimeout((signal) => slow([{ type: 'accepted' }, { type: 'text', text: 'late' }], 500, signal), new AbortController().signal, 30);
		await assert.rejects(collect(stream), (error: unknown) => error instanceof ProviderError && error.kind === 'timeout' && /aside\.requestTimeoutSeconds/.test(error.message) && error.retryable);
	});

	it('a stop by the person stays a cancellation, not a timeout', async () => {
		const controller = new AbortController();
		const stream = withIdleTimeout((signal) => slow([{ type: 'accepted' }], 500, signal), controller.signal, 10_000);
		setTimeout(() => {
			controller.abort();
		}, 10);
		await assert.rejects(collect(stream), (error: unknown) => error instanceof ProviderError && error.kind === 'cancelled');
	});
});

describe('request timeout over a real stream', { concurrency: true }, () => {
	// Pieces of a tool call's arguments yield no event until the call ends; each complete line
	// of them is still the server at work. The gaps stay far under the timeout and the whole
	// stream far over it, so only a timer that ignored the pieces could fail.
	const TIMEOUT_MS = 1000;
	const GAP_MS = 100;
	const PIECES = 16;
	const args = JSON.stringify({ path: 'src/big.ts', content: 'x'.repeat(PIECES * 10) });
	const pieceLength = Math.ceil(args.length / PIECES);
	const argPieces = Array.from({ length: PIECES }, (_, i) => args.slice(i * pieceLength, (i + 1) * pieceLength));

	async function withServer(test: (server: ModelServer) => Promise<void>): Promise<void> {
		const server = await startModelServer();
		try {
			await test(server);
		} finally {
			await server.close();
		}
	}

	const anthropicFrame = (data: { readonly type: string; readonly [field: string]: unknown }): string => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
	const openaiChunk = (delta: object, finish: string | null = null): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

	const cases = [
		{
			name: 'Anthropic',
			provider: (server: ModelServer): ChatProvider => new AnthropicProvider({ baseUrl: server.url, apiKey: 'sk-test' }),
			frames: [
				anthropicFrame({ type: 'message_start', message: { usage: { input_tokens: 5 } } }),
				anthropicFrame({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_w', name: 'Write', input: {} } }),
				...argPieces.map((partial_json) => anthropicFrame({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json } })),
				anthropicFrame({ type: 'content_block_stop', index: 0 }),
				anthropicFrame({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 99 } }),
				anthropicFrame({ type: 'message_stop' }),
			],
			trickleStart: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"',
		},
		{
			name: 'OpenAI-compatible',
			provider: (server: ModelServer): ChatProvider => new OpenAICompatibleProvider({ baseUrl: `${server.url}/v1` }),
			frames: [
				openaiChunk({ role: 'assistant', content: '', tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'Write', arguments: '' } }] }),
				...argPieces.map((piece) => openaiChunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
				openaiChunk({}, 'tool_calls'),
				'data: [DONE]\n\n',
			],
			trickleStart: 'data: {"choices":[{"index":0,"delta":{"content":"',
		},
	];

	for (const { name, provider, frames, trickleStart } of cases) {
		it(`${name}: keeps a stream alive while a tool call's arguments stream in pieces`, async () => {
			await withServer(async (server) => {
				server.script({ raw: frames, gapMs: GAP_MS });
				const { events, error } = await run(timedProvider(provider(server), TIMEOUT_MS).stream(REQUEST, new AbortController().signal));
				assert.equal(error, undefined);
				assert.deepEqual(
					events.filter((event) => event.type === 'tool-call'),
					[{ type: 'tool-call', id: name === 'Anthropic' ? 'toolu_w' : 'call_w', name: 'Write', input: JSON.parse(args) as unknown }],
				);
			});
		});

		it(`${name}: still times out a server that trickles bytes without ever ending a line`, async () => {
			await withServer(async (server) => {
				server.script({ raw: [trickleStart], repeat: 'a', gapMs: GAP_MS });
				const { events, error } = await run(timedProvider(provider(server), TIMEOUT_MS).stream(REQUEST, new AbortController().signal));
				assert.deepEqual(events, [{ type: 'accepted' }]);
				assert.equal(error?.kind, 'timeout');
				await server.waitForDisconnects(1);
			});
		});
	}
});
