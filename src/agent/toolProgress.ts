// What a running tool call says of its progress (an MCP server's `notifications/progress`), made
// fit for the chat's live row: the fraction clamped and never going back, the server's message as
// one bounded line of plain text, and at most one update per interval, so a chatty server cannot
// flood the view. It is live state only: nothing of it reaches the model or the transcript.
import { systemTimers, type TimerHandle, type Timers } from '../base/clock';
import type { ToolProgress } from '../tools/tool';

/** A running call's progress as the view shows it. */
export interface CallProgress {
	readonly callId: string;
	/** The tool's name, as the call's row shows it. */
	readonly tool: string;
	/** Done so far, 0 to 1; absent while the server gives no total (an indeterminate bar). */
	readonly fraction?: number;
	/** The server's words, plain text on one line. */
	readonly message?: string;
}

/** At most one update per call this often (ten a second). */
export const PROGRESS_INTERVAL_MS = 100;
export const MAX_PROGRESS_MESSAGE = 200;

/** Control, format and bidi characters (a message cannot reorder or hide the row's text), then runs of whitespace. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g;

/** The server's message as one line of plain text, at most MAX_PROGRESS_MESSAGE characters; undefined when nothing is left. */
export function progressMessage(message: string | undefined): string | undefined {
	const line = message?.replace(UNPRINTABLE, ' ').replace(/\s+/g, ' ').trim();
	if (!line) {
		return undefined;
	}
	return line.length > MAX_PROGRESS_MESSAGE ? `${line.slice(0, MAX_PROGRESS_MESSAGE - 1)}…` : line;
}

/**
 * The call's progress after `update`: the fraction progress/total clamped to 0–1, and never below
 * the one shown before (the spec says progress only increases; a server that goes back is not
 * believed). Without a total, or with an unusable one, the bar is indeterminate.
 */
export function nextProgress(previous: CallProgress, update: ToolProgress): CallProgress {
	const { progress, total } = update;
	const known = Number.isFinite(progress) && total !== undefined && Number.isFinite(total) && total > 0;
	const fraction = known ? Math.max(previous.fraction ?? 0, Math.min(1, Math.max(0, progress / total))) : undefined;
	const message = progressMessage(update.message);
	return { callId: previous.callId, tool: previous.tool, ...(fraction === undefined ? {} : { fraction }), ...(message === undefined ? {} : { message }) };
}

/**
 * One call's reporter: `report` takes the tool's updates, `show` gets the first at once and then
 * the latest at most once per interval; `end` (the call finished) cancels what waits and says
 * the bar is gone (`null`) when one was shown. Updates after `end` are dropped.
 */
export class CallProgressReporter {
	private current: CallProgress;
	/** Set while an interval runs (its end sends what waited). */
	private timer: TimerHandle;
	private timing = false;
	private waiting = false;
	private shown = false;
	private ended = false;

	constructor(
		callId: string,
		tool: string,
		private readonly show: (progress: CallProgress | null) => void,
		private readonly timers: Timers = systemTimers,
		private readonly intervalMs = PROGRESS_INTERVAL_MS,
	) {
		this.current = { callId, tool };
	}

	readonly report = (update: ToolProgress): void => {
		if (this.ended) {
			return;
		}
		this.current = nextProgress(this.current, update);
		if (!this.timing) {
			this.emit();
		} else {
			this.waiting = true;
		}
	};

	end(): void {
		if (this.ended) {
			return;
		}
		this.ended = true;
		this.timers.clearTimeout(this.timer);
		this.timing = false;
		if (this.shown) {
			this.show(null);
		}
	}

	private emit(): void {
		this.shown = true;
		this.waiting = false;
		this.show(this.current);
		this.timing = true;
		this.timer = this.timers.setTimeout(() => {
			this.timing = false;
			if (this.waiting && !this.ended) {
				this.emit();
			}
		}, this.intervalMs);
	}
}
