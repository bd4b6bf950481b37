import type { InjectionRecorder } from '../reminders/injector';
import type { InjectionRecord } from '../reminders/record';

/** Keeps records in memory, in write order; `failNext` makes the next write throw, like a full disk. */
export class MemoryRecorder implements InjectionRecorder {
	readonly records: InjectionRecord[] = [];
	/** Every event, in order, shared with commits that log into it. */
	readonly log: string[];
	failNext: Error | undefined;

	constructor(log: string[] = []) {
		this.log = log;
	}

	write(record: InjectionRecord): void {
		const failure = this.failNext;
		if (failure) {
			this.failNext = undefined;
			this.log.push('record failed');
			throw failure;
		}
		this.log.push(`record ${record.requestId}`);
		this.records.push(record);
	}
}
