// The patch engine is pure and synchronous in its logic, but a patch at the caps is a lot of work
// for the extension host's one thread: the engine is written as generators that pause after every
// quantum of work, so the tool can give the thread back (and see Stop) between pauses, while the
// specs and other pure callers run it to the end in one go.
import { ToolError } from '../errors';

/** A computation that pauses now and then (each `yield`) and finally returns a T. */
export type Steps<T> = Generator<void, T, void>;

/** Line comparisons (or lines looked at) between two pauses: a few milliseconds of work. */
export const WORK_QUANTUM = 25_000;

/** Counts the engine's work and pauses every quantum. */
export class Work {
	/** All the work counted so far. */
	total = 0;
	private sincePause = 0;

	constructor(private readonly quantum = WORK_QUANTUM) {}

	*spend(units: number): Steps<void> {
		this.total += units;
		this.sincePause += units;
		if (this.sincePause >= this.quantum) {
			this.sincePause = 0;
			yield;
		}
	}
}

/** Runs `steps` to the end without pausing. */
export function runToEnd<T>(steps: Steps<T>): T {
	for (;;) {
		const next = steps.next();
		if (next.done) {
			return next.value;
		}
	}
}

/** Why a stopped patch changed nothing. */
export const PATCH_STOPPED = 'Stopped before the patch was applied: nothing was changed.';

/**
 * Runs `steps`, giving the thread back at each pause (a macrotask, so other work and Stop get their
 * turn); throws a ToolError once `signal` is aborted, and the rest of the work is never done.
 */
export async function runYielding<T>(steps: Steps<T>, signal: AbortSignal): Promise<T> {
	for (;;) {
		if (signal.aborted) {
			throw new ToolError(PATCH_STOPPED);
		}
		const next = steps.next();
		if (next.done) {
			return next.value;
		}
		await new Promise<void>((resolve) => {
			setImmediate(resolve);
		});
	}
}
