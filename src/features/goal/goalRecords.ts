// The records a chat's goal is folded from (docs/goals.md). A chat restore rolls back the goal
// records and the root's goal deliveries of the turns it rolls back, as it rolls back their
// history; not their answers' usage: those requests were paid for, so the spend keeps them.
import { afterRestores } from '../../transcript/replay';
import type { AgentRecord } from '../../transcript/records';
import type { GoalRecord } from './goalRecord';
import type { GoalEnding } from '../../vocabulary/goal';
import type { Active } from './budgetReports';

/** `all` (every record, the sub-agents' included) in order, without what the chat's restores rolled back of the root conversation `root`, every answer kept. */
export function goalRecords(all: readonly AgentRecord[], root: readonly AgentRecord[]): readonly AgentRecord[] {
	if (!root.some((record) => record.kind === 'restore')) {
		return all;
	}
	const kept = new Set(afterRestores(root));
	// A sub-agent's records are no root records: of them the goal reads only its answers' usage.
	return all.filter((record) => record.kind === 'assistant' || kept.has(record));
}

/** How the last goal ended, and its objective (goal.current says it once). */
export interface Ended {
	readonly objective: string;
	readonly how: GoalEnding;
}

/** The goal after one of its records: the active goal (changed in place) and how the last one ended. */
export function takeGoal(
	goal: { readonly active: Active | undefined; readonly ended: Ended | undefined },
	record: GoalRecord,
): { active: Active | undefined; ended: Ended | undefined } {
	const { active } = goal;
	switch (record.change) {
		case 'set':
			return { active: { id: record.goal, objective: record.objective ?? '', budget: record.budget, plan: record.plan, setAt: record.at, spent: 0, cacheRead: 0, told: new Set() }, ended: undefined };
		case 'changed':
			if (active?.id === record.goal) {
				active.objective = record.objective ?? active.objective;
				active.plan = record.plan;
			}
			return { ...goal };
		case 'budget':
			if (active?.id === record.goal) {
				active.budget = record.budget;
				// Judged against the new limit from here: what it already passes was said by the change.
				active.told.clear();
				for (const threshold of record.passed ?? []) {
					active.told.add(threshold);
				}
			}
			return { ...goal };
		case 'completed':
		case 'cleared':
			return active?.id === record.goal ? { active: undefined, ended: { objective: active.objective, how: record.change } } : { ...goal };
		case 'exhausted':
			return { ...goal };
	}
}
