import type { SessionStore } from '../agent/sessionStorage';
import type { TranscriptEntry } from '../transcript/records';

/** A session store in memory; `failNext` makes the next append throw, like a full disk. */
export class MemorySessionStore implements SessionStore {
	readonly records: TranscriptEntry[] = [];
	failNext: Error | undefined;
	/** Every append throws this (a session another window writes). */
	failAlways: Error | undefined;
	closed = false;

	append(record: TranscriptEntry): void {
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
