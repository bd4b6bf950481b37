// The plan's part of the view: the plan card's decision (`plan.decide`) and a decision row's link to
// the approved plan's file (`plan.open`). A decision that cannot be taken is said in the chat, and
// the card stays.
import type { IDisposable } from '../../base/lifecycle';
import { toDisposable } from '../../base/lifecycle';
import type { ChatSession } from '../../agent/session';
import type { ViewMessage } from '../../protocol/messages';
import type { WorkbenchActions } from '../../view/controls';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import type { ChatPlanDecision } from './planDecision';
import { openPlanFile } from './planFile';

export interface PlanPartSource {
	readonly sessions: { readonly current: ChatSession };
	/** The current chat's plan decision. */
	readonly decision: () => Pick<ChatPlanDecision, 'decide'>;
	readonly workbench: Pick<WorkbenchActions, 'openPlan'>;
}

export class PlanPart implements FeatureViewPart, IDisposable {
	readonly id = 'plan';

	constructor(private readonly source: PlanPartSource) {}

	connect(): IDisposable {
		// It says nothing of its own accord: the plan card is the agent's state.
		return toDisposable(() => undefined);
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		switch (message.type) {
			case 'plan.decide':
				this.decide(message, view);
				return;
			case 'plan.open':
				openPlanFile(this.source.sessions.current.records, message.decision, this.source.workbench, (level, text) => {
					view.notice(level, text);
				});
				return;
		}
	}

	private decide(message: Extract<ViewMessage, { type: 'plan.decide' }>, view: FeatureViewPort): void {
		const note = message.note?.trim() ?? '';
		const decision = this.source.decision();
		let problem: string | undefined;
		switch (message.decision) {
			case 'approve':
				problem = message.mode ? decision.decide(message.proposalId, { decision: 'approve', mode: message.mode, ...(note ? { note } : {}) }) : 'Pick the mode the plan is implemented in.';
				break;
			case 'revise':
				problem = decision.decide(message.proposalId, { decision: 'revise', note });
				break;
			case 'reject':
				problem = decision.decide(message.proposalId, { decision: 'reject', ...(note ? { note } : {}) });
				break;
		}
		if (problem !== undefined) {
			view.notice('error', problem);
		}
	}

	dispose(): void {
		// Nothing held.
	}
}
