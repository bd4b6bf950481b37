// The request timeout (`aside.requestTimeoutSeconds`): how long a provider may stay silent —
// before it accepts the request, and between two streamed events — before the request fails
// with a 'timeout' error (which the retry wrapper may retry while nothing was streamed).
import { type ChatProvider, ProviderError, type StreamEvent } from './provider';

export async function* withIdleTimeout(start: (signal: AbortSignal) => AsyncIterable<StreamEvent>, signal: AbortSignal, timeoutMs: number): AsyncGenerator<StreamEvent, void, undefined> {
	const controller = new AbortController();
	// An object, so the check after the loop is not narrowed away by the assignment in the timer.
	const state = { timedOut: false };
	const onAbort = (): void => {
		controller.abort(signal.reason);
	};
	signal.addEventListener('abort', onAbort, { once: true });
	let timer: ReturnType<typeof setTimeout> | undefined;
	const arm = (): void => {
		clearTimeout(timer);
		timer = setTimeout(() => {
			state.timedOut = true;
			controller.abort();
		}, timeoutMs);
	};
	arm();
	try {
		for await (const event of start(controller.signal)) {
			arm();
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
		stream: (request, signal) => withIdleTimeout((inner) => provider.stream(request, inner), signal, timeoutMs),
		listModels: (signal) => provider.listModels(signal),
	};
}
