// `agent.nudge`: the harness's own nudges. The final-step nudge is a roster reminder evaluated at
// every WAIT (each model sample is a step), so it fires inside long tool loops; the no-tool
// nudge is staged by the turn loop when the model's reply was empty.
import { entryOf, rosterDefinition } from '../declaration';
import type { ReminderDefinition, StagedEntry } from '../definition';
import { AGENT_NUDGE } from './catalog/agents';

export const finalStepNudge: ReminderDefinition = rosterDefinition(AGENT_NUDGE, {
	scope: 'all',
	trigger: ({ facts }) => facts.stepLimit !== undefined && facts.step !== undefined && facts.step >= facts.stepLimit,
	content: ({ facts }) => ({
		body: `This is your final step for this request (the step limit is ${facts.stepLimit ?? 0}). Do not call any more tools. Answer now: say what is done, what is not, and what you would do next.`,
		reason: `step limit ${facts.stepLimit ?? 0} reached`,
	}),
});

/** Staged by the turn loop after an empty reply (no text, no tool call) before it asks again. */
export function noToolNudge(): StagedEntry {
	return {
		...entryOf(AGENT_NUDGE),
		body: 'Your last reply was empty: no text and no tool call. Continue the task: call a tool, or answer the user.',
		reason: 'the model replied with nothing',
	};
}
