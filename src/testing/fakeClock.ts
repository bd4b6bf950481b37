import type { Clock, IdSource } from '../base/clock';

export class FakeClock implements Clock {
	constructor(public time = Date.UTC(2026, 10, 30, 9, 0, 0)) {}

	now(): number {
		return this.time;
	}

	advance(ms: number): void {
		this.time += ms;
	}
}

/** Ids `prefix-1`, `prefix-2`, … */
export class SequentialIds implements IdSource {
	private n = 0;

	constructor(private readonly prefix = 'id') {}

	next(): string {
		return `${this.prefix}-${++this.n}`;
	}
}
