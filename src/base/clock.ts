// Time, timers and ids come in through these, so tests are deterministic.
import { randomUUID } from 'node:crypto';

export interface Clock {
	/** Milliseconds since the epoch. */
	now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface IdSource {
	next(): string;
}

export const randomIds: IdSource = { next: () => randomUUID() };

/** An opaque timer id, whatever the host's setTimeout returns. */
export type TimerHandle = unknown;

/** The two timer functions a wait needs (the diagnostics settle wait), injected so tests control time. */
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
