import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProviderError, type StreamEvent } from './provider';
import { withIdleTimeout } from './timeout';

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
