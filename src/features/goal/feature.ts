// The goal (docs/goals.md): an objective, an optional token budget and the approved plan it
// implements, per chat; the goal line, its `goal.*` messages and `/goal`.
import type { AgentFeature } from '../../agent/chatFeature';
import type { ChatFeature } from '../feature';
import { ChatGoal } from './chatGoal';
import { GOAL_RECORD_KIND } from './goalRecord';
import { GoalPresenter } from './goalView';
import { GOAL_BUDGET, GOAL_CURRENT } from './goalReminders';

/** Each chat's goal, restored from its records, its goal reminders installed. */
export const GOAL_STATE: AgentFeature<ChatGoal> = {
	id: 'goal',
	open: (chat) => new ChatGoal(chat.session, { clock: chat.clock, newId: chat.newId, plans: chat.plans }),
};

export const GOAL: ChatFeature = {
	id: 'goal',
	records: [GOAL_RECORD_KIND],
	reminders: [GOAL_CURRENT, GOAL_BUDGET],
	agent: GOAL_STATE,
	view: (window) => new GoalPresenter({ ...window, goalOf: (session) => window.features.stateOf(GOAL_STATE, session) }),
};
