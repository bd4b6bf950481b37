// `agent.max-turns`: a sub-agent's step-budget warning. Evaluated at every WAIT of a child (its
// roster's turn is its model sample, so tool loops count), it fires once per invocation — one-shot
// in the child's own roster, cloned at spawn — when the sample reaches a share of the budget
// (`aside.agents.maxTurnsWarningAt`). Never at the last step: the final-step nudge (agent.nudge)
// says "answer now" there, for children as for the root.
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { AGENT_MAX_TURNS } from './catalog/agents';

/** The default share of the step budget at which a child is warned. */
export const DEFAULT_WARNING_AT = 0.8;

/** The sample (1-based) at which a budget of `stepLimit` is warned about: at least the first, never past the limit. */
export function warningStep(stepLimit: number, warningAt: number): number {
	return Math.min(stepLimit, Math.max(1, Math.ceil(stepLimit * warningAt)));
}

/** `warningAt`: the share of the budget (read at each WAIT, so a changed setting applies at once). */
export function agentMaxTurns(warningAt: () => number): ReminderDefinition {
	return rosterDefinition(AGENT_MAX_TURNS, {
		scope: 'agent',
		trigger: ({ owner, turn, facts }) => {
			const limit = facts.stepLimit;
			return owner.kind === 'agent' && limit !== undefined && turn < limit && turn >= warningStep(limit, warningAt());
		},
		content: ({ turn, facts }) => {
			const limit = facts.stepLimit ?? turn;
			const after = limit - turn;
			return {
				body:
					`This is step ${turn} of your budget of ${limit}: ${after === 1 ? '1 step is' : `${after} steps are`} left after this one. ` +
					'Wrap up: finish only what the task needs, stop exploring, and give your final answer (what you found or did, what is left) within the steps left.',
				reason: `step ${turn} of ${limit} (${Math.round(warningAt() * 100)} % of the budget)`,
			};
		},
	});
}
