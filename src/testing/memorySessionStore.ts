import type { SessionStore, StoredRecord } from '../agent/session';

/** A session store in memory; `failNext` makes the next append throw, like a full disk. */
export class MemorySessionStore implements SessionStore {
	readonly records: StoredRecord[] = [];
	failNext: Error | undefined;
	/** Every append throws this (a session another window writes). */
	failAlways: Error | undefined;
	closed = false;

	append(record: StoredRecord): void {
		if (this.failAlways) {
			throw this.failAlways;
		}
		const failure = this.failNext;
		if (failure) {
			this.failNext = undefined;
			throw failure;
		}
		this.records.push(structuredClone(record));
	}

	close(): void {
		this.closed = true;
	}
}
