// The plan state of one chat, read from its records (so a reopened chat has it again): the plan
// the model proposed last and that waits for the person's decision (the plan card), the plan they
// approved (ApprovedPlans, which edits.verify reads), and their decisions — Approve writes the plan
// file beside the transcript and records the decision; the agent then switches the mode and starts
// the implementation turn with the prompt this returns. It also installs the chat's own mode.plan
// and plan.reference reminders (each chat has its own plan episode and approved plan).
import type { Clock } from '../base/clock';
import { errorMessage } from '../base/errors';
import { modePlan } from '../reminders/builtin/modePlan';
import { planReference, type ReferencedPlan } from '../reminders/builtin/planReference';
import { planRejected, rejectionAfterReopen } from '../reminders/builtin/planRejected';
import { MODE_PLAN, PLAN_REFERENCE } from '../reminders/builtin/catalog/plans';
import type { StagedEntry } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';
import { RECORD_KIND } from '../reminders/record';
import { KeptConversation } from '../transcript/keptRecords';
import type { AgentRecord, PlanDecisionRecord } from '../transcript/records';
import type { ApprovedPlan, ApprovedPlans } from './approvedPlan';
import type { PermissionMode } from '../vocabulary/permissionModes';
import { findProposal, howToVerify } from './proposal';

/** Where plan files go: `<sessions>/<id>.plans/` on disk (planFiles.ts). */
export interface PlanFiles {
	/** Writes the plan file `name` of session `sessionId` and returns its absolute path. Throws when it cannot. */
	write(sessionId: string, name: string, text: string): string;
}

/** What of a chat the plans read and write. */
export interface PlanSession {
	readonly id: string;
	readonly records: readonly AgentRecord[];
	append(record: AgentRecord): void;
	readonly reminders: ReminderEngine;
}

/** The plan waiting for the person's decision. */
export interface PendingPlan {
	/** The id of the answer that proposed it. */
	readonly proposalId: string;
	/** The plan's Markdown. */
	readonly plan: string;
}

/** The plan card's decision, as the person made it. */
export type PlanChoice =
	| { readonly decision: 'approve'; readonly mode: PermissionMode; readonly note?: string }
	| { readonly decision: 'revise'; readonly note: string }
	| { readonly decision: 'reject'; readonly note?: string };

/** What the agent does next: start a turn with `prompt` (in `mode`, when set), or nothing. */
export interface PlanOutcome {
	readonly prompt?: string;
	readonly mode?: PermissionMode;
}

/** A decision that could not be taken; its message is for the person, and nothing was changed. */
export class PlanDecisionError extends Error {
	override readonly name = 'PlanDecisionError';
}

export interface ChatPlansOptions {
	readonly clock: Clock;
	readonly newId: () => string;
	/** Absent: plans can be proposed and decided, but an approval is refused (nowhere to save it). */
	readonly files?: PlanFiles;
	/** `aside.plan.referenceMaxChars`, read when the reminder fires. */
	readonly referenceMaxChars: () => number;
	/** A plan file a chat feature already tells the model of (the active goal's): plan.reference is silent for that plan. */
	readonly carriedPlan?: () => string | undefined;
}

interface Approval {
	readonly decision: PlanDecisionRecord;
	readonly plan: string;
	/** User messages recorded since the approval (the implementation prompt is the first). */
	readonly userTurnsSince: number;
}

export class ChatPlans implements ApprovedPlans {
	/** What the chat's restores left of its records: a rolled-back proposal or approval is none. */
	private readonly kept = new KeptConversation<AgentRecord>(() => this.session.records);
	constructor(
		private readonly session: PlanSession,
		private readonly options: ChatPlansOptions,
	) {
		const { roster } = session.reminders;
		if (!roster.has(MODE_PLAN.type)) {
			roster.register(modePlan());
		}
		if (!roster.has(PLAN_REFERENCE.type)) {
			roster.register(
				planReference({
					referable: () => this.referable(),
					maxChars: () => options.referenceMaxChars(),
					carriedPlan: () => options.carriedPlan?.(),
				}),
			);
			this.restoreReference();
			this.queueRejection(rejectionAfterReopen(session.records));
		}
	}

	/** The plan proposed last, while no decision was recorded for it and the person has written nothing since. */
	pending(): PendingPlan | undefined {
		const { records } = this.kept;
		for (let i = records.length - 1; i >= 0; i--) {
			const record = records[i] as AgentRecord;
			if (record.kind === 'user' || record.kind === 'plan-decision') {
				return undefined;
			}
			if (record.kind === 'assistant') {
				const parts = findProposal(record.text);
				if (parts) {
					return { proposalId: record.id, plan: parts.plan };
				}
			}
		}
		return undefined;
	}

	/** The latest approved plan (ApprovedPlans). */
	current(): ApprovedPlan | undefined {
		const approval = this.approval();
		if (!approval) {
			return undefined;
		}
		const verify = howToVerify(approval.plan);
		return {
			file: approval.decision.file ?? '',
			text: approval.plan,
			approvedAt: approval.decision.at,
			...(verify === undefined ? {} : { howToVerify: verify }),
		};
	}

	/**
	 * Takes the person's decision on the pending plan `proposalId`: records it (Approve writes the
	 * plan file first, and keeps `modeNow`, the chat's mode, for a restore that rolls it back) and
	 * says what to do next. Throws PlanDecisionError, having changed nothing, when the plan is no
	 * longer pending, the choice is not allowed, or the file cannot be written.
	 */
	decide(proposalId: string, choice: PlanChoice, modeNow?: PermissionMode): PlanOutcome {
		const pending = this.pending();
		if (pending?.proposalId !== proposalId) {
			throw new PlanDecisionError('That plan is no longer waiting for a decision.');
		}
		const note = choice.note?.trim() ?? '';
		const base = { kind: 'plan-decision' as const, id: this.options.newId(), at: this.options.clock.now(), proposal: proposalId, ...(note ? { note } : {}) };
		switch (choice.decision) {
			case 'approve': {
				if (choice.mode === 'plan') {
					throw new PlanDecisionError('Pick the mode the plan is implemented in: ask, auto-edit or full access.');
				}
				const file = this.writePlanFile(pending.plan);
				this.record({ ...base, decision: 'approved', mode: choice.mode, file, ...(modeNow === undefined ? {} : { previousMode: modeNow }) });
				this.session.reminders.roster.rearm(PLAN_REFERENCE.type, 'a new plan was approved');
				return { mode: choice.mode, prompt: implementationPrompt(pending.plan, file, note) };
			}
			case 'revise':
				if (note === '') {
					throw new PlanDecisionError('Say what to change in the plan: the feedback is what the model revises it from.');
				}
				this.record({ ...base, decision: 'revised' });
				return { prompt: `Please revise the proposed plan. My feedback:\n\n${note}` };
			case 'reject':
				this.record({ ...base, decision: 'rejected' });
				this.queueRejection(planRejected({ ...base, decision: 'rejected' }));
				return {};
		}
	}

	/** The model learns of a rejection at its next request (a chat reopened before that queues it again). */
	private queueRejection(entry: StagedEntry | undefined): void {
		if (entry) {
			this.session.reminders.enqueuePending(entry);
		}
	}

	private record(decision: PlanDecisionRecord): void {
		try {
			this.session.append(decision);
		} catch (error) {
			throw new PlanDecisionError(`Could not record the decision (${errorMessage(error)}), so nothing changed. The plan is still waiting for your decision.`);
		}
	}

	/** Arms plan.reference again (compaction calls this when the plan's earlier mentions left the history). */
	rearm(because: string): void {
		this.session.reminders.roster.rearm(PLAN_REFERENCE.type, because);
	}

	/** The approved plan, from the second user turn after its approval on (the first carries it whole). */
	private referable(): ReferencedPlan | undefined {
		const approval = this.approval();
		if (!approval || approval.userTurnsSince < 2 || approval.decision.file === undefined) {
			return undefined;
		}
		return { file: approval.decision.file, text: approval.plan, approvedAt: approval.decision.at };
	}

	private approval(): Approval | undefined {
		const { records } = this.kept;
		let userTurnsSince = 0;
		for (let i = records.length - 1; i >= 0; i--) {
			const record = records[i] as AgentRecord;
			if (record.kind === 'user') {
				userTurnsSince++;
			} else if (record.kind === 'plan-decision' && record.decision === 'approved') {
				const plan = this.proposalText(record.proposal, i);
				return plan === undefined ? undefined : { decision: record, plan, userTurnsSince };
			}
		}
		return undefined;
	}

	private proposalText(id: string, before: number): string | undefined {
		const { records } = this.kept;
		for (let i = before - 1; i >= 0; i--) {
			const record = records[i];
			if (record?.kind === 'assistant' && record.id === id) {
				return findProposal(record.text)?.plan;
			}
		}
		return undefined;
	}

	private writePlanFile(plan: string): string {
		const { files } = this.options;
		if (!files) {
			throw new PlanDecisionError('This chat has nowhere to save a plan file, so the plan was not approved. It is still waiting for your decision.');
		}
		// Every approval counts, rolled-back ones too: a later plan file never takes an earlier one's name.
		const approved = this.session.records.filter((record) => record.kind === 'plan-decision' && record.decision === 'approved').length;
		try {
			return files.write(this.session.id, `plan-${approved + 1}.md`, `${plan}\n`);
		} catch (error) {
			throw new PlanDecisionError(`Could not save the plan file (${errorMessage(error)}), so the plan was not approved and the mode is unchanged. It is still waiting for your decision.`);
		}
	}

	/** A reopened chat: plan.reference stays delivered if history holds it after the latest approval. */
	private restoreReference(): void {
		let delivered: { turn: number; body: string } | undefined;
		for (const record of this.kept.records) {
			if (record.kind === 'plan-decision' && record.decision === 'approved') {
				delivered = undefined;
			} else if (record.kind === RECORD_KIND && record.owner.kind === 'root') {
				const entry = record.entries.find((candidate) => candidate.type === PLAN_REFERENCE.type);
				if (entry) {
					delivered = { turn: record.turn, body: entry.body };
				}
			}
		}
		if (delivered) {
			this.session.reminders.roster.restoreDelivery(PLAN_REFERENCE.type, delivered.turn, delivered.body);
		}
	}
}

/**
 * The mode a chat restore to before the user record `to` of `kept` (the conversation as earlier
 * restores left it) puts the chat back in: when it rolls back a plan approval and the chat is still
 * in the mode the latest such approval set (`mode`), the mode before it — Plan for an approval
 * recorded without one. Undefined otherwise: a mode the person chose since is theirs.
 */
export function modeBeforeRolledBackApproval(kept: readonly AgentRecord[], to: string, mode: PermissionMode | undefined): PermissionMode | undefined {
	const at = kept.findIndex((record) => record.kind === 'user' && record.id === to);
	const approval = at < 0 ? undefined : kept.slice(at).findLast((record): record is PlanDecisionRecord => record.kind === 'plan-decision' && record.decision === 'approved');
	if (approval?.mode === undefined || approval.mode !== mode) {
		return undefined;
	}
	const previous = approval.previousMode ?? 'plan';
	return previous === mode ? undefined : previous;
}

/** The implementation turn's message: the person's approval, with the plan, as their own text. */
export function implementationPrompt(plan: string, file: string, note: string): string {
	return [`Implement the approved plan below. It is saved as ${file}.`, ...(note ? ['', `My note: ${note}`] : []), '', plan].join('\n');
}
