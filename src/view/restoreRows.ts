// The restored rows (`⟲ Restored … to before "…"`): each restore record's row, and, when a later
// restore undoes one, that row again marked undone (its Undo… is then off). Read from the records
// alone, so a reopened chat shows them as they were.
import type { RestoreItem } from '../protocol/messages';
import type { RestoreRecord } from '../transcript/restoreRecord';

export class RestoreRows {
	private readonly rows = new Map<string, RestoreItem>();

	/** The row of `record` (restoring to the message that starts `message`), and the earlier row it undid, if any. */
	take(record: RestoreRecord, message: string): { readonly item: RestoreItem; readonly updated: readonly RestoreItem[] } {
		const item: RestoreItem = {
			kind: 'restore',
			id: record.id,
			at: record.at,
			scope: record.scope,
			to: record.to,
			message,
			turns: record.turns.length,
			files: record.files.map(({ shown, action, done }) => ({ shown, action, done })),
			...(record.turnId === undefined ? {} : { undoable: true }),
			...(record.undoes === undefined ? {} : { undoes: record.undoes }),
			...(record.mode === undefined ? {} : { mode: record.mode }),
		};
		this.rows.set(item.id, item);
		const undone = record.undoes === undefined ? undefined : this.rows.get(record.undoes);
		if (undone === undefined) {
			return { item, updated: [] };
		}
		const marked: RestoreItem = { ...undone, undone: true };
		this.rows.set(marked.id, marked);
		return { item, updated: [marked] };
	}
}
