// The messages that drive the running agent: Stop, Retry on a failed turn, the approval card's
// verdict, the review card's Open diff, and the model picker.
import type { ApprovalAnswers } from './approvalAnswers';
import type { AgentControls } from './controls';
import type { HandlerPort, ViewHandlers } from './viewHandlers';

export function agentHandlers(agent: AgentControls, approvals: ApprovalAnswers, view: HandlerPort): ViewHandlers {
	return {
		stop: () => {
			agent.stop();
		},
		'turn.retry': ({ turnId }) => {
			// What the agent said it could not do, said in the chat.
			const refused = agent.retry(turnId);
			if (refused !== undefined) {
				view.notice('warning', refused);
			}
		},
		approval: (message) => {
			approvals.answer(message);
		},
		'review.show': ({ callId, path }) => {
			agent.showReview(callId, path);
		},
		'model.select': ({ model }) => {
			agent.selectModel(model);
		},
	};
}
