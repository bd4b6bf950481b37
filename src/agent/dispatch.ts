// The model dispatch over a model source: the model is resolved as the source says, and every
// request is retried while the provider has not accepted it and runs under the idle timeout —
// bound here once, for the root turn and any other loop. When a request ends, however it ended,
// the source hears of it (a context window that was only a guess is asked again).
import { type RetryOptions, streamWithRetries } from '../providers/retry';
import { timedProvider } from '../providers/timeout';
import type { StreamEvent } from '../providers/provider';
import type { ModelDispatch, ModelSource, ResolvedModel } from './ports';

export interface DispatchPolicy {
	/** How a request the provider did not accept is sent again. */
	readonly retries: Omit<RetryOptions, 'onRetry'>;
	/** How long the provider may stay silent (`aside.requestTimeoutSeconds`), read at each request; absent, no limit. */
	readonly idleTimeoutMs?: () => number;
}

/** The product's retries: four attempts in all, backing off from 1 s up to 30 s. */
export const PROVIDER_RETRIES: DispatchPolicy['retries'] = { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 30_000 };

export function modelDispatch(source: ModelSource, policy: DispatchPolicy): ModelDispatch {
	return {
		resolve: (signal) => source.resolve(signal),
		stream: (model, request, signal, onRetry) => {
			const provider = policy.idleTimeoutMs ? timedProvider(model.provider, policy.idleTimeoutMs()) : model.provider;
			return reportingEnd(streamWithRetries(provider, request, signal, { ...policy.retries, onRetry }), source, model);
		},
	};
}

/** The request's events, then (however it ended) a word to the model source. */
async function* reportingEnd(events: AsyncIterable<StreamEvent>, source: ModelSource, model: ResolvedModel): AsyncGenerator<StreamEvent, void, undefined> {
	try {
		yield* events;
	} finally {
		source.requestFinished?.(model);
	}
}
