// Plans (docs/usage.md, Plan mode): the plan card's decision and the approved plan's file. The plan
// workflow itself (mode.plan, the plan file, plan.reference) is the agent's (src/agent/plans.ts):
// the turn, the goal and edits.verify read it.
import type { AgentFeature } from '../../agent/chatFeature';
import type { ChatSession } from '../../agent/session';
import type { ChatFeature, FeatureWindow } from '../feature';
import { ChatPlanDecision } from './planDecision';
import { PlanPart } from './planView';

export const PLAN_STATE: AgentFeature<ChatPlanDecision> = {
	id: 'plan',
	open: (chat) => new ChatPlanDecision(chat),
};

/** `session`'s plan decision, as the window's agent holds it. */
export function planDecisionOf(window: Pick<FeatureWindow, 'features'>, session: ChatSession): ChatPlanDecision {
	return window.features.stateOf(PLAN_STATE, session);
}

export const PLAN: ChatFeature = {
	id: 'plan',
	agent: PLAN_STATE,
	view: (window) => new PlanPart({ sessions: window.sessions, decision: () => planDecisionOf(window, window.sessions.current), workbench: window.workbench }),
};
