// Waiting for one file's diagnostics to settle after an edit, without a fixed sleep: the source's
// change event for that URI restarts a short quiet window; a grace period ends the wait when no
// change comes at all (a language server that finds nothing new may never publish); a hard cap
// ends endless churn; an AbortSignal ends it at once. Time comes from an injected Clock and
// Timers, so tests drive it with src/testing/fakeTimers.ts.
import type { Clock } from '../base/clock';
import type { DiagnosticsSource } from './diagnostics';

/** An opaque timer id, whatever the host's setTimeout returns. */
export type TimerHandle = unknown;

/** The two timer functions the settle wait needs, injected so tests control time. */
export interface Timers {
	setTimeout(callback: () => void, ms: number): TimerHandle;
	/** Also called with undefined (no timer yet), which it ignores. */
	clearTimeout(handle: TimerHandle): void;
}

export const systemTimers: Timers = {
	setTimeout: (callback, ms) => setTimeout(callback, ms),
	clearTimeout: (handle) => {
		clearTimeout(handle as ReturnType<typeof setTimeout>);
	},
};

export interface SettleOptions {
	/** Settled once no change for the URI arrived for this long after the last one. */
	readonly quietMs: number;
	/** Settled when no change arrives at all within this long. */
	readonly graceMs: number;
	/** Never wait longer than this, however busy the language servers are. */
	readonly capMs: number;
}

export const DEFAULT_SETTLE_OPTIONS: SettleOptions = { quietMs: 300, graceMs: 1500, capMs: 30_000 };

/** Why the wait ended: quiet after a change, grace without one, the cap, or the signal. */
export type SettleReason = 'quiet' | 'grace' | 'cap' | 'aborted';

export interface SettleOutcome {
	readonly reason: SettleReason;
	/** How many change events named the URI while waiting. */
	readonly changes: number;
	readonly waitedMs: number;
}

/**
 * Resolves when `uri`'s diagnostics have settled (never rejects). Only changes that arrive
 * after the call count: subscribe before anything else awaits, right after the edit is applied.
 */
export function waitForSettle(
	source: DiagnosticsSource,
	uri: string,
	options: SettleOptions,
	clock: Clock,
	timers: Timers,
	signal: AbortSignal | undefined,
): Promise<SettleOutcome> {
	const started = clock.now();
	if (signal?.aborted) {
		return Promise.resolve({ reason: 'aborted', changes: 0, waitedMs: 0 });
	}
	return new Promise<SettleOutcome>((resolve) => {
		let changes = 0;
		let done = false;
		let quiet: TimerHandle = undefined;
		const finish = (reason: SettleReason): void => {
			if (done) {
				return;
			}
			done = true;
			subscription.dispose();
			signal?.removeEventListener('abort', onAbort);
			timers.clearTimeout(grace);
			timers.clearTimeout(cap);
			timers.clearTimeout(quiet);
			resolve({ reason, changes, waitedMs: Math.max(0, clock.now() - started) });
		};
		const onAbort = (): void => {
			finish('aborted');
		};
		const subscription = source.onDidChange((uris) => {
			if (done || !uris.includes(uri)) {
				return;
			}
			changes++;
			// The first change ends the grace period; every change restarts the quiet window.
			timers.clearTimeout(grace);
			timers.clearTimeout(quiet);
			quiet = timers.setTimeout(() => {
				finish('quiet');
			}, options.quietMs);
		});
		const grace = timers.setTimeout(() => {
			finish('grace');
		}, options.graceMs);
		const cap = timers.setTimeout(() => {
			finish('cap');
		}, options.capMs);
		signal?.addEventListener('abort', onAbort, { once: true });
	});
}
