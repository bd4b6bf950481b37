// Where chats are kept: the store a session's records go through, and the library that makes,
// opens, lists and deletes stored sessions (FileSessionLibrary on disk, MemoryLibrary in tests).
import type { TranscriptEntry } from '../transcript/records';

/** Where a session's records go: the JSONL transcript on disk, or memory in tests. */
export interface SessionStore {
	/** Writes one record durably before returning; throws when it cannot. */
	append(record: TranscriptEntry): void;
	close(): void;
}

/** A stored session, reopened. */
export interface OpenedSession {
	readonly store: SessionStore;
	readonly records: readonly TranscriptEntry[];
	/**
	 * Set when another window is writing the session (its holder, in words, for the log): then
	 * `store` refuses every record, and the session is shown read-only.
	 */
	readonly heldElsewhere?: string;
}

/** How sessions are made, stored and found again. */
export interface SessionLibrary {
	create(id: string): SessionStore;
	/** The records of a stored session and a store that appends to it (read-only when another window holds it). */
	open(id: string): OpenedSession;
	/** Like open(), or undefined, reading nothing, while another window still holds the session. */
	openForWriting(id: string): OpenedSession | undefined;
	/** The stored sessions, most recently active first. */
	list(): readonly {
		readonly id: string;
		readonly title?: string | undefined;
		readonly updatedAt: number;
		readonly forkOf?: { readonly id: string; readonly title: string } | undefined;
	}[];
	/** Deletes a stored session (not open in this window); returns why it could not (another window holds it), or undefined. */
	remove(id: string): string | undefined;
}
