// Time and ids come in through these, so tests are deterministic.
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
