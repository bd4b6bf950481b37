// Sessions on disk: one JSONL transcript per session in a folder (the workspace's storage), and
// the session index beside them for the chat list. A new session writes its file on its first
// record, so opening VS Code never leaves empty sessions behind. A session another window holds
// (its lock, see src/transcript/lock.ts) opens read-only here: shown, never written or repaired.
import { rmSync, statSync } from 'node:fs';
import type { Logger } from '../base/log';
import { load } from '../transcript/load';
import { describeOwner, type LockOwner, TranscriptLock, TranscriptLockedError } from '../transcript/lock';
import { checkSessionId, contentDir, transcriptPath } from '../transcript/paths';
import { TRANSCRIPT_VERSION } from '../transcript/sessionRecords';
import type { TranscriptEntry } from '../transcript/records';
import { SessionIndex } from '../transcript/sessionIndex';
import { TranscriptStore } from '../transcript/store';
import type { SessionSummary } from '../transcript/summary';
import { plansDir } from './planFiles';
import type { OpenedSession, SessionLibrary, SessionStore } from './sessionStorage';

/**
 * Opens its transcript on the first record (creating or repairing it) and keeps the index in
 * step. A record that comes after close() (the end of a turn stopped because the person switched
 * chats) is still written: the file is opened for it, under the lock, and closed again.
 */
class WritingStore implements SessionStore {
	private store: TranscriptStore | undefined;
	private closed = false;

	constructor(
		private readonly dir: string,
		private readonly sessionId: string,
		private readonly index: SessionIndex,
		private readonly log: Logger,
		/** Held from the start for a reopened session; a new one takes it when its file is created. */
		private lock: TranscriptLock | undefined,
		/** For a new session: its creation time, read when its file is created. */
		private createdAt: (() => number) | undefined,
	) {}

	append(record: TranscriptEntry): void {
		const store = this.store ?? this.openStore();
		const before = store.bytes;
		try {
			store.append(record);
		} finally {
			if (this.closed) {
				store.close();
			} else {
				this.store = store;
			}
		}
		this.index.noteAppend(this.sessionId, record, before, store.bytes);
		if (record.kind === 'turn-end' || this.closed) {
			this.index.flush();
		}
	}

	close(): void {
		this.closed = true;
		if (this.store) {
			this.store.close();
			this.store = undefined;
			this.index.flush();
		}
		this.lock?.release();
		this.lock = undefined;
	}

	private openStore(): TranscriptStore {
		const options = { log: this.log, ...(this.lock ? { lock: this.lock } : {}) };
		// The store owns the lock from here on (and releases it even when it cannot be made).
		this.lock = undefined;
		if (this.createdAt) {
			const createdAt = this.createdAt();
			const store = TranscriptStore.create(this.dir, { kind: 'session', v: TRANSCRIPT_VERSION, id: this.sessionId, createdAt }, options);
			this.createdAt = undefined;
			this.index.noteCreated(this.sessionId, createdAt, store.bytes);
			return store;
		}
		return TranscriptStore.open(this.dir, this.sessionId, options);
	}
}

/** A session another window is writing: it can be shown here, never written. */
class ReadOnlyStore implements SessionStore {
	constructor(
		private readonly sessionId: string,
		private readonly owner: LockOwner | undefined,
	) {}

	append(): void {
		throw new TranscriptLockedError(this.sessionId, this.owner);
	}

	close(): void {
		// Nothing was opened or locked.
	}
}

export class FileSessionLibrary implements SessionLibrary {
	private readonly index: SessionIndex;

	constructor(
		readonly dir: string,
		private readonly now: () => number,
		private readonly log: Logger,
	) {
		this.index = new SessionIndex(dir, { log });
	}

	create(id: string): SessionStore {
		return new WritingStore(this.dir, id, this.index, this.log, undefined, this.now);
	}

	/** The session's records, and a store that appends to it, or a read-only one when another window holds it. */
	open(id: string): OpenedSession {
		const acquired = TranscriptLock.tryAcquire(this.dir, id, { log: this.log });
		if (acquired.lock === undefined) {
			// load() reports each damaged line to the log itself.
			const loaded = load(this.dir, id, { log: this.log });
			return { store: new ReadOnlyStore(id, acquired.owner), records: loaded.records, heldElsewhere: describeOwner(acquired.owner) };
		}
		return this.openLocked(id, acquired.lock);
	}

	/** Like open(), or undefined (reading nothing) while another window still holds the session. */
	openForWriting(id: string): OpenedSession | undefined {
		const acquired = TranscriptLock.tryAcquire(this.dir, id, { log: this.log });
		return acquired.lock === undefined ? undefined : this.openLocked(id, acquired.lock);
	}

	/** Whether the session has a transcript: one stat, no read (activation asks this). */
	exists(id: string): boolean {
		try {
			return statSync(transcriptPath(this.dir, id)).isFile();
		} catch {
			return false;
		}
	}

	/**
	 * Deletes a stored session: its transcript, its content and plan folders, its index entry.
	 * Taken under its lock, so a chat another window holds is refused (the reason is returned)
	 * and nothing of it is removed. The caller closes it here first when it is open in this window.
	 */
	remove(id: string): string | undefined {
		checkSessionId(id);
		const acquired = TranscriptLock.tryAcquire(this.dir, id, { log: this.log });
		if (acquired.lock === undefined) {
			return `It is open in another window (${describeOwner(acquired.owner)}); close it there first.`;
		}
		try {
			rmSync(transcriptPath(this.dir, id), { force: true });
			rmSync(contentDir(this.dir, id), { recursive: true, force: true });
			rmSync(plansDir(this.dir, id), { recursive: true, force: true });
		} finally {
			acquired.lock.release();
		}
		this.index.noteRemoved(id);
		return undefined;
	}

	/** The saved sessions, most recent first, from the index (see src/transcript/sessionIndex.ts). */
	list(): SessionSummary[] {
		return this.index.list();
	}

	private openLocked(id: string, lock: TranscriptLock): OpenedSession {
		try {
			const loaded = load(this.dir, id, { log: this.log });
			return { store: new WritingStore(this.dir, id, this.index, this.log, lock, undefined), records: loaded.records };
		} catch (error) {
			lock.release();
			throw error;
		}
	}
}
