// The chat's task list as the panel above the composer shows it: the tasks records no chat restore
// rolled back, folded (foldTaskRows: each row as it was written last), the open count and the current task.
import { foldTaskRows, isOpenStatus, type TaskRow } from '../../vocabulary/tasks';
import type { TasksView, TaskView } from '../../protocol/tasks';
import { KeptRecords } from '../../transcript/keptRecords';
import type { AgentRecord } from '../../transcript/records';

function taskView(row: TaskRow): TaskView {
	return { id: row.id, title: row.title, status: row.status, owner: row.owner, ...(row.notes === undefined ? {} : { notes: row.notes }) };
}

/** The panel's view of these rows: the current task is the first in progress, else the first pending. */
export function tasksView(rows: readonly TaskRow[]): TasksView {
	const current = rows.find((row) => row.status === 'in_progress') ?? rows.find((row) => row.status === 'pending');
	return { rows: rows.map(taskView), open: rows.filter((row) => isOpenStatus(row.status)).length, ...(current ? { current: current.id } : {}) };
}

export class TaskProjection {
	private rows: TaskRow[] = [];
	private cached: TasksView | undefined;
	/** The root's messages, tasks records and restores: a chat restore rolls back the writes after its message. */
	private readonly kept = new KeptRecords<AgentRecord>();

	/** Takes one record; true when the task list changed. */
	take(record: AgentRecord): boolean {
		if (record.kind === 'restore') {
			// Rare, and then the kept writes are folded again.
			if (!this.kept.take(record)) {
				return false;
			}
			this.rows = foldTaskRows(this.kept.records.flatMap((kept) => (kept.kind === 'tasks' ? [kept.rows] : [])));
			this.cached = undefined;
			return true;
		}
		if (record.kind === 'user' && record.agent === undefined) {
			this.kept.take(record);
		}
		if (record.kind !== 'tasks' || record.rows.length === 0) {
			return false;
		}
		this.kept.take(record);
		// A write costs its own rows plus the list so far (a few hundred at most), never the chat's length.
		this.rows = foldTaskRows([this.rows, record.rows]);
		this.cached = undefined;
		return true;
	}

	view(): TasksView {
		this.cached ??= tasksView(this.rows);
		return this.cached;
	}
}
