// Which user row is the implementation request an approval sent: Approve records the decision,
// then starts a turn whose message is `implementationPrompt(plan, file, note)` — the whole plan,
// for the model. The chat shows that row as the request it is, the plan behind a disclosure,
// rather than as a message the person typed. Told from structure: the first root message after
// an approval whose text is exactly the prompt that approval made (a message the person typed
// instead, when the turn did not start, stays theirs).
import { implementationPrompt } from '../agent/plans';
import { findProposal } from '../agent/proposal';
import type { UserTurnItem } from '../protocol/messages';
import type { AgentRecord, UserRecord } from '../transcript/records';

interface Approval {
	readonly decision: string;
	readonly file: string;
	readonly prompt: string;
}

export class ImplementationRequests {
	/** The plans the root's answers proposed, by answer id. */
	private readonly proposals = new Map<string, string>();
	private approval: Approval | undefined;

	/** Every record, in order. */
	see(record: AgentRecord): void {
		if (record.kind === 'assistant' && record.agent === undefined) {
			const plan = findProposal(record.text)?.plan;
			if (plan !== undefined) {
				this.proposals.set(record.id, plan);
			}
		} else if (record.kind === 'plan-decision' && record.decision === 'approved' && record.file !== undefined) {
			const plan = this.proposals.get(record.proposal);
			this.approval = plan === undefined ? undefined : { decision: record.id, file: record.file, prompt: implementationPrompt(plan, record.file, record.note ?? '') };
		}
	}

	/** For a root user record: the approval it implements, if it is that approval's request. */
	take(record: UserRecord): UserTurnItem['implementsPlan'] {
		const { approval } = this;
		if (approval === undefined || record.agent !== undefined) {
			return undefined;
		}
		this.approval = undefined;
		return record.text === approval.prompt ? { decision: approval.decision, file: approval.file } : undefined;
	}
}
