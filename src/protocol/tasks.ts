// The task list's part of the view protocol (src/features/tasks/, webview/tasks.ts): the task
// panel's view and its message, `tasks.*`. The union in messages.ts takes it as one line.
import * as z from 'zod';
import { TASK_STATUSES } from '../vocabulary/tasks';
import { seq } from './sequence';

/** One row of the chat's task list (TaskWrite), as it is now. */
export const TaskView = z.object({
	id: z.string().min(1),
	title: z.string(),
	status: z.enum(TASK_STATUSES),
	/** `root`, or the child invocation that wrote it first (its owner path). */
	owner: z.string().min(1),
	notes: z.string().optional(),
});
export type TaskView = z.infer<typeof TaskView>;

/** The chat's task list: the panel above the composer. */
export const TasksView = z.object({
	/** In the order their ids first appeared. */
	rows: z.array(TaskView),
	/** How many are pending or in progress. */
	open: z.number().int().nonnegative(),
	/** The id of the current task: the first in progress, else the first pending; absent when none is open. */
	current: z.string().optional(),
});
export type TasksView = z.infer<typeof TasksView>;

export const TASKS_HOST_MESSAGES = [
	/** The chat's task list changed (a TaskWrite, a child that settled, a chat restore). */
	z.object({ type: z.literal('tasks.changed'), seq, tasks: TasksView }),
] as const;
