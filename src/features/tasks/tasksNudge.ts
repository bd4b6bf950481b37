// `tasks.nudge`: open task rows that no task write touched for the stale interval (8 session
// turns, `aside.reminders.tasksNudge.interval`, read at every WAIT so a change applies at once).
// The root gets the open rows in TaskList's shape with full owner paths — its own apart from
// those of child agents that are no longer running — and is asked to reconcile a child's RESULT
// (its Agent tool result) or follow up before it changes their status. The interval policy keeps
// it to once per stale interval: a delivery at turn T is not due again before T + interval, so
// the mid-turn WAITs of one user turn (all at the same session turn) get it once. A task write
// resets the staleness (the trigger counts from the last write's turn).
import { ROOT_OWNER_PATH, type TaskRow } from '../../vocabulary/tasks';
import { taskRowsText } from '../../tools/taskText';
import { rosterDefinition } from '../../reminders/declaration';
import type { ReminderDefinition } from '../../reminders/definition';
import { sanitizeUntrusted } from '../../reminders/envelope';
import { TASKS_NUDGE } from '../../reminders/builtin/catalog/agents';
import { plural } from '../../base/words';

/** Open rows the body lists at most; the rest are counted (TaskList shows them all). */
export const MAX_NUDGE_ROWS = 50;
/** Lines of a row's notes the body shows at most. */
export const NUDGE_NOTE_LINES = 3;

/** What the nudge reads about the chat's task list, at the WAIT that evaluates it. */
export interface TaskNudgeInputs {
	/** The open rows (pending, in progress), in the order they were first written. */
	open(): readonly TaskRow[];
	/** The session turn of the last task write (a child's settlement is none); undefined before the first. */
	lastWriteTurn(): number | undefined;
	/** The stale interval in session turns, as configured now. */
	interval(): number;
	/** Whether the child invocation `path` runs now. */
	isRunning(path: string): boolean;
}

interface Group {
	readonly heading: string;
	readonly rows: TaskRow[];
}

function groupsOf(rows: readonly TaskRow[], isRunning: (path: string) => boolean): Group[] {
	const own: Group = { heading: `Your own rows (owner ${ROOT_OWNER_PATH}):`, rows: [] };
	const retained: Group = { heading: 'Rows of child agents that are no longer running (retained: their invocation ended, and the rows stay open until you reconcile them):', rows: [] };
	const running: Group = { heading: 'Rows of child agents still running (leave them to the child):', rows: [] };
	for (const row of rows) {
		(row.owner === ROOT_OWNER_PATH ? own : isRunning(row.owner) ? running : retained).rows.push(row);
	}
	return [own, retained, running].filter((group) => group.rows.length > 0);
}

function body(open: readonly TaskRow[], since: number, lastWrite: number, turn: number, isRunning: (path: string) => boolean): string {
	const listed = open.slice(0, MAX_NUDGE_ROWS);
	const groups = groupsOf(listed, isRunning).map((group) => `${group.heading}\n${taskRowsText(group.rows, sanitizeUntrusted, NUDGE_NOTE_LINES)}`);
	const more = open.length - listed.length;
	const count = open.length.toLocaleString('en-US');
	return [
		`No task was written for ${plural(since, 'turn')} (the last task write was in turn ${lastWrite.toLocaleString('en-US')}; this is turn ${turn.toLocaleString('en-US')}), and ${count} ${open.length === 1 ? 'row is' : 'rows are'} still open:`,
		...groups,
		...(more > 0 ? [`… and ${plural(more, 'more open row')} (TaskList shows them all).`] : []),
		'Reconcile them with what is true now. Before you change the status of a child agent\'s row, check that child\'s RESULT (its Agent tool result) or follow up (start an agent to continue it, or do it yourself) — do not mark it completed on the child\'s behalf without evidence. Update your own rows with TaskWrite: completed, cancelled, or still in progress. If the open rows are right as they are, carry on.',
	].join('\n\n');
}

export function tasksNudge(inputs: TaskNudgeInputs): ReminderDefinition {
	return rosterDefinition(TASKS_NUDGE, {
		scope: 'session',
		trigger: ({ owner, turn }) => {
			const lastWrite = inputs.lastWriteTurn();
			return owner.kind === 'root' && lastWrite !== undefined && turn - lastWrite >= inputs.interval() && inputs.open().length > 0;
		},
		content: ({ turn }) => {
			const open = inputs.open();
			const lastWrite = inputs.lastWriteTurn() ?? 0;
			const since = turn - lastWrite;
			return {
				body: body(open, since, lastWrite, turn, (path) => inputs.isRunning(path)),
				reason: `${plural(open.length, 'open task row')}, none written for ${plural(since, 'turn')} (interval ${inputs.interval().toLocaleString('en-US')})`,
			};
		},
	});
}
