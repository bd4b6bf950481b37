// What a chat's goal is (docs/goals.md), as the goal (goal.ts), the view and `/goal` share it:
// the goal as it stands, what the person may ask of it, and the checks its input passes.

/** The longest objective a goal takes. */
export const MAX_OBJECTIVE_CHARS = 2000;
/** The largest budget a goal takes (a billion tokens: far past any chat). */
export const MAX_BUDGET_TOKENS = 1_000_000_000;

/** The chat's goal as it stands. */
export interface Goal {
	/** The id of its `set` record. */
	readonly id: string;
	readonly objective: string;
	readonly budget?: number;
	/** The approved plan file it implements, absolute. */
	readonly plan?: string;
	readonly setAt: number;
	/** New input + output tokens of the requests recorded since it was set (goalSpend.ts). */
	readonly spent: number;
	/** Prompt tokens those requests read from the provider's cache: shown, not charged. */
	readonly cacheRead: number;
	/** Its budget is spent: the agent stops after each step until it is raised. */
	readonly exhausted: boolean;
}

/** What the person asks of the goal (the goal control, `/goal`). */
export interface GoalUpdate {
	readonly objective?: string;
	/** null: no budget. */
	readonly budget?: number | null;
	/** Whether it implements the chat's approved plan (refused when there is none). */
	readonly implementsPlan?: boolean;
}

/** A change the goal refused; its message is for the person, and nothing changed. */
export class GoalError extends Error {
	override readonly name = 'GoalError';
}

export function checkObjective(text: string): string {
	const objective = text.trim();
	if (objective === '') {
		throw new GoalError('Say what the goal is: the objective is empty.');
	}
	if (objective.length > MAX_OBJECTIVE_CHARS) {
		throw new GoalError(`The objective has ${objective.length.toLocaleString('en-US')} characters; at most ${MAX_OBJECTIVE_CHARS.toLocaleString('en-US')}.`);
	}
	return objective;
}

export function checkBudget(budget: number | null): number | undefined {
	if (budget === null) {
		return undefined;
	}
	if (!Number.isInteger(budget) || budget <= 0 || budget > MAX_BUDGET_TOKENS) {
		throw new GoalError(`A token budget is a whole number of tokens from 1 to ${MAX_BUDGET_TOKENS.toLocaleString('en-US')}.`);
	}
	return budget;
}
