// A task row, defined once: the TaskWrite/TaskList tools, the transcript's tasks record, the
// tasks.nudge reminder and the protocol's task panel take it from here. No imports, so the
// webview's bundle may share it through src/protocol/.

/** pending and in_progress are open work; completed and cancelled are closed. */
export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The owner path of the root turn; a child invocation's is `root/<profile>#<n>` (nested: `root/general#1/explore#3`). */
export const ROOT_OWNER_PATH = 'root';

export interface TaskRow {
	/** Unique within the chat. */
	readonly id: string;
	readonly title: string;
	readonly status: TaskStatus;
	/** Who wrote the row first: `root`, or a child invocation's owner path. */
	readonly owner: string;
	readonly notes?: string;
}

export function isOpenStatus(status: TaskStatus): boolean {
	return status === 'pending' || status === 'in_progress';
}

/** The rows after these writes, in the order ids first appeared: a write replaces the row of its id. */
export function foldTaskRows(writes: Iterable<readonly TaskRow[]>): TaskRow[] {
	const rows = new Map<string, TaskRow>();
	for (const written of writes) {
		for (const row of written) {
			rows.set(row.id, row);
		}
	}
	return [...rows.values()];
}
