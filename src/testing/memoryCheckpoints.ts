// The checkpoint contract in memory (src/checkpoints/types.ts), for specs that consume it: the
// agent's wiring, a restore, a fork. The real store is src/checkpoints/store.ts.
import { createHash } from 'node:crypto';
import type { ChatCheckpoints, CheckpointEntry, CheckpointRecorder, CheckpointStore, ContentHash } from '../checkpoints/types';

export class MemoryCheckpointStore implements CheckpointStore {
	readonly texts = new Map<ContentHash, string>();
	readonly chats = new Map<string, CheckpointEntry[]>();
	/** Each recorder asked for: which chat and root turn. */
	readonly recorders: { readonly sessionId: string; readonly turnId: string }[] = [];

	constructor(private readonly now: () => number = () => 0) {}

	recorder(sessionId: string, turnId: string): CheckpointRecorder {
		this.recorders.push({ sessionId, turnId });
		return {
			keep: (changes) => {
				const entries = this.entriesOf(sessionId);
				for (const change of changes) {
					entries.push({
						turnId,
						at: this.now(),
						path: change.path,
						shown: change.shown,
						before: this.put(change.before),
						after: this.put(change.after),
					});
				}
				return Promise.resolve();
			},
		};
	}

	/** Keeps one entry as a recorder would have (for specs that build a chat's history directly). */
	keep(sessionId: string, turnId: string, path: string, shown: string, before: string | null, after: string | null): void {
		this.entriesOf(sessionId).push({ turnId, at: this.now(), path, shown, before: this.put(before), after: this.put(after) });
	}

	/** Forgets a text's blob, as the storage bound or damage would (a restore then cannot bring it back). */
	drop(text: string): void {
		this.texts.delete(createHash('sha256').update(text, 'utf8').digest('hex'));
	}

	chat(sessionId: string): ChatCheckpoints {
		const entries = [...(this.chats.get(sessionId) ?? [])];
		return { entries: () => entries, text: (hash) => Promise.resolve(this.texts.get(hash)) };
	}

	copyChat(fromSessionId: string, toSessionId: string, turnIds: ReadonlySet<string>): Promise<void> {
		this.entriesOf(toSessionId).push(...(this.chats.get(fromSessionId) ?? []).filter((entry) => turnIds.has(entry.turnId)));
		return Promise.resolve();
	}

	async importChat(toSessionId: string, entries: readonly CheckpointEntry[], text: ChatCheckpoints['text']): Promise<void> {
		for (const hash of new Set(entries.flatMap((entry) => [entry.before, entry.after]))) {
			const kept = typeof hash === 'string' ? await text(hash) : undefined;
			if (typeof hash === 'string' && kept !== undefined) {
				this.texts.set(hash, kept);
			}
		}
		this.entriesOf(toSessionId).push(...entries);
	}

	deleteChat(sessionId: string): Promise<void> {
		this.chats.delete(sessionId);
		return Promise.resolve();
	}

	/** Everything is kept at once here. */
	settled(): Promise<void> {
		return Promise.resolve();
	}

	private entriesOf(sessionId: string): CheckpointEntry[] {
		let entries = this.chats.get(sessionId);
		if (!entries) {
			entries = [];
			this.chats.set(sessionId, entries);
		}
		return entries;
	}

	private put(text: string | null): ContentHash | null {
		if (text === null) {
			return null;
		}
		const hash = createHash('sha256').update(text, 'utf8').digest('hex');
		this.texts.set(hash, text);
		return hash;
	}
}
