// Restore… on a user row: files only, chat only, or both, back to the state before that
// message's turn. First a preview (restorePlan.ts: every file with what would happen to it, and
// its diff), then, when the person confirms, the files are written through the tools' document
// writer (restoreApply.ts, all or nothing), a `restore` record is appended (replay then drops the
// rolled-back part of the chat; the goal, tasks and plans follow), the mode a rolled-back plan
// approval set goes back, what the rolled-back part had acknowledged is reset as after a
// compaction, and `session.rewind` goes on the pending FIFO for the next request.
import { errorMessage } from '../../base/errors';
import { applyRestore } from '../../checkpoints/restoreApply';
import { entriesFrom, planRestore, type RestorePlan } from '../../checkpoints/restorePlan';
import { sessionRewind } from '../../reminders/builtin/sessionRewind';
import { realPlaceInside } from '../../tools/realPlace';
import type { AgentRecord, UserRecord } from '../../transcript/records';
import type { RestoreRecord } from '../../transcript/restoreRecord';
import type { RestoreRequest, RestoreScope } from '../../vocabulary/restore';
import { checkpointTurnOf } from '../../agent/checkpointTurns';
import { afterRestores } from '../../transcript/replay';
import { afterCompaction } from '../../agent/compaction/afterCompaction';
import type { TurnObservers } from '../../agent/observers';
import { modeBeforeRolledBackApproval } from '../../agent/plans';
import type { AgentPorts } from '../../agent/ports';
import type { ChatSession } from '../../agent/session';

/** What a restore would do, as the person is shown it before anything happens. */
export interface RestorePreview {
	readonly sessionId: string;
	/** The user record restored to. */
	readonly to: string;
	readonly scope: RestoreScope;
	/** That message's text (a chat restore gives it back to the composer). */
	readonly message: string;
	/** The root turns rolled back: the message's and every later one. */
	readonly turns: readonly string[];
	/** The files' plan; empty for a chat-only restore. */
	readonly plan: RestorePlan;
	/** False when this window keeps no checkpoints (no store): no file can be restored. */
	readonly tracked: boolean;
	/** Set when this puts back what an earlier restore overwrote: that restore's id. */
	readonly undoes?: string;
}


export type RestoreOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** The root turns from the user record `to` on, in order; undefined when `to` is no root message of `records`. */
function turnsFrom(records: readonly AgentRecord[], to: string): string[] | undefined {
	const at = records.findIndex((record) => record.kind === 'user' && record.agent === undefined && record.id === to);
	if (at < 0) {
		return undefined;
	}
	const turns: string[] = [];
	for (const record of records.slice(at)) {
		if (record.kind === 'user' && record.agent === undefined && !turns.includes(record.turnId)) {
			turns.push(record.turnId);
		}
	}
	return turns;
}

/** The checkpoint turns from the user record `to` on: every root turn since (rolled back ones included) and every restore since that wrote files. */
function fileTurnsFrom(records: readonly AgentRecord[], to: string): Set<string> {
	const at = records.findIndex((record) => record.kind === 'user' && record.agent === undefined && record.id === to);
	const turns = new Set<string>();
	for (const record of at < 0 ? [] : records.slice(at)) {
		const turnId = checkpointTurnOf(record);
		if (turnId !== undefined) {
			turns.add(turnId);
		}
	}
	return turns;
}

/** The files' plan of undoing the writes of `turnIds`: what each file goes back to, classified against the file now. */
async function filesPlan(session: ChatSession, ports: AgentPorts & { readonly checkpoints: NonNullable<AgentPorts['checkpoints']> }, turnIds: ReadonlySet<string>, signal: AbortSignal): Promise<RestorePlan> {
	// The new texts of the last writes are kept just after them: wait for those first.
	await ports.checkpoints.settled();
	const checkpoints = ports.checkpoints.chat(session.id);
	const context = ports.tools.context(signal);
	return planRestore(entriesFrom(checkpoints.entries(), turnIds), checkpoints, {
		read: (path) => context.writer.readText(path),
		roots: context.roots,
		inside: (path) => realPlaceInside(path, context.roots, context.fs),
	});
}

/** The preview of restoring `scope` of the chat to before its message `to` (or of undoing the restore `to`); why not, in words, when it cannot be. */
export async function previewRestore(
	session: ChatSession,
	ports: AgentPorts,
	to: string,
	scope: RestoreRequest,
	signal: AbortSignal,
): Promise<RestoreOutcome<RestorePreview>> {
	if (session.isReadOnly) {
		return { ok: false, message: 'This chat is being written in another window, so it cannot be restored here.' };
	}
	if (scope === 'undo') {
		return previewUndo(session, ports, to, signal);
	}
	const records = session.records;
	const fileTurns = turnsFrom(records, to);
	const user = records.find((record): record is UserRecord => record.kind === 'user' && record.id === to);
	if (fileTurns === undefined || user === undefined) {
		return { ok: false, message: 'That message is not part of this chat, so there is nothing to restore to.' };
	}
	let turns = fileTurns;
	if (scope !== 'files') {
		const chatTurns = turnsFrom(afterRestores(records), to);
		if (chatTurns === undefined) {
			return { ok: false, message: 'That message was already rolled back by an earlier restore, so the chat cannot go back to it again. Restore files only, or pick a message the chat still holds.' };
		}
		turns = chatTurns;
	}
	const base = { sessionId: session.id, to, scope, message: user.text, turns, tracked: ports.checkpoints !== undefined };
	if (scope === 'chat' || ports.checkpoints === undefined) {
		return { ok: true, value: { ...base, plan: { files: [] } } };
	}
	try {
		// Every turn since the message, rolled back ones and restores included: their writes came after it too.
		const plan = await filesPlan(session, { ...ports, checkpoints: ports.checkpoints }, fileTurnsFrom(records, to), signal);
		return { ok: true, value: { ...base, plan } };
	} catch (error) {
		return { ok: false, message: `Could not prepare the restore: ${errorMessage(error)}` };
	}
}

/** Undo… on a restore's row: its files back to as they were just before it (its own kept writes, undone). */
async function previewUndo(session: ChatSession, ports: AgentPorts, id: string, signal: AbortSignal): Promise<RestoreOutcome<RestorePreview>> {
	const records = session.records;
	const restore = records.find((record): record is RestoreRecord => record.kind === 'restore' && record.id === id);
	if (restore === undefined) {
		return { ok: false, message: 'That restore is not part of this chat, so there is nothing to undo.' };
	}
	if (restore.turnId === undefined || ports.checkpoints === undefined) {
		return { ok: false, message: restore.files.some((file) => file.done) ? 'Aside kept no checkpoint of that restore\'s writes, so it cannot be undone.' : 'That restore wrote no file, so there is nothing to undo.' };
	}
	if (records.some((record) => record.kind === 'restore' && record.undoes === id)) {
		return { ok: false, message: 'That restore was already undone. To go back again, undo the undo (its row has Undo… too).' };
	}
	const user = records.find((record): record is UserRecord => record.kind === 'user' && record.id === restore.to);
	try {
		const plan = await filesPlan(session, { ...ports, checkpoints: ports.checkpoints }, new Set([restore.turnId]), signal);
		return { ok: true, value: { sessionId: session.id, to: restore.to, scope: 'files', message: user?.text ?? '', turns: [], plan, tracked: true, undoes: id } };
	} catch (error) {
		return { ok: false, message: `Could not prepare the undo: ${errorMessage(error)}` };
	}
}

/** What the chat needs beside the session to apply a restore. */
export interface RestoreEffects {
	readonly observers?: TurnObservers;
	/** Re-arms plan.reference when the chat has an approved plan. */
	readonly rearmPlan: () => void;
}

/**
 * Applies a preview: the files (person-changed ones only with `overwriteChanged`), then the record,
 * the resets and `session.rewind`. Nothing is recorded when the files could not be restored.
 */
export async function applyRestorePreview(
	session: ChatSession,
	ports: AgentPorts,
	preview: RestorePreview,
	overwriteChanged: boolean,
	effects: RestoreEffects,
	signal: AbortSignal,
): Promise<RestoreOutcome<RestoreRecord>> {
	const { runtime } = ports;
	let files: RestoreRecord['files'] = [];
	let turnId: string | undefined;
	if (preview.scope !== 'chat' && preview.plan.files.length > 0) {
		const context = ports.tools.context(signal);
		// The restore's own writes are kept under a turn of its own, so the restore can be undone.
		const turn = ports.checkpoints ? runtime.ids.next() : undefined;
		const applied = await applyRestore(
			preview.plan,
			context.writer,
			overwriteChanged,
			context,
			turn === undefined ? undefined : ports.checkpoints?.recorder(session.id, turn),
		);
		if (!applied.ok) {
			return applied;
		}
		files = applied.files.map(({ path, shown, action, done }) => ({ path, shown, action, done }));
		turnId = applied.files.some((file) => file.done) ? turn : undefined;
		// The model must read a restored file again before an Edit, and the restore's own writes are no outside change.
		effects.observers?.restored?.(applied.files.filter((file) => file.done).map((file) => file.path));
	}
	// A rolled-back plan approval takes back the mode it set, unless the person chose another since.
	const mode = preview.scope === 'files' ? undefined : modeBeforeRolledBackApproval(afterRestores(session.records), preview.to, session.mode);
	const record: RestoreRecord = {
		kind: 'restore', id: runtime.ids.next(), at: runtime.clock.now(), to: preview.to, scope: preview.scope, turns: [...preview.turns], files,
		...(turnId === undefined ? {} : { turnId }),
		...(preview.undoes === undefined ? {} : { undoes: preview.undoes }),
		...(mode === undefined ? {} : { mode }),
	};
	const before = session.selectedRecords;
	session.append(record);
	if (mode !== undefined) {
		session.setMode(mode);
	}
	if (preview.scope !== 'files') {
		const kept = new Set(session.selectedRecords);
		// What the rolled-back part had acknowledged is reset as after a compaction (its own words: afterCompaction.ts).
		await afterCompaction(
			ports,
			{
				transcript: session,
				engine: session.reminders,
				roster: session.reminders.roster,
				...(effects.observers ? { observers: effects.observers } : {}),
				rearmPlan: effects.rearmPlan,
			},
			{ summarized: before.filter((item) => !kept.has(item)), tail: [], listFiles: false },
			signal,
		);
	}
	session.reminders.enqueuePending(sessionRewind(record, session.records));
	return { ok: true, value: record };
}
