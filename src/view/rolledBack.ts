// The rows a chat restore rolled back, marked as such. Read from the records alone, the way replay
// reads them (src/transcript/replay.ts `afterRestores`): a restore of the chat (or of both) to a
// root user message rolls back every item from that message on, among those still in the
// conversation; a restore to a message rolled back already rolls back nothing. The rows stay shown;
// each carries `rolledBack`, the first of them in display order 'first'. Fed every record once, in
// order, after the items are projected, so a reloaded chat is marked as it was.
import type { RolledBackMark } from '../protocol/rowMarks';
import type { TranscriptItem } from '../protocol/messages';
import type { AgentRecord } from '../transcript/records';

/** What one record made (rows.ts `Projected`): its item and the rows shown already it changed. */
interface Projection {
	readonly item: TranscriptItem | undefined;
	readonly updated: readonly TranscriptItem[];
}

export class RolledBackRows {
	/** The ids of the items of the records the conversation still holds, in record order. */
	private readonly kept: string[] = [];
	/** Those items as they are now (an update replaces one). */
	private readonly items = new Map<string, TranscriptItem>();
	/** The rows rolled back, and their mark: an update of one keeps it. */
	private readonly marks = new Map<string, RolledBackMark>();

	/** `projected` with every row this record rolls back added to its updates, marked. */
	take(record: AgentRecord, projected: Projection): Projection {
		const updated = projected.updated.map((item) => this.follow(item));
		if (record.kind === 'restore' && record.scope !== 'files') {
			updated.push(...this.rollBack(record.to));
		}
		const { item } = projected;
		if (item) {
			this.kept.push(item.id);
			this.items.set(item.id, item);
		}
		return { item, updated };
	}

	private follow(item: TranscriptItem): TranscriptItem {
		const mark = this.marks.get(item.id);
		if (mark !== undefined) {
			return { ...item, rolledBack: mark };
		}
		if (this.items.has(item.id)) {
			this.items.set(item.id, item);
		}
		return item;
	}

	private rollBack(to: string): TranscriptItem[] {
		const at = this.kept.lastIndexOf(to);
		const target = this.items.get(to);
		if (at < 0 || target?.kind !== 'user' || target.agent !== undefined) {
			return [];
		}
		const rolled = this.kept.splice(at).flatMap((id) => {
			const item = this.items.get(id);
			this.items.delete(id);
			return item ? [item] : [];
		});
		// The message's turn-start reminders are shown above it (rows.ts RowOrder): then they come first.
		const [, second] = rolled;
		const first = second?.kind === 'reminders' && second.phase === 'turn-start' && second.agent === undefined ? second : target;
		return rolled.map((item) => {
			const mark: RolledBackMark = item === first ? 'first' : 'rest';
			this.marks.set(item.id, mark);
			return { ...item, rolledBack: mark };
		});
	}
}
