// The goal's reminder types (docs/goals.md): its facts as an observation (goalCurrent.ts), and its
// token budget's thresholds (goalBudget.ts). Registered with the key registry and the settings by
// the feature list.
import { declareReminder } from '../../reminders/declaration';
import { onChange } from '../../reminders/policy';

export const GOAL_CURRENT = declareReminder({
	type: 'goalCurrent',
	key: 'goal.current',
	label: 'goal',
	purpose: 'The goal the user set for the chat: its objective, token budget and spend, and the approved plan file it implements; once, that no goal is active after it was completed or cleared.',
	introducedIn: '0.5.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model the goal you set for the chat (objective, token budget and spend, the plan it implements), and once that none is active after you complete or clear it.',
});

export const GOAL_BUDGET = declareReminder({
	type: 'goalBudget',
	key: 'goal.budget',
	label: 'goal budget',
	purpose: 'The goal\'s token budget: each newly passed 50 %, 80 % and 100 % threshold once, and a change of the budget with its old and new limits.',
	introducedIn: '0.5.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model when the goal\'s token spend passes 50 %, 80 % and 100 % of its budget, and when you change the budget.',
});
