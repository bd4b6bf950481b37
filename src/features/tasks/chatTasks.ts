// The task list of one chat (TaskWrite, TaskList, the task panel, tasks.nudge): its rows, folded
// from the chat's `tasks` records (so a reloaded or reopened chat has them again), and the one way
// to change them. A write is checked as a whole — new rows need a title, a row belongs to whoever
// created it and only that owner's subtree (or the root) may change it — and appended as ONE
// record before anything changes in memory; a record that cannot be written changes nothing.
// It also installs the chat's own tasks.nudge reminder (each chat has its own staleness).
import type { Clock } from '../../base/clock';
import { errorMessage } from '../../base/errors';
import { Emitter, type Event } from '../../base/event';
import type { IDisposable } from '../../base/lifecycle';
import type { Logger } from '../../base/log';
import type { FeatureState } from '../../agent/chatFeature';
import { TASKS_NUDGE } from '../../reminders/builtin/catalog/agents';
import type { ReminderEngine } from '../../reminders/engine';
import { RECORD_KIND } from '../../reminders/record';
import { type FeatureAccess, grant } from '../../tools/featureAccess';
import { MAX_CHAT_ROWS, MAX_ROWS_PER_WRITE, MAX_TASK_ID_CHARS, MAX_TASK_NOTES_CHARS, MAX_TASK_TITLE_CHARS, TASK_ACCESS, TASK_ID, type TaskAccess, type TaskUpdate, type TaskWriteResult } from '../../tools/taskAccess';
import type { TurnOutcomeKind } from '../../vocabulary/outcomes';
import { KeptConversation } from '../../transcript/keptRecords';
import type { AgentRecord, TasksRecord } from '../../transcript/records';
import { foldTaskRows, isOpenStatus, ROOT_OWNER_PATH, type TaskRow } from '../../vocabulary/tasks';
import { tasksNudge } from './tasksNudge';

// What a title or notes may not hold: a title is one line; neither may carry terminal escapes or NULs.
// eslint-disable-next-line no-control-regex
const TITLE_CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const NOTES_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** `by` of the record that closes a settled child's rows. */
export const SETTLED = 'settled';

/** What of a chat the task list reads and writes. */
export interface TaskSession {
	/** The root's conversation: `tasks` records are chat-wide, so they are all here. */
	readonly records: readonly AgentRecord[];
	append(record: AgentRecord): void;
	readonly reminders: ReminderEngine;
}

export interface ChatTasksOptions {
	readonly clock: Clock;
	readonly newId: () => string;
	/** Whether the child invocation `path` runs now (tasks.nudge tells a retained child's rows apart); none does when absent. */
	readonly isRunning?: (path: string) => boolean;
	/** Where a settlement that could not be recorded is said; unsaid when absent. */
	readonly log?: Logger;
}

/** Whether `owner` is `caller` or one of the caller's descendants (the root's subtree is everything). */
export function withinSubtree(caller: string, owner: string): boolean {
	return caller === ROOT_OWNER_PATH || owner === caller || owner.startsWith(`${caller}/`);
}

function checkText(id: string, field: string, text: string, max: number): string | undefined {
	if (text.length > max) {
		return `${id}: the ${field} has ${text.length.toLocaleString('en-US')} characters; at most ${max.toLocaleString('en-US')}.`;
	}
	return undefined;
}

export class ChatTasks implements FeatureState, IDisposable {
	private readonly rows = new Map<string, TaskRow>();
	/** What the chat's restores left of its records: rolled-back writes are no rows. */
	private readonly kept = new KeptConversation<AgentRecord>(() => this.session.records);
	/** The session turn of the last write (a settlement is none): staleness counts from it. */
	private lastWrite: number | undefined;
	private readonly _onDidChange = new Emitter<readonly TaskRow[]>();
	/** The rows changed (a write or a settlement): every row, in the order ids first appeared. */
	readonly onDidChange: Event<readonly TaskRow[]> = this._onDidChange.event;

	constructor(
		private readonly session: TaskSession,
		private readonly options: ChatTasksOptions,
	) {
		this.fold();
		const { roster } = session.reminders;
		if (!roster.has(TASKS_NUDGE.type)) {
			roster.register(
				tasksNudge({
					open: () => this.open(),
					lastWriteTurn: () => this.lastWrite,
					interval: () => session.reminders.config.intervalOf(TASKS_NUDGE.type) ?? TASKS_NUDGE.interval ?? 8,
					isRunning: (path) => options.isRunning?.(path) ?? false,
				}),
			);
			this.restoreNudge();
		}
	}

	/** After a chat restore: the rows again as the records the chat still holds left them. */
	afterRestore(): void {
		this.fold();
		this._onDidChange.fire(this.all);
	}

	/** The rows and last write of the tasks records no chat restore rolled back. */
	private fold(): void {
		const records = this.kept.records.filter((record): record is TasksRecord => record.kind === 'tasks');
		this.rows.clear();
		for (const row of foldTaskRows(records.map((record) => record.rows))) {
			this.rows.set(row.id, row);
		}
		this.lastWrite = records.findLast((record) => record.by !== SETTLED)?.turn;
	}

	/** Every row, in the order ids first appeared. */
	get all(): readonly TaskRow[] {
		return [...this.rows.values()];
	}

	/** The open rows (pending, in progress): what tasks.nudge reconciles. */
	open(): TaskRow[] {
		return this.all.filter((row) => isOpenStatus(row.status));
	}

	/** The session turn of the last task write (undefined before the first). */
	get lastWriteTurn(): number | undefined {
		return this.lastWrite;
	}

	/** The list as `owner` (an owner path) reaches it. */
	access(owner: string): TaskAccess {
		return {
			owner,
			list: () => this.all,
			write: (updates) => this.write(owner, updates),
			settle: (child, outcome) =>
				child !== owner && withinSubtree(owner, child) ? this.settle(child, outcome) : { ok: false, error: `${child} is not an agent ${owner} started, so ${owner} cannot settle its rows.` },
		};
	}

	/** TaskWrite and TaskList of the loop of `owner` reach the list as that owner. */
	toolAccess(owner: string): FeatureAccess {
		return grant(TASK_ACCESS, this.access(owner));
	}

	/** A child that answered closes its own open rows; a failed or stopped one leaves them for recovery. */
	afterChildSettled(path: string, outcome: TurnOutcomeKind): void {
		const settled = this.settle(path, outcome);
		if (!settled.ok) {
			this.options.log?.warn(`Aside: the open tasks of ${path} could not be closed: ${settled.error}`);
		}
	}

	/**
	 * One TaskWrite by `by` (an owner path): checked as a whole, then recorded as one `tasks`
	 * record of the rows it changed; nothing is applied when any row is refused or the record
	 * cannot be written.
	 */
	write(by: string, updates: readonly TaskUpdate[]): TaskWriteResult {
		const checked = this.check(by, updates);
		if (typeof checked === 'string') {
			return { ok: false, error: checked };
		}
		return this.record(by, checked);
	}

	/**
	 * The child invocation `path` ended: when it succeeded (`done`), its own open rows are closed
	 * (completed) in one record by `settled`; a failed, stopped or step-limited child leaves them
	 * open for the parent to recover. Its descendants' rows are theirs to settle.
	 */
	settle(path: string, outcome: TurnOutcomeKind): TaskWriteResult {
		if (outcome !== 'done' || path === ROOT_OWNER_PATH) {
			return { ok: true, changed: [] };
		}
		const closing = this.all.filter((row) => row.owner === path && isOpenStatus(row.status)).map((row): TaskRow => ({ ...row, status: 'completed' }));
		return this.record(SETTLED, closing);
	}

	dispose(): void {
		this._onDidChange.dispose();
	}

	/** The rows after the write, changed ones only; or why it is refused. */
	private check(by: string, updates: readonly TaskUpdate[]): TaskRow[] | string {
		if (updates.length === 0) {
			return 'Give at least one task row.';
		}
		if (updates.length > MAX_ROWS_PER_WRITE) {
			return `${updates.length.toLocaleString('en-US')} rows in one write; at most ${MAX_ROWS_PER_WRITE}. Split it.`;
		}
		const seen = new Set<string>();
		const changed: TaskRow[] = [];
		let created = 0;
		for (const update of updates) {
			const { id } = update;
			if (id.length > MAX_TASK_ID_CHARS || !TASK_ID.test(id)) {
				return `${JSON.stringify(id.slice(0, MAX_TASK_ID_CHARS + 1))} is not a task id: use letters, digits and . _ : # - (starting with a letter or digit), at most ${MAX_TASK_ID_CHARS} characters.`;
			}
			if (seen.has(id)) {
				return `${id} is given twice in one write; give each row once.`;
			}
			seen.add(id);
			const title = update.title?.trim();
			const problem =
				(title !== undefined ? checkText(id, 'title', title, MAX_TASK_TITLE_CHARS) : undefined) ??
				(update.notes !== undefined ? checkText(id, 'notes', update.notes, MAX_TASK_NOTES_CHARS) : undefined);
			if (problem) {
				return problem;
			}
			if (title !== undefined && (title === '' || TITLE_CONTROL.test(title))) {
				return `${id}: the title must be one line of text, not empty (no line breaks or control characters).`;
			}
			if (update.notes !== undefined && NOTES_CONTROL.test(update.notes)) {
				return `${id}: the notes may hold line breaks and tabs, but no other control characters.`;
			}
			const existing = this.rows.get(id);
			if (!existing) {
				if (title === undefined) {
					return `${id} is a new task: give it a title (and a status; it starts as pending).`;
				}
				created++;
				changed.push({ id, title, status: update.status ?? 'pending', owner: by, ...(update.notes ? { notes: update.notes } : {}) });
				continue;
			}
			if (!withinSubtree(by, existing.owner)) {
				return `${id} belongs to ${existing.owner}; ${by} may change only its own rows and those of the agents it started. Nothing was written. Create a row of your own instead, or say in your answer what should change.`;
			}
			const notes = update.notes === undefined ? existing.notes : update.notes === '' ? undefined : update.notes;
			const next: TaskRow = {
				id,
				title: title ?? existing.title,
				status: update.status ?? existing.status,
				owner: existing.owner,
				...(notes === undefined ? {} : { notes }),
			};
			if (next.title !== existing.title || next.status !== existing.status || next.notes !== existing.notes) {
				changed.push(next);
			}
		}
		if (this.rows.size + created > MAX_CHAT_ROWS) {
			return `This chat has ${this.rows.size.toLocaleString('en-US')} task rows and this write adds ${created.toLocaleString('en-US')}; at most ${MAX_CHAT_ROWS.toLocaleString('en-US')}. Reuse rows (update their status) instead of adding new ones.`;
		}
		return changed;
	}

	/** Records `rows` as one `tasks` record by `by`, then applies them; nothing when there is nothing to record. */
	private record(by: string, rows: readonly TaskRow[]): TaskWriteResult {
		if (rows.length === 0) {
			return { ok: true, changed: [] };
		}
		const turn = this.session.reminders.roster.turn;
		const record: TasksRecord = { kind: 'tasks', id: this.options.newId(), at: this.options.clock.now(), by, turn, rows: rows.map(recordRow) };
		try {
			this.session.append(record);
		} catch (error) {
			return { ok: false, error: `The task list could not be saved (${errorMessage(error)}), so nothing changed.` };
		}
		for (const row of rows) {
			this.rows.set(row.id, row);
		}
		if (by !== SETTLED) {
			this.lastWrite = turn;
		}
		this._onDidChange.fire(this.all);
		return { ok: true, changed: rows };
	}

	/** A reopened chat: the nudge's last delivery in retained history counts (restoreDeliveries ran before it was registered). */
	private restoreNudge(): void {
		const { roster } = this.session.reminders;
		for (const record of this.kept.records) {
			if (record.kind === RECORD_KIND && record.owner.kind === 'root') {
				const entry = record.entries.find((candidate) => candidate.type === TASKS_NUDGE.type);
				if (entry) {
					roster.restoreDelivery(TASKS_NUDGE.type, record.turn, entry.body);
				}
			}
		}
		// A write counts from the session turn it was made in, even if no injection record of that turn was kept.
		if (this.lastWrite !== undefined) {
			roster.restoreTurn(this.lastWrite);
		}
	}
}

/** A row as the record stores it: no undefined fields (the record's fast path takes exact shapes). */
function recordRow(row: TaskRow): TasksRecord['rows'][number] {
	return { id: row.id, title: row.title, status: row.status, owner: row.owner, ...(row.notes === undefined ? {} : { notes: row.notes }) };
}
