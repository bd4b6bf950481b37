// `goal.budget`: the goal's token budget (src/features/goal/chatGoal.ts, docs/goals.md). The root is told each
// newly passed threshold once — a turn event while its turn runs, else on the pending FIFO (the
// chat's goal decides which, and records what was told as the entry's subjects) — and a budget
// change with its old and new limits. A sub-agent charged to the goal is told the highest
// threshold passed at its next request, by its own roster (on change: once per threshold).
import { sanitizeUntrusted } from '../../reminders/envelope';
import { entryOf, rosterDefinition } from '../../reminders/declaration';
import type { Commit, ReminderDefinition, ReminderSubject, StagedEntry } from '../../reminders/definition';
import { GOAL_BUDGET } from './goalReminders';
import { percentOf, tokens } from './goalCurrent';

/** The thresholds reported, in percent of the budget. */
export const GOAL_THRESHOLDS = [50, 80, 100] as const;

/** The thresholds `spent` has reached of `budget`. */
export function thresholdsPassed(spent: number, budget: number | undefined): number[] {
	return budget === undefined ? [] : GOAL_THRESHOLDS.filter((threshold) => spent * 100 >= threshold * budget);
}

export interface BudgetFacts {
	readonly goal: string;
	readonly objective: string;
	readonly budget: number;
	readonly spent: number;
}

/** A threshold as a subject's identity: a record's `hashes` are hex, 8 digits at least (src/reminders/record.ts). */
function thresholdId(threshold: number): string {
	return threshold.toString(16).padStart(8, '0');
}

/** What a threshold entry records: the goal, and the thresholds it told (a reopened chat reads them back). */
export function thresholdSubjects(goal: string, thresholds: readonly number[]): ReminderSubject[] {
	return [{ ref: `goal:${goal}`, hashes: thresholds.map(thresholdId) }];
}

/** The thresholds a recorded entry's subjects say were told of `goal`. */
export function toldThresholds(goal: string, subjects: readonly ReminderSubject[] | undefined): number[] {
	return (subjects ?? []).filter((subject) => subject.ref === `goal:${goal}`).flatMap((subject) => subject.hashes.map((hash) => Number.parseInt(hash, 16)).filter((n) => Number.isInteger(n) && n > 0));
}

function spentWords(facts: BudgetFacts): string {
	return `${tokens(facts.spent)} of ${tokens(facts.budget)} tokens spent (input + output of every request, sub-agents included)`;
}

/** The root's entry for newly passed thresholds (`thresholds`, ascending). */
export function thresholdBody(facts: BudgetFacts, thresholds: readonly number[]): string {
	const highest = thresholds.at(-1) ?? 0;
	const named = thresholds.map((threshold) => `${threshold} %`).join(', ');
	const lines = [`The goal's token budget: ${named} passed — ${spentWords(facts)}. Objective: ${sanitizeUntrusted(facts.objective)}`];
	lines.push(
		highest >= 100
			? 'The budget is spent: Aside stops the agent after the step that passed it, and each later message of the person gets one step, until they raise the budget. Say where the work stands and what is left.'
			: 'Spend what is left on what matters most for the goal.',
	);
	return lines.join('\n');
}

/** The root's threshold entry, with the subjects that record what it told. */
export function thresholdEntry(facts: BudgetFacts, thresholds: readonly number[], commit: Commit): StagedEntry {
	return { ...entryOf(GOAL_BUDGET), body: thresholdBody(facts, thresholds), reason: `passed ${thresholds.map((t) => `${t} %`).join(', ')} of the goal's budget`, subjects: thresholdSubjects(facts.goal, thresholds), commit };
}

/** The budget changed: the old and new limits, and where the spend stands against the new one. */
export function budgetChangeBody(previous: number | undefined, next: number | undefined, spent: number): string {
	const from = previous === undefined ? 'no budget' : `${tokens(previous)} tokens`;
	const to = next === undefined ? 'no budget' : `${tokens(next)} tokens`;
	const stands = next === undefined ? `${tokens(spent)} tokens spent so far; no threshold is reported any more.` : `${tokens(spent)} tokens spent so far (${percentOf(spent, next)} % of the new budget); thresholds are judged against the new limit from now on.`;
	return `The person changed the goal's token budget from ${from} to ${to}. ${stands}`;
}

export function budgetChangeEntry(previous: number | undefined, next: number | undefined, spent: number): StagedEntry {
	return { ...entryOf(GOAL_BUDGET), body: budgetChangeBody(previous, next, spent), reason: 'the person changed the goal\'s budget' };
}

/** What a sub-agent is told: the highest threshold the goal it is charged to has passed (no spend: on change compares it). */
export function agentBudgetBody(budget: number, highest: number): string {
	return highest >= 100
		? `The chat's goal budget of ${tokens(budget)} tokens, which your work is charged to, is spent. Finish your task now and return your result, saying what is left undone.`
		: `The chat's goal budget of ${tokens(budget)} tokens, which your work is charged to: ${highest} % passed. Keep your work to what the task needs.`;
}

export interface AgentBudgetSource {
	/** The active goal's budget facts and the highest threshold passed, when one was. */
	passed(): { readonly facts: BudgetFacts; readonly highest: number } | undefined;
}

/** A sub-agent's own goal.budget: on change, so each invocation hears of each higher threshold once. */
export function agentGoalBudget(source: AgentBudgetSource): ReminderDefinition {
	return rosterDefinition(GOAL_BUDGET, {
		// 'all' so every invocation's roster gets a copy at spawn; the root is told by the chat's goal instead.
		scope: 'all',
		trigger: ({ owner }) => owner.kind === 'agent' && source.passed() !== undefined,
		content: () => {
			const passed = source.passed();
			// Only the budget and the threshold: on change fires again for a higher one, never for more spend.
			return passed ? { body: agentBudgetBody(passed.facts.budget, passed.highest) } : { body: null };
		},
	});
}
