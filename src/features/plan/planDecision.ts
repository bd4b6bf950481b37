// The person's decision on the plan card: recorded, then (Approve) the mode switches and the
// implementation turn starts, or (Revise) the feedback goes to the model in plan mode.
import type { FeatureChat } from '../../agent/chatFeature';
import type { PlanChoice } from '../../agent/plans';
import { errorMessage } from '../../base/errors';

export class ChatPlanDecision {
	constructor(private readonly chat: Pick<FeatureChat, 'session' | 'plans' | 'mode' | 'between'>) {}

	/** Takes `choice` on the plan `proposalId`; returns why it could not be taken, for the chat to say (then nothing changed). */
	decide(proposalId: string, choice: PlanChoice): string | undefined {
		const { session, plans, mode, between } = this.chat;
		const refused = between.refusal('deciding on the plan');
		if (refused !== undefined) {
			return refused;
		}
		if (session.isReadOnly) {
			return 'This chat is being written in another window, so a plan cannot be decided on here.';
		}
		let outcome;
		try {
			outcome = plans.decide(proposalId, choice, mode.current());
		} catch (error) {
			between.changed();
			return errorMessage(error);
		}
		if (outcome.mode) {
			mode.select(outcome.mode);
		}
		if (outcome.prompt !== undefined) {
			between.startTurn(outcome.prompt);
		} else {
			between.changed();
		}
		return undefined;
	}
}
