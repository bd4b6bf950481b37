// What failed, and whether to try again: HTTP and fetch failures become ProviderErrors with the
// kind and retry-after the retry loop acts on, shared by both HTTP providers (the exchange
// itself is in http.ts). A request is retried only before the provider accepted it, so nothing
// the person saw is streamed twice.
import { ProviderError, type ChatProvider, type ChatRequest, type ProviderErrorKind, type StreamEvent } from './provider';

export interface StatusOptions {
	/** Anthropic's 529 "overloaded"; elsewhere a 529 is just a server error. */
	readonly overloadedStatus?: number;
	/** For an HTTP-date `retry-after`. */
	readonly now?: number;
}

/** The wait a server asks for, from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
	const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
	if (Number.isFinite(ms) && ms >= 0) {
		return ms;
	}
	const value = headers.get('retry-after')?.trim();
	if (!value) {
		return undefined;
	}
	const seconds = Number(value);
	if (Number.isFinite(seconds)) {
		return seconds >= 0 ? seconds * 1000 : undefined;
	}
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function kindForStatus(status: number, overloadedStatus?: number): ProviderErrorKind {
	if (status === 401 || status === 403) {
		return 'auth';
	}
	if (status === 429) {
		return 'rate-limit';
	}
	if (status === overloadedStatus) {
		return 'overloaded';
	}
	if (status === 408) {
		return 'timeout';
	}
	return status >= 500 ? 'server' : 'bad-request';
}

/** The server's own explanation from an error body: `{error: {message}}`, `{error: "…"}` or `{message}`. */
export function errorMessageOf(bodyText: string): string {
	try {
		const body: unknown = JSON.parse(bodyText);
		const error = field(body, 'error');
		const message = field(error, 'message') ?? error ?? field(body, 'message');
		if (typeof message === 'string') {
			return message;
		}
	} catch {
		// Not JSON: a proxy's HTML page or plain text, quoted below.
	}
	const text = bodyText.trim().replace(/\s+/g, ' ');
	return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function field(value: unknown, name: string): unknown {
	return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** What fetch (or reading a body) threw, as a ProviderError: the caller's abort wins over anything else. */
export function failureOf(error: unknown, signal: AbortSignal, fallback: (cause: unknown) => ProviderError): ProviderError {
	if (signal.aborted) {
		return error instanceof ProviderError && error.kind === 'cancelled' ? error : new ProviderError('cancelled', 'The request was stopped.', { cause: error });
	}
	return error instanceof ProviderError ? error : fallback(error);
}

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
export async function* streamWithRetries(provider: ChatProvider, request: ChatRequest, signal: AbortSignal, options: RetryOptions): AsyncGenerator<StreamEvent, void, undefined> {
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
