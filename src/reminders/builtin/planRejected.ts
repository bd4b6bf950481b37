// `plan.rejected`: the person rejected the plan the model proposed (the plan card's Reject,
// src/agent/plans.ts). Enqueued on the pending FIFO, so it rides the root's next request once:
// that the plan is rejected, and the person's note. Made from the durable `plan-decision` record,
// so a chat reopened before the notice went out queues it again (`rejectionAfterReopen`).
import { sanitizeUntrusted } from '../envelope';
import { entryOf } from '../declaration';
import type { StagedEntry } from '../definition';
import type { AgentRecord, PlanDecisionRecord } from '../../transcript/records';
import { PLAN_REJECTED } from './catalog/plans';

/** The notice for one rejection. */
export function planRejected(decision: PlanDecisionRecord): StagedEntry {
	const note = decision.note?.trim() ?? '';
	const lines = ['The user rejected the plan you proposed. Do not carry it out; this carries the user\'s authority.'];
	lines.push(note === '' ? 'They left no note: ask what they want instead if their next message does not say.' : `Their note: ${sanitizeUntrusted(note)}`);
	return { ...entryOf(PLAN_REJECTED), body: lines.join('\n'), reason: 'the user rejected the proposed plan' };
}

/**
 * On reopen: the notice of the chat's latest decision when it was a rejection that no request
 * carried yet (no root injection record after it delivered `plan.rejected`); undefined otherwise.
 */
export function rejectionAfterReopen(records: readonly AgentRecord[]): StagedEntry | undefined {
	for (let index = records.length - 1; index >= 0; index--) {
		const record = records[index] as AgentRecord;
		if (record.kind === 'injected-reminders' && record.owner.kind === 'root' && record.entries.some((entry) => entry.key === PLAN_REJECTED.key)) {
			return undefined;
		}
		if (record.kind === 'plan-decision') {
			return record.decision === 'rejected' ? planRejected(record) : undefined;
		}
	}
	return undefined;
}
