// The task list as TaskWrite and TaskList reach it (the chat feature in src/features/tasks/ grants
// it to each loop under TASK_ACCESS): the caller's view of the rows, one write, and the limits a
// write is held to, which the tools' schemas state to the model.
import type { TurnOutcomeKind } from '../vocabulary/outcomes';
import type { TaskRow, TaskStatus } from '../vocabulary/tasks';
import { featureAccessKey } from './featureAccess';

/** Rows one write may carry. */
export const MAX_ROWS_PER_WRITE = 200;
/** Rows one chat may hold (open and closed). */
export const MAX_CHAT_ROWS = 1000;
export const MAX_TASK_ID_CHARS = 64;
export const MAX_TASK_TITLE_CHARS = 200;
export const MAX_TASK_NOTES_CHARS = 2000;
/** Letters, digits and `._:#-`, starting with a letter or digit: an id reads the same in every line it is named in. */
export const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._:#-]*$/;

/** One row of a write: a new row (title required) or the fields of an existing one to change. */
export interface TaskUpdate {
	readonly id: string;
	readonly title?: string;
	/** A new row is `pending` unless this says otherwise. */
	readonly status?: TaskStatus;
	/** '' clears the notes. */
	readonly notes?: string;
}

export type TaskWriteResult =
	/** `changed`: each row the write changed, as it is now (empty when the rows already said that; then nothing was recorded). */
	| { readonly ok: true; readonly changed: readonly TaskRow[] }
	/** Why nothing was written, in words for the model. */
	| { readonly ok: false; readonly error: string };

/** The task list as one caller (an owner path) sees it: what TaskWrite and TaskList reach through their ToolContext. */
export interface TaskAccess {
	/** The caller's owner path: `root`, or a child's `root/explore#2`. */
	readonly owner: string;
	list(): readonly TaskRow[];
	write(updates: readonly TaskUpdate[]): TaskWriteResult;
	/**
	 * A child this caller started (`root/explore#2`, or deeper) ended with `outcome`: on success its
	 * own open rows are closed (ChatTasks.settle). A path outside the caller's subtree is refused.
	 */
	settle(child: string, outcome: TurnOutcomeKind): TaskWriteResult;
}

/** The key the task list is granted to a loop's tools under. */
export const TASK_ACCESS = featureAccessKey<TaskAccess>('tasks');
