// The one text shape of task rows the model reads: TaskList's result and the tasks.nudge
// reminder's body both use it, so the model meets the same lines in both places. One row a line,
// `- <id> [<status>] <title> (owner <path>)`, its notes indented below it; full owner paths, so a
// child's row is never taken for the root's.
import { isOpenStatus, type TaskRow } from '../vocabulary/tasks';

/** Lines of a row's notes shown at most; the rest are counted (TaskList shows them whole). */
export const NOTE_LINES_SHOWN = 5;

export interface TaskCounts {
	readonly open: number;
	readonly closed: number;
}

export function countTasks(rows: readonly TaskRow[]): TaskCounts {
	let open = 0;
	for (const row of rows) {
		if (isOpenStatus(row.status)) {
			open++;
		}
	}
	return { open, closed: rows.length - open };
}

/** `3 open, 1 closed`. */
export function countsText(counts: TaskCounts): string {
	return `${counts.open.toLocaleString('en-US')} open, ${counts.closed.toLocaleString('en-US')} closed`;
}

/**
 * One row as the model reads it. `quote` is applied to every text the model or a person wrote
 * (the nudge passes sanitizeUntrusted, since its body goes inside a reminder block).
 */
export function taskRowText(row: TaskRow, quote: (text: string) => string = (text) => text, noteLines = Number.POSITIVE_INFINITY): string {
	const head = `- ${quote(row.id)} [${row.status}] ${quote(row.title)} (owner ${quote(row.owner)})`;
	if (row.notes === undefined || row.notes === '') {
		return head;
	}
	const lines = row.notes.split(/\r?\n/);
	const shown = lines.slice(0, noteLines).map((line) => `    ${quote(line)}`);
	const more = lines.length - shown.length;
	return [head, '  notes:', ...shown, ...(more > 0 ? [`    (${more.toLocaleString('en-US')} more lines: TaskList shows them)`] : [])].join('\n');
}

/** The rows, one after another. */
export function taskRowsText(rows: readonly TaskRow[], quote?: (text: string) => string, noteLines?: number): string {
	return rows.map((row) => taskRowText(row, quote, noteLines)).join('\n');
}

/** TaskList's result: the counts of the whole list, then the rows asked for (in the order they were first written). */
export function taskListText(all: readonly TaskRow[], shown: readonly TaskRow[] = all): string {
	const header = `Tasks: ${countsText(countTasks(all))}.`;
	if (all.length === 0) {
		return `${header} There are no task rows in this chat yet; create them with TaskWrite.`;
	}
	if (shown.length === 0) {
		return `${header} No row matches.`;
	}
	return `${header}\n${taskRowsText(shown)}`;
}
