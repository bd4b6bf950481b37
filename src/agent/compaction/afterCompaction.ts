// After a compaction is recorded: what the summarized prefix had acknowledged is reset, so what
// the model needs is delivered again, once — the observations the kept history no longer holds
// (the roster's reconcile), the path-scoped instruction files it had been given (at once, without
// waiting for another Read), the approved plan's reference — and the files it had read are listed
// (compact.file-references). The edited-files cache is kept: it follows the files, not the
// history. One function, for every compaction (and for anything else that drops a prefix).
import * as nodePath from 'node:path';
import { errorMessage } from '../../base/errors';
import { compactFileReferences, filesReadBefore, type ReferencedFile } from '../../reminders/builtin/compactFileReferences';
import type { Owner, StagedEntry } from '../../reminders/definition';
import type { ReminderEngine } from '../../reminders/engine';
import type { InjectionRecord } from '../../reminders/record';
import type { ReminderRoster } from '../../reminders/roster';
import { type RequestStaging, stageEntry } from '../../reminders/staging';
import type { AgentRecord } from '../../transcript/records';
import { selectedRecords } from '../../transcript/replay';
import type { TurnObservers } from '../observers';
import type { AgentPorts } from '../ports';
import type { TurnTranscript } from '../turnScope';

/** The conversation a compaction ran on, and what it resets. */
export interface CompactedConversation {
	readonly transcript: TurnTranscript;
	readonly engine: ReminderEngine;
	/** The owner's roster: the session's for the root conversation, the invocation's for a child's. */
	readonly roster: ReminderRoster;
	/** The owner of the request in flight; absent between turns (the root's next request). */
	readonly owner?: Owner;
	readonly observers?: TurnObservers;
	/** Re-arms plan.reference when the chat has an approved plan (the root conversation's). */
	readonly rearmPlan?: () => void;
}

export interface DroppedPrefix {
	readonly summarized: readonly AgentRecord[];
	readonly tail: readonly AgentRecord[];
	/** The in-flight request's staging; absent: deliver on the pending FIFO. */
	readonly staging?: RequestStaging;
	/** False: the files read before are not listed (compact.file-references is a compaction's; a restore says what it rolled back in session.rewind). */
	readonly listFiles?: boolean;
}

const injections = (records: readonly AgentRecord[]): InjectionRecord[] => records.filter((record): record is InjectionRecord => record.kind === 'injected-reminders');

/** Resets and queues what follows a compaction; never throws (the compaction is recorded already). */
export async function afterCompaction(ports: AgentPorts, conversation: CompactedConversation, dropped: DroppedPrefix, signal: AbortSignal): Promise<void> {
	const { engine, owner, observers } = conversation;
	const { log } = ports.runtime;
	const selected = selectedRecords(conversation.transcript.records).records;
	conversation.roster.reconcileObservations(injections(selected));
	const inTurn = dropped.staging !== undefined && owner !== undefined;
	const root = owner === undefined || owner.kind === 'root';
	if (root) {
		try {
			// Between turns the next root turn takes them from the FIFO; the owner named here only says whose context they are.
			const instructions = await observers?.compacted?.(owner ?? { kind: 'root', id: 'compaction' }, selected, dropped.summarized);
			if (instructions) {
				if (inTurn) {
					engine.queueTurnEvent(owner, instructions);
				} else {
					engine.enqueuePending(instructions);
				}
			}
		} catch (error) {
			log.warn(`Aside: after compaction, the project instructions could not be queued again: ${errorMessage(error)}`);
		}
		conversation.rearmPlan?.();
	}
	if (dropped.listFiles === false) {
		return;
	}
	try {
		const entry = compactFileReferences(await withSizes(ports, filesReadBefore(dropped.summarized, dropped.tail), signal));
		if (entry) {
			deliver(engine, dropped.staging, entry);
		}
	} catch (error) {
		log.warn(`Aside: after compaction, the files read before could not be listed: ${errorMessage(error)}`);
	}
}

function deliver(engine: ReminderEngine, staging: RequestStaging | undefined, entry: StagedEntry): void {
	if (staging) {
		stageEntry(staging, 'compaction', entry);
	} else {
		// Nothing makes the list again when the chat is reopened: it is kept with the chat until it goes out.
		engine.enqueuePending(entry, true);
	}
}

/** Each file's size now, through the workspace (null: it no longer exists; undefined: no workspace to ask). */
async function withSizes(ports: AgentPorts, files: readonly { readonly path: string; readonly at: number }[], signal: AbortSignal): Promise<ReferencedFile[]> {
	if (files.length === 0) {
		return [];
	}
	const context = ports.tools.context(signal);
	const fs = context.fs as typeof context.fs | undefined;
	const [first] = context.roots;
	return Promise.all(
		files.map(async (file) => {
			if (!fs || first === undefined) {
				return { ...file, size: undefined };
			}
			const absolute = nodePath.isAbsolute(file.path) ? file.path : nodePath.resolve(first, file.path);
			const stat = await fs.stat(absolute).catch(() => undefined);
			return { ...file, size: stat?.type === 'file' ? stat.size : null };
		}),
	);
}
