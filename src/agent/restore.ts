// Restore… on a user row (issue 18): files only, chat only, or both, back to the state before that
// message's turn. First a preview (restorePlan.ts: every file with what would happen to it, and
// its diff), then, when the person confirms, the files are written through the tools' document
// writer (restoreApply.ts, all or nothing), a `restore` record is appended (replay then drops the
// rolled-back part of the chat), what the rolled-back part had acknowledged is reset as after a
// compaction, and `session.rewind` goes on the pending FIFO for the next request.
import { errorMessage } from '../base/errors';
import { applyRestore } from '../checkpoints/restoreApply';
import { entriesFrom, planRestore, type RestorePlan } from '../checkpoints/restorePlan';
import { sessionRewind } from '../reminders/builtin/sessionRewind';
import { realPlaceInside } from '../tools/realPlace';
import type { AgentRecord, RestoreRecord, RestoreScope, UserRecord } from '../transcript/records';
import { afterRestores } from '../transcript/replay';
import { afterCompaction } from './compaction/afterCompaction';
import type { TurnObservers } from './observers';
import type { AgentPorts } from './ports';
import type { ChatSession } from './session';

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

/** The preview of restoring `scope` of the chat to before its message `to`; why not, in words, when it cannot be. */
export async function previewRestore(session: ChatSession, ports: AgentPorts, to: string, scope: RestoreScope, signal: AbortSignal): Promise<RestoreOutcome<RestorePreview>> {
	if (session.isReadOnly) {
		return { ok: false, message: 'This chat is being written in another window, so it cannot be restored here.' };
	}
	const records = session.records;
	// Every turn since the message, rolled back ones included: their writes came after it too.
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
		// The new texts of the last writes are kept just after them: wait for those first.
		await ports.checkpoints.settled();
		const checkpoints = ports.checkpoints.chat(session.id);
		const context = ports.tools.context(signal);
		const plan = await planRestore(entriesFrom(checkpoints.entries(), new Set(fileTurns)), checkpoints, {
			read: (path) => context.writer.readText(path),
			roots: context.roots,
			inside: (path) => realPlaceInside(path, context.roots, context.fs),
		});
		return { ok: true, value: { ...base, plan } };
	} catch (error) {
		return { ok: false, message: `Could not prepare the restore: ${errorMessage(error)}` };
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
export async function applyRestorePreview(session: ChatSession, ports: AgentPorts, preview: RestorePreview, overwriteChanged: boolean, effects: RestoreEffects, signal: AbortSignal): Promise<RestoreOutcome<RestoreRecord>> {
	const { runtime } = ports;
	let files: RestoreRecord['files'] = [];
	if (preview.scope !== 'chat' && preview.plan.files.length > 0) {
		const context = ports.tools.context(signal);
		const applied = await applyRestore(preview.plan, context.writer, overwriteChanged, context);
		if (!applied.ok) {
			return applied;
		}
		files = applied.files.map(({ path, shown, action, done }) => ({ path, shown, action, done }));
		// The model must read a restored file again before an Edit, and the restore's own writes are no outside change.
		effects.observers?.restored?.(applied.files.filter((file) => file.done).map((file) => file.path));
	}
	const record: RestoreRecord = { kind: 'restore', id: runtime.ids.next(), at: runtime.clock.now(), to: preview.to, scope: preview.scope, turns: [...preview.turns], files };
	const before = session.selectedRecords;
	session.append(record);
	if (preview.scope !== 'files') {
		const kept = new Set(session.selectedRecords);
		// What the rolled-back part had acknowledged is reset as after a compaction (its own words: afterCompaction.ts).
		await afterCompaction(
			ports,
			{ transcript: session, engine: session.reminders, roster: session.reminders.roster, ...(effects.observers ? { observers: effects.observers } : {}), rearmPlan: effects.rearmPlan },
			{ summarized: before.filter((item) => !kept.has(item)), tail: [], listFiles: false },
			signal,
		);
	}
	session.reminders.enqueuePending(sessionRewind(record, session.records));
	return { ok: true, value: record };
}
