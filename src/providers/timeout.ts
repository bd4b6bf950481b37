// The request timeout (`aside.requestTimeoutSeconds`): how long a provider may stay silent —
// before it accepts the request, and between two streamed events or lines — before the request
// fails with a 'timeout' error (which the retry wrapper may retry while nothing was streamed).
import { type ChatProvider, ProviderError, type StreamEvent } from './provider';

/**
 * `start`'s stream under the idle timeout. Every event is progress, and so is every call of the
 * `progress` function `start` is given (the provider calls it for each complete line it reads).
 */
export async function* withIdleTimeout(
	start: (signal: AbortSignal, progress: () => void) => AsyncIterable<StreamEvent>,
	signal: AbortSignal,
	timeoutMs: number,
): AsyncGenerator<StreamEvent, void, undefined> {
	const controller = new AbortController();
	// An object, so the check after the loop is not narrowed away by the assignment in the timer.
	const state = { timedOut: false, deadline: performance.now() + timeoutMs };
	const onAbort = (): void => {
		controller.abort(signal.reason);
	};
	signal.addEventListener('abort', onAbort, { once: true });
	// Progress only moves the deadline; the one timer looks at it when it fires, so a stream of
	// many small lines costs no timer churn.
	const progress = (): void => {
		state.deadline = performance.now() + timeoutMs;
	};
	let timer: ReturnType<typeof setTimeout> | undefined;
	const check = (): void => {
		const left = state.deadline - performance.now();
		if (left > 0) {
			timer = setTimeout(check, left);
			return;
		}
		state.timedOut = true;
		controller.abort();
	};
	timer = setTimeout(check, timeoutMs);
	try {
		for await (const event of start(controller.signal, progress)) {
			progress();
			yield event;
		}
	} catch (error) {
		if (state.timedOut && !signal.aborted) {
			throw new ProviderError('timeout', `The provider sent nothing for ${Math.round(timeoutMs / 1000)} s (setting aside.requestTimeoutSeconds).`, { cause: error });
		}
		throw error;
	} finally {
		clearTimeout(timer);
		signal.removeEventListener('abort', onAbort);
	}
}

/** The provider with every stream under the idle timeout. */
export function timedProvider(provider: ChatProvider, timeoutMs: number): ChatProvider {
	return {
		id: provider.id,
		stream: (request, signal, options) =>
			withIdleTimeout(
				(inner, progress) =>
					provider.stream(request, inner, {
						onProgress: () => {
							progress();
							options?.onProgress?.();
						},
					}),
				signal,
				timeoutMs,
			),
		listModels: (signal) => provider.listModels(signal),
	};
}
