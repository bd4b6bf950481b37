// The agent's own loop and its helpers: the nudges, the sub-agents it may call and their step
// limit, and its task list.
// Each is added to BUILTIN_REMINDER_TYPES in ../catalog.ts, in the order of docs/reminder-keys.md.
import { declareReminder } from '../../declaration';
import { everyTurn, interval, onChange, oneShot } from '../../policy';

export const AGENT_NUDGE = declareReminder({
	type: 'agentNudge',
	key: 'agent.nudge',
	label: 'nudge',
	purpose: 'The final-step nudge (step limit reached: answer now) and the no-tool nudge (an empty reply).',
	introducedIn: '0.1.0',
	configurable: true,
	policy: everyTurn,
	description: 'Asks the model to answer on its final allowed step, and to continue after an empty reply.',
});

export const AGENTS_LISTING = declareReminder({
	type: 'agentsListing',
	key: 'agents.listing',
	label: 'agents',
	purpose: 'The agent profiles the Agent tool can start (name, one-line description, where a profile file comes from): in full at the first request of a chat, then only what was added, removed or changed.',
	introducedIn: '0.3.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model which agent profiles it can start with the Agent tool: all of them at the start of a chat, then only the changes when a profile file is added, removed or edited.',
});

export const AGENT_MAX_TURNS = declareReminder({
	type: 'agentMaxTurns',
	key: 'agent.max-turns',
	label: 'step budget',
	purpose: 'A sub-agent reached a share of its step budget (80 % by default): how many steps are left, and to wrap up; once per invocation, inside long tool loops.',
	introducedIn: '0.3.0',
	configurable: true,
	policy: oneShot,
	description: 'Tells a sub-agent, once, that most of its step budget is used, how many steps are left, and to wrap up.',
});

export const TASKS_NUDGE = declareReminder({
	type: 'tasksNudge',
	key: 'tasks.nudge',
	label: 'tasks',
	purpose: 'Open task rows no task write has touched for the stale interval: the open rows with full owner paths, the root\'s own apart from those of retained child agents, asking to reconcile a child\'s result or follow up before changing their status.',
	introducedIn: '0.3.0',
	configurable: true,
	policy: interval(8),
	description: 'Reminds the model of open tasks when no task was written for a while, and asks it to reconcile them.',
});
