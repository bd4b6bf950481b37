// Whether to try again, and when: the retry loop around `provider.stream`, acting on the kind
// and retry-after each provider puts on its ProviderErrors (http.ts maps HTTP and fetch failures
// to them). A request is retried only before the provider accepted it, so nothing the person saw
// is streamed twice.
import { ProviderError, type ChatProvider, type ChatRequest, type StreamEvent } from './provider';

export interface RetryOptions {
	/** Attempts in all, the first included. */
	readonly maxAttempts: number;
	readonly baseDelayMs: number;
	readonly maxDelayMs: number;
	/** Waits `ms`, rejecting with a 'cancelled' ProviderError when `signal` fires. */
	readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
	/** In [0, 1); the jitter's source, injectable so tests know the delays. */
	readonly random?: () => number;
	/** Called before each wait; `attempt` is the 1-based number of the attempt that failed. */
	readonly onRetry?: (attempt: number, error: ProviderError, delayMs: number) => void;
}

/** The wait before the next attempt: the server's retry-after, else exponential backoff with full jitter. */
export function retryDelay(attempt: number, error: ProviderError, options: RetryOptions): number {
	const { retryAfterMs } = error.details;
	if (retryAfterMs !== undefined) {
		return Math.min(retryAfterMs, options.maxDelayMs);
	}
	const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
	return Math.floor((options.random ?? Math.random)() * ceiling);
}

/**
 * `provider.stream` with retries of retryable errors that happen before `accepted`. After it,
 * an error propagates: the caller keeps what streamed, and a retry would repeat it.
 */
export async function* streamWithRetries(
	provider: ChatProvider,
	request: ChatRequest,
	signal: AbortSignal,
	options: RetryOptions,
): AsyncGenerator<StreamEvent, void, undefined> {
	const sleep = options.sleep ?? abortableSleep;
	for (let attempt = 1; ; attempt++) {
		let accepted = false;
		try {
			for await (const event of provider.stream(request, signal)) {
				accepted ||= event.type === 'accepted';
				yield event;
			}
			return;
		} catch (error) {
			if (accepted || signal.aborted || !(error instanceof ProviderError) || !error.retryable || attempt >= options.maxAttempts) {
				throw error;
			}
			const delayMs = retryDelay(attempt, error, options);
			options.onRetry?.(attempt, error, delayMs);
			await sleep(delayMs, signal);
		}
	}
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		const cancelled = (): void => {
			clearTimeout(timer);
			reject(new ProviderError('cancelled', 'The request was stopped while waiting to retry.'));
		};
		const timer = setTimeout(() => {
			signal.removeEventListener('abort', cancelled);
			resolve();
		}, ms);
		if (signal.aborted) {
			cancelled();
		} else {
			signal.addEventListener('abort', cancelled, { once: true });
		}
	});
}
