// Waiting for one file's diagnostics to settle after an edit, without a fixed sleep: the source's
// change event for that URI restarts a quiet window; a grace period ends the wait when no change
// comes at all (a language server that finds nothing new may never publish); a hard cap ends
// endless churn; an AbortSignal ends it at once. Time comes from an injected Clock and Timers, so
// tests drive it with src/testing/fakeTimers.ts.
//
// A DiagnosticsWatch started before the edit is written lets the wait count the reports that
// came while the write and its save were still running (in code-server a save takes a median
// 0.75 s, up to 3.4 s, and the TypeScript server often answers before it resolves).
import type { Clock, TimerHandle, Timers } from '../base/clock';
import type { IDisposable } from '../base/lifecycle';
import type { DiagnosticsSource } from './diagnostics';

export interface SettleOptions {
	/** Settled once no change for the URI arrived for this long after the last one. */
	readonly quietMs: number;
	/** Settled when no change arrives at all within this long (from the edit's start, with a watch). */
	readonly graceMs: number;
	/** Never wait longer than this, however busy the language servers are. */
	readonly capMs: number;
	/**
	 * The quiet window once the file's diagnostics are the server's answer for the edited text
	 * (see diagnosticsAnswer.ts): only its suggestions may still come, at once. Never scaled.
	 */
	readonly answeredQuietMs: number;
}

/** For a file of a few dozen lines; `scaleForLines` widens the quiet window and the grace for longer ones. */
export const DEFAULT_SETTLE_OPTIONS: SettleOptions = { quietMs: 300, graceMs: 1500, capMs: 30_000, answeredQuietMs: 100 };

/**
 * Added to the quiet window and to the grace per line of the edited file. A language server
 * takes longer to check a longer file: the TypeScript extension itself waits lineCount/20 ms
 * (300–800 ms) before asking, and on a 1,996-line file its first report came up to 3.9 s after the
 * edit began, and its semantic report up to 2.8 s after its syntax report (docs/reminders.md).
 */
export const PER_LINE_MS = 1.5;
/** Lines beyond this add nothing (6 s at most): nothing longer was measured, and a wait must end. */
export const SCALED_LINES_MAX = 4000;

/** The windows for an edited file of `lines` lines (unknown: as for a short file). */
export function scaleForLines(options: SettleOptions, lines: number | undefined): SettleOptions {
	const extra = Math.round(Math.min(Math.max(lines ?? 0, 0), SCALED_LINES_MAX) * PER_LINE_MS);
	return { ...options, quietMs: options.quietMs + extra, graceMs: options.graceMs + extra };
}

/**
 * Counts one URI's diagnostics changes from the moment an edit begins (before the write), so
 * that the wait after the write knows whether, and when, the language server already reported.
 * Dispose it when the wait is done (or the edit failed).
 */
export class DiagnosticsWatch implements IDisposable {
	readonly startedAt: number;
	private _changes = 0;
	private _lastChangeAt: number | undefined;
	private readonly subscription: IDisposable;

	constructor(
		source: DiagnosticsSource,
		readonly uri: string,
		clock: Clock,
	) {
		this.startedAt = clock.now();
		this.subscription = source.onDidChange((uris) => {
			if (uris.includes(uri)) {
				this._changes++;
				this._lastChangeAt = clock.now();
			}
		});
	}

	/** Change events that named the URI since the watch began. */
	get changes(): number {
		return this._changes;
	}

	/** When the last of them came; undefined when none did. */
	get lastChangeAt(): number | undefined {
		return this._lastChangeAt;
	}

	dispose(): void {
		this.subscription.dispose();
	}
}

/** Why the wait ended: quiet after a change, grace without one, the cap, or the signal. */
export type SettleReason = 'quiet' | 'grace' | 'cap' | 'aborted';

export interface SettleOutcome {
	readonly reason: SettleReason;
	/** How many change events named the URI while waiting, and before it since `since` began. */
	readonly changes: number;
	/** How long this wait took (the time before it, since `since` began, not counted). */
	readonly waitedMs: number;
}

/**
 * Resolves when `uri`'s diagnostics have settled (never rejects). Without `since`, only changes
 * that arrive after the call count: subscribe before anything else awaits, right after the edit
 * is applied. With `since` (a watch started before the edit was written), the changes it saw count
 * too: when there were any, the wait is what is left of the quiet window after the last of them;
 * when there were none, what is left of the grace counted from the watch's start, and at least
 * one quiet window (a report may be on its way from an extension host that was busy saving).
 * The cap is counted from the call. `answered`, asked at the start and at every change, says
 * whether the diagnostics now are the server's answer for the edited text: then the quiet window
 * is `answeredQuietMs`, not one scaled for a server that may still be checking.
 */
export function waitForSettle(
	source: DiagnosticsSource,
	uri: string,
	options: SettleOptions,
	clock: Clock,
	timers: Timers,
	signal: AbortSignal | undefined,
	since?: DiagnosticsWatch,
	answered?: () => boolean,
): Promise<SettleOutcome> {
	const started = clock.now();
	const earlier = since?.uri === uri ? since : undefined;
	if (signal?.aborted) {
		return Promise.resolve({ reason: 'aborted', changes: earlier?.changes ?? 0, waitedMs: 0 });
	}
	return new Promise<SettleOutcome>((resolve) => {
		let changes = earlier?.changes ?? 0;
		let done = false;
		let quiet: TimerHandle = undefined;
		let grace: TimerHandle = undefined;
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
		const quietNow = (): number => (answered?.() === true ? Math.min(options.answeredQuietMs, options.quietMs) : options.quietMs);
		const startQuiet = (ms: number): void => {
			timers.clearTimeout(quiet);
			quiet = timers.setTimeout(() => {
				finish('quiet');
			}, Math.max(0, ms));
		};
		const subscription = source.onDidChange((uris) => {
			if (done || !uris.includes(uri)) {
				return;
			}
			changes++;
			// The first change ends the grace period; every change restarts the quiet window.
			timers.clearTimeout(grace);
			startQuiet(quietNow());
		});
		const cap = timers.setTimeout(() => {
			finish('cap');
		}, options.capMs);
		const lastChangeAt = earlier?.lastChangeAt;
		if (lastChangeAt !== undefined) {
			startQuiet(quietNow() - (started - lastChangeAt));
		} else {
			const graceLeft = earlier ? Math.max(options.graceMs - (started - earlier.startedAt), options.quietMs) : options.graceMs;
			grace = timers.setTimeout(() => {
				finish('grace');
			}, graceLeft);
		}
		signal?.addEventListener('abort', onAbort, { once: true });
	});
}
