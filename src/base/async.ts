// Waiting on work that an AbortSignal may cut short. One way to give up on a promise when the
// signal fires (the work itself goes on; whoever started it stops it through the same signal).

/** What `unlessAborted` settles with when the signal fired first. */
export const ABORTED: unique symbol = Symbol('aborted');

/**
 * Whether the signal fired. A call rather than `signal.aborted`, so the compiler does not keep
 * the property narrowed to false across the awaits between two checks.
 */
export function isAborted(signal: AbortSignal): boolean {
	return signal.aborted;
}

/**
 * Settles with `work`, or with ABORTED as soon as `signal` aborts (at once when it already has;
 * then a rejection of `work` goes unreported). A rejection of `work` before that rejects, with an
 * Error.
 */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
	if (signal.aborted) {
		// Given up on before it was awaited: its failure, if any, is nobody's to report.
		work.catch(() => undefined);
		return Promise.resolve(ABORTED);
	}
	return new Promise((resolve, reject) => {
		const onAbort = (): void => {
			resolve(ABORTED);
		};
		signal.addEventListener('abort', onAbort, { once: true });
		work.then(
			(value) => {
				signal.removeEventListener('abort', onAbort);
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener('abort', onAbort);
				reject(error instanceof Error ? error : new Error(String(error)));
			},
		);
	});
}
