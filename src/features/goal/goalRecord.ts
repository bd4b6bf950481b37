// The goal's record kind: every change of a chat's goal is one `goal` record, so a reopened chat
// has its goal again. Registered with the transcript by the feature list (feature.ts).
import * as z from 'zod';
import { declareRecord } from '../../base/recordDeclaration';
import { CHAT_STATE, type FeatureRecordKind } from '../../transcript/recordKinds';
import { GOAL_CHANGES } from '../../vocabulary/goal';

/**
 * The chat's goal (chatGoal.ts, docs/goals.md): set, its objective or plan changed, its
 * budget changed, completed, cleared, or the agent stopped because its budget was spent
 * (`exhausted`). Chat-wide, never `agent`. Spend is never stored: it is the usage of the
 * assistant records after the goal's `set` record.
 */
export const GoalRecord = z.object({
	kind: z.literal('goal'),
	id: z.string().min(1),
	at: z.number(),
	change: z.enum(GOAL_CHANGES),
	/** The goal this record is about: the id of its `set` record. */
	goal: z.string().min(1),
	/** `set` / `changed`: the objective as the person wrote it. */
	objective: z.string().optional(),
	/** The token budget after this record (input + output tokens); absent: none. */
	budget: z.number().int().positive().optional(),
	/** The approved plan file it implements, absolute; absent: none. */
	plan: z.string().optional(),
	/** `budget`: the limit before the change (absent: there was none). */
	previousBudget: z.number().int().positive().optional(),
	/** `budget`: the thresholds (percent) already passed under the new limit, so counted as told by this change. */
	passed: z.array(z.number().int().positive()).optional(),
	/** `exhausted`: the tokens spent when the agent stopped. */
	spent: z.number().int().nonnegative().optional(),
});
export const GOAL_RECORD = declareRecord(GoalRecord);

export type GoalRecord = z.infer<typeof GoalRecord>;

declare module '../../transcript/records' {
	interface FeatureRecords {
		goal: GoalRecord;
	}
}

/** The goal is the chat's (never a sub-agent's), reaches the model as goal.current, and the goal line shows it: no row. */
export const GOAL_RECORD_KIND: FeatureRecordKind = { declaration: GOAL_RECORD, traits: CHAT_STATE };
