// TaskWrite: creates and updates rows of the chat's task list (src/features/tasks/chatTasks.ts). It changes no
// file, so it is a read tool: offered in every mode, plan mode included, and never asks. The
// description is the whole contract (fields, statuses, ownership): tasks.nudge does not repeat it.
import * as z from 'zod';
import { MAX_ROWS_PER_WRITE, MAX_TASK_ID_CHARS, MAX_TASK_NOTES_CHARS, MAX_TASK_TITLE_CHARS, TASK_ACCESS, type TaskAccess } from './taskAccess';
import { TASK_STATUSES } from '../vocabulary/tasks';
import { countsText, countTasks, taskRowsText } from './taskText';
import { ToolError } from './errors';
import { type Tool, type ToolContext, touchesNothing } from './tool';

const row = z.object({
	id: z.string().min(1).max(MAX_TASK_ID_CHARS).describe('The row\'s id, unique in the chat: a short name of your choice, e.g. "1" or "parser". Letters, digits and . _ : # -. A new id creates a row; an existing id updates it.'),
	title: z.string().max(MAX_TASK_TITLE_CHARS).optional().describe(`One line saying what is to be done (at most ${MAX_TASK_TITLE_CHARS} characters). Required for a new row; give it for an existing row only to rename it.`),
	status: z.enum(TASK_STATUSES).optional().describe('pending (not started; a new row\'s default), in_progress (being worked on now), completed (done and verified), cancelled (no longer to be done). Omit to keep the row\'s status.'),
	notes: z.string().max(MAX_TASK_NOTES_CHARS).optional().describe(`Optional notes: what is left, what blocks it, where the result is (at most ${MAX_TASK_NOTES_CHARS} characters). Replaces the row's notes; "" clears them.`),
});

const input = z.object({
	tasks: z.array(row).min(1).max(MAX_ROWS_PER_WRITE).describe(`The rows to create or change, at most ${MAX_ROWS_PER_WRITE}; rows not named stay as they are.`),
});

/** The caller's task list, or the error a tool without one answers with. */
export function taskAccessOf(context: ToolContext, tool: string): TaskAccess {
	const access = context.features?.get(TASK_ACCESS);
	if (!access) {
		throw new ToolError(`${tool} is not available here: this chat has no task list for this call.`);
	}
	return access;
}

export const taskWriteTool: Tool<z.infer<typeof input>> = {
	name: 'TaskWrite',
	description:
		'Creates and updates rows of this chat\'s task list, which the user sees above the composer. Use it for work of several steps: write the steps as rows, mark one in_progress while you work on it, and completed as soon as it is done and verified (cancelled when it is dropped). ' +
		'Each row: id (required), title (required for a new row), status (pending, in_progress, completed, cancelled), notes (optional). Only the fields you give change; rows you do not name stay. ' +
		'A row belongs to whoever created it (its owner path: root, or an agent such as root/explore#2): you may change your own rows and those of the agents you started, never another\'s. ' +
		'One write applies all its rows or none. The result lists the rows it changed; TaskList shows them all.',
	kind: 'read',
	input,
	touches: touchesNothing,
	run({ tasks }, context) {
		const access = taskAccessOf(context, 'TaskWrite');
		const result = access.write(
			tasks.map(
				(task) => ({
					id: task.id,
					...(task.title === undefined ? {} : { title: task.title }),
					...(task.status === undefined ? {} : { status: task.status }),
					...(task.notes === undefined ? {} : { notes: task.notes }),
				}),
			),
		);
		if (!result.ok) {
			throw new ToolError(result.error);
		}
		const counts = countsText(countTasks(access.list()));
		if (result.changed.length === 0) {
			return Promise.resolve({ content: `Nothing changed: the rows already say that. Tasks: ${counts}.` });
		}
		const changed = result.changed.length === 1 ? '1 row' : `${result.changed.length.toLocaleString('en-US')} rows`;
		return Promise.resolve({ content: `Wrote ${changed}. Tasks: ${counts}.\n${taskRowsText(result.changed)}` });
	},
};
