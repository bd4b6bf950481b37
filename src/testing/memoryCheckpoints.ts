// The checkpoint contract (src/checkpoints/types.ts) in memory, for specs of what reads it — a
// restore, a fork — without the store on disk. Blobs are named as the real store names them (the
// SHA-256 of the text's UTF-8 bytes), and one can be dropped to stand for a blob the bound removed.
import { hashOf } from '../checkpoints/restorePlan';
import type { CheckpointEntry, CheckpointRecorder, CheckpointStore, ChatCheckpoints, ContentHash } from '../checkpoints/types';
import type { FileChange } from '../tools/changes';

/** A text's blob name, as the store names it. */
export const contentHash: (text: string) => ContentHash = hashOf;

export class MemoryCheckpoints implements CheckpointStore {
	private readonly blobs = new Map<ContentHash, string>();
	private readonly chats = new Map<string, CheckpointEntry[]>();
	private now = 1;

	constructor(private readonly clock: () => number = () => this.now++) {}

	recorder(sessionId: string, turnId: string): CheckpointRecorder {
		return {
			keep: (changes: readonly FileChange[]) => {
				for (const change of changes) {
					this.add(sessionId, { turnId, at: this.clock(), path: change.path, shown: change.shown, before: this.put(change.before), after: this.put(change.after) });
				}
				return Promise.resolve();
			},
		};
	}

	/** Keeps one entry as a recorder would have (for specs that build a chat's history directly). */
	keep(sessionId: string, turnId: string, path: string, shown: string, before: string | null, after: string | null): void {
		this.add(sessionId, { turnId, at: this.clock(), path, shown, before: this.put(before), after: this.put(after) });
	}

	/** Forgets a blob, as the storage bound or damage would. */
	drop(text: string): void {
		this.blobs.delete(contentHash(text));
	}

	chat(sessionId: string): ChatCheckpoints {
		const entries = (): readonly CheckpointEntry[] => this.chats.get(sessionId) ?? [];
		return {
			entries,
			text: (hash) => Promise.resolve(this.blobs.get(hash)),
		};
	}

	copyChat(fromSessionId: string, toSessionId: string, turnIds: ReadonlySet<string>): Promise<void> {
		this.chats.set(toSessionId, (this.chats.get(fromSessionId) ?? []).filter((entry) => turnIds.has(entry.turnId)));
		return Promise.resolve();
	}

	deleteChat(sessionId: string): Promise<void> {
		this.chats.delete(sessionId);
		return Promise.resolve();
	}

	private add(sessionId: string, entry: CheckpointEntry): void {
		const list = this.chats.get(sessionId) ?? [];
		list.push(entry);
		this.chats.set(sessionId, list);
	}

	private put(text: string | null): ContentHash | null {
		if (text === null) {
			return null;
		}
		const hash = contentHash(text);
		this.blobs.set(hash, text);
		return hash;
	}
}
