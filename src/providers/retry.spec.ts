import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer } from '../../test/harness/modelServer.mjs';
import { userText } from '../testing/history';
import { AnthropicProvider } from './anthropic';
import { ProviderError, type ChatProvider, type ChatRequest, type StreamEvent } from './provider';
import { abortableSleep, retryDelay, streamWithRetries, type RetryOptions } from './retry';

const REQUEST: ChatRequest = { model: 'claude-test', system: '', messages: [userText('hi')], tools: [], maxOutputTokens: 100 };

interface Recorded {
	readonly delays: number[];
	readonly retries: { attempt: number; kind: string; delayMs: number }[];
	readonly options: RetryOptions;
}

/** Options whose sleep records the delay and returns at once: no real waiting. */
function recording(overrides: Partial<RetryOptions> = {}): Recorded {
	const delays: number[] = [];
	const retries: Recorded['retries'] = [];
	const options: RetryOptions = {
		maxAttempts: 4,
		baseDelayMs: 1000,
		maxDelayMs: 30_000,
		random: () => 0.5,
		sleep: (ms) => {
			delays.push(ms);
			return Promise.resolve();
		},
		onRetry: (attempt, error, delayMs) => retries.push({ attempt, kind: error.kind, delayMs }),
		...overrides,
	};
	return { delays, retries, options };
}

async function drain(stream: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[]; error?: unknown }> {
	const events: StreamEvent[] = [];
	try {
		for await (const event of stream) {
			events.push(event);
		}
		return { events };
	} catch (error) {
		return { events, error };
	}
}

async function withProvider(test: (server: ModelServer, provider: AnthropicProvider) => Promise<void>): Promise<void> {
	const server = await startModelServer();
	try {
		await test(server, new AnthropicProvider({ baseUrl: server.url, apiKey: 'k' }));
	} finally {
		await server.close();
	}
}

describe('streamWithRetries', () => {
	it('retries a 429 once, waiting what retry-after asks, and streams the second answer only', async () => {
		await withProvider(async (server, provider) => {
			server.script({ status: 429, retryAfter: 1 }, { text: 'second time lucky' });
			const { delays, retries, options } = recording();
			const { events, error } = await drain(streamWithRetries(provider, REQUEST, new AbortController().signal, options));
			assert.equal(error, undefined);
			assert.deepEqual(delays, [1000]);
			assert.deepEqual(retries, [{ attempt: 1, kind: 'rate-limit', delayMs: 1000 }]);
			assert.equal(events.filter((event) => event.type === 'accepted').length, 1);
			assert.equal(events.map((event) => (event.type === 'text' ? event.text : '')).join(''), 'second time lucky');
			assert.equal(server.requests.length, 2);
		});
	});

	it('caps retry-after at maxDelayMs', async () => {
		await withProvider(async (server, provider) => {
			server.script({ status: 529, retryAfter: 600 }, { text: 'ok' });
			const { delays, options } = recording({ maxDelayMs: 5000 });
			await drain(streamWithRetries(provider, REQUEST, new AbortController().signal, options));
			assert.deepEqual(delays, [5000]);
		});
	});

	it('gives up after maxAttempts with the last error, backing off with jitter', async () => {
		await withProvider(async (server, provider) => {
			server.script({ status: 500, message: 'first' }, { status: 500, message: 'second' }, { status: 500, message: 'third' }, { text: 'too late' });
			const { delays, retries, options } = recording({ maxAttempts: 3, baseDelayMs: 100 });
			const { events, error } = await drain(streamWithRetries(provider, REQUEST, new AbortController().signal, options));
			assert.deepEqual(events, []);
			assert.ok(error instanceof ProviderError);
			assert.equal(error.kind, 'server');
			assert.match(error.message, /third/);
			assert.deepEqual(delays, [50, 100], 'half (the jitter) of 100, then of 200');
			assert.deepEqual(
				retries.map((retry) => retry.attempt),
				[1, 2],
			);
			assert.equal(server.requests.length, 3);
		});
	});

	it('does not retry an error after accepted, even a retryable one: the caller keeps what streamed', async () => {
		await withProvider(async (server, provider) => {
			server.script({ text: 'abcdefgh', streamError: { type: 'overloaded_error', message: 'Overloaded' } }, { text: 'a retry would send this' });
			const { delays, options } = recording();
			const { events, error } = await drain(streamWithRetries(provider, REQUEST, new AbortController().signal, options));
			assert.ok(error instanceof ProviderError);
			assert.equal(error.kind, 'overloaded');
			assert.ok(error.retryable, 'retryable in itself');
			assert.deepEqual(events, [{ type: 'accepted' }, { type: 'text', text: 'abcd' }, { type: 'text', text: 'efgh' }]);
			assert.deepEqual(delays, []);
			assert.equal(server.requests.length, 1);
		});
	});

	it('does not retry a connection cut after accepted', async () => {
		await withProvider(async (server, provider) => {
			server.script({ text: 'abcdefghijkl', cutAfterChunks: 4 }, { text: 'a retry would send this' });
			const { delays, options } = recording();
			const { events, error } = await drain(streamWithRetries(provider, REQUEST, new AbortController().signal, options));
			assert.ok(error instanceof ProviderError);
			assert.equal(error.kind, 'stream');
			assert.deepEqual(events, [{ type: 'accepted' }, { type: 'text', text: 'abcd' }]);
			assert.deepEqual(delays, []);
			assert.equal(server.requests.length, 1);
		});
	});

	it('does not retry an error that is not retryable', async () => {
		await withProvider(async (server, provider) => {
			server.script({ status: 401 }, { text: 'ok' });
			const { delays, options } = recording();
			const { error } = await drain(streamWithRetries(provider, REQUEST, new AbortController().signal, options));
			assert.ok(error instanceof ProviderError && error.kind === 'auth');
			assert.deepEqual(delays, []);
			assert.equal(server.requests.length, 1);
		});
	});

	it('is cancelled when stopped during the backoff, without another attempt', async () => {
		await withProvider(async (server, provider) => {
			// A real, abortable sleep of a minute: only the abort can end it.
			server.script({ status: 429, retryAfter: 60 }, { text: 'ok' });
			const controller = new AbortController();
			const options: RetryOptions = {
				maxAttempts: 3,
				baseDelayMs: 1000,
				maxDelayMs: 120_000,
				onRetry: () => {
					setTimeout(() => {
						controller.abort();
					}, 10);
				},
			};
			const { error } = await drain(streamWithRetries(provider, REQUEST, controller.signal, options));
			assert.ok(error instanceof ProviderError);
			assert.equal(error.kind, 'cancelled');
			assert.equal(server.requests.length, 1);
		});
	});

	it('makes every attempt for a failure before accepted, and retries nothing once stopped', async () => {
		let calls = 0;
		const provider: ChatProvider = {
			id: 'anthropic',
			// eslint-disable-next-line require-yield -- a stream that fails before its first event
			async *stream(_request, signal) {
				calls++;
				signal.throwIfAborted();
				await Promise.resolve();
				throw new ProviderError('network', 'unreachable');
			},
			listModels: () => Promise.resolve([]),
		};
		const controller = new AbortController();
		const { delays, options } = recording();
		const first = await drain(streamWithRetries(provider, REQUEST, controller.signal, options));
		assert.ok(first.error instanceof ProviderError && first.error.kind === 'network');
		assert.equal(calls, 4, 'every attempt was made');
		assert.equal(delays.length, 3);
		controller.abort();
		const second = await drain(streamWithRetries(provider, REQUEST, controller.signal, options));
		assert.equal(calls, 5, 'one attempt, which saw the abort');
		assert.ok(second.error !== undefined);
		assert.equal(delays.length, 3, 'no retry after an abort');
	});
});

describe('retry delays', () => {
	it('grows exponentially with full jitter, up to maxDelayMs', () => {
		const options = { maxAttempts: 10, baseDelayMs: 500, maxDelayMs: 10_000 };
		const error = new ProviderError('server', 'x');
		const top = (attempt: number) => retryDelay(attempt, error, { ...options, random: () => 0.9999 });
		assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map(top), [499, 999, 1999, 3999, 7999, 9999, 9999]);
		assert.equal(retryDelay(3, error, { ...options, random: () => 0 }), 0, 'full jitter reaches zero');
	});

	it('sleeps and can be woken by an abort', async () => {
		await abortableSleep(1, new AbortController().signal);
		const controller = new AbortController();
		const sleeping = abortableSleep(60_000, controller.signal);
		controller.abort();
		await assert.rejects(sleeping, (error: unknown) => error instanceof ProviderError && error.kind === 'cancelled');
		const aborted = AbortSignal.abort();
		await assert.rejects(abortableSleep(60_000, aborted), (error: unknown) => error instanceof ProviderError && error.kind === 'cancelled');
	});
});
