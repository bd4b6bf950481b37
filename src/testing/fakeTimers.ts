import type { TimerHandle, Timers } from '../base/clock';
import { FakeClock } from './fakeClock';

interface Scheduled {
	readonly id: number;
	readonly due: number;
	readonly callback: () => void;
}

/**
 * Timers on a FakeClock: nothing runs until `advance`, which moves the clock to each due timer in
 * turn (ties in the order they were set) and runs it, including timers set by those callbacks.
 */
export class FakeTimers implements Timers {
	private readonly scheduled = new Map<number, Scheduled>();
	private nextId = 1;

	constructor(readonly clock = new FakeClock()) {}

	setTimeout(callback: () => void, ms: number): TimerHandle {
		const id = this.nextId++;
		this.scheduled.set(id, { id, due: this.clock.now() + Math.max(0, ms), callback });
		return id;
	}

	clearTimeout(handle: TimerHandle): void {
		if (typeof handle === 'number') {
			this.scheduled.delete(handle);
		}
	}

	/** How many timers are still set. */
	get pending(): number {
		return this.scheduled.size;
	}

	/** Moves time forward by `ms`, running every timer that falls due on the way. */
	advance(ms: number): void {
		const end = this.clock.now() + ms;
		for (let next = this.nextDue(end); next; next = this.nextDue(end)) {
			this.scheduled.delete(next.id);
			this.clock.time = Math.max(this.clock.time, next.due);
			next.callback();
		}
		this.clock.time = Math.max(this.clock.time, end);
	}

	private nextDue(end: number): Scheduled | undefined {
		let first: Scheduled | undefined;
		for (const timer of this.scheduled.values()) {
			if (timer.due <= end && (!first || timer.due < first.due || (timer.due === first.due && timer.id < first.id))) {
				first = timer;
			}
		}
		return first;
	}
}

/** Whether the promise has resolved, once every pending microtask has run. */
export async function isDone(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(() => {
		done = true;
	});
	await new Promise<void>((resolve) => {
		setImmediate(resolve);
	});
	return done;
}
