// `goal.current`: the chat's goal (src/features/goal/chatGoal.ts, docs/goals.md) as a changing prompt
// observation (observations.ts): its objective, budget and plan file at the next request after
// it was set or changed — mid-turn too — and again after a compaction dropped its delivery. The
// spend rides as a trailing line that on-change does not compare (it changes with every request;
// goal.budget reports its thresholds). When the goal is completed or cleared, one delivery says
// that none is active, then nothing until a goal is set again.
import { sanitizeUntrusted } from '../../reminders/envelope';
import { rosterDefinition } from '../../reminders/declaration';
import type { ReminderDefinition } from '../../reminders/definition';
import { GOAL_CURRENT } from './goalReminders';
import { observation, sectionOf as observationSection } from '../../reminders/builtin/observations';

/** The goal as the reminder states it. */
export interface StatedGoal {
	readonly objective: string;
	readonly budget?: number;
	/** The approved plan file it implements, absolute. */
	readonly plan?: string;
	readonly spent: number;
}

export interface GoalCurrentSource {
	/** The active goal, if any. */
	active(): StatedGoal | undefined;
	/** With no active goal: how the last one ended, while the model was last told one was active; else undefined (nothing to say). */
	ended(): { readonly objective: string; readonly how: 'completed' | 'cleared' } | undefined;
	/** The delivery went out: whether it told of an active goal. */
	told(active: boolean): void;
}

/** Where the spend line starts: what on-change leaves out of a recorded body. */
const SPEND_LEAD = 'Spent so far:';

export function tokens(n: number): string {
	return n.toLocaleString('en-US');
}

/** The percentage of `budget` that `spent` is, floored. */
export function percentOf(spent: number, budget: number): number {
	return Math.floor((spent * 100) / budget);
}

export function goalFacts(goal: StatedGoal): string {
	const lines = [
		'The person set this goal for the chat. It carries their authority: work toward it until they complete or clear it.',
		`Objective: ${sanitizeUntrusted(goal.objective)}`,
		goal.budget === undefined
			? 'Token budget: none.'
			: `Token budget: ${tokens(goal.budget)} tokens (input + output of every request, sub-agents included). goal.budget reports 50 %, 80 % and 100 %; at 100 % Aside stops the agent after its step.`,
	];
	if (goal.plan !== undefined) {
		lines.push(`It implements the approved plan in ${sanitizeUntrusted(goal.plan)}.`);
	}
	return lines.join('\n');
}

export function spendLine(goal: StatedGoal): string {
	return goal.budget === undefined ? `${SPEND_LEAD} ${tokens(goal.spent)} tokens.` : `${SPEND_LEAD} ${tokens(goal.spent)} tokens (${percentOf(goal.spent, goal.budget)} % of the budget).`;
}

export function noGoalBody(ended: { readonly objective: string; readonly how: 'completed' | 'cleared' }): string {
	return `No goal is active now: the person ${ended.how === 'completed' ? 'marked the goal complete' : 'cleared the goal'} (${sanitizeUntrusted(ended.objective)}). Do not keep working toward it unless they ask.`;
}

/** A recorded body as on-change compares it: without the spend line and the observation's notice. */
export function goalSection(body: string): string {
	const at = body.lastIndexOf(`\n\n${SPEND_LEAD}`);
	return observationSection(at < 0 ? body : body.slice(0, at));
}

export function goalCurrent(source: GoalCurrentSource): ReminderDefinition {
	const inner = observation(
		rosterDefinition(GOAL_CURRENT, {
			scope: 'session',
			trigger: () => source.active() !== undefined || source.ended() !== undefined,
			content: () => {
				const goal = source.active();
				if (goal) {
					return { body: goalFacts(goal), commit: () => { source.told(true); } };
				}
				const ended = source.ended();
				return ended ? { body: noGoalBody(ended), commit: () => { source.told(false); } } : { body: null };
			},
		}),
		'any-request',
	);
	return {
		...inner,
		sectionOf: goalSection,
		content: (context) => {
			const content = inner.content(context);
			const goal = source.active();
			if (typeof content === 'string' || content.body === null || !goal) {
				return content;
			}
			const notice = content.notice;
			// The spend first: goalSection cuts from it, the observation's notice (when changed) after it.
			return { ...content, notice: (retained) => [spendLine(goal), notice?.(retained) ?? ''].filter((part) => part !== '').join('\n\n') };
		},
	};
}
