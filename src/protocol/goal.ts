// The goal's part of the view protocol (src/features/goal/, webview/goal.ts): the goal control's
// view and its messages, both ways `goal.*`. The union in messages.ts takes them as one line each.
import * as z from 'zod';
import { GOAL_ENDINGS } from '../vocabulary/goal';
import { seq } from './sequence';

export const MAX_GOAL_OBJECTIVE_CHARS = 2000;
export const MAX_GOAL_BUDGET_TOKENS = 1_000_000_000;
/** The chat's goal as the goal control and the context line show it. */
export const GoalView = z.object({
	/** The active goal; null when the chat has none. */
	active: z
		.object({
			objective: z.string().max(MAX_GOAL_OBJECTIVE_CHARS),
			/** The token budget (input + output), when it has one. */
			budget: z.number().int().positive().optional(),
			/** Tokens spent since it was set, sub-agents included. */
			spent: z.number().int().nonnegative(),
			/** Cached prompt tokens those requests read, shown beside the spend and not charged. */
			cacheRead: z.number().int().nonnegative().optional(),
			/** The approved plan file it implements. */
			plan: z.string().max(4000).optional(),
			/** The budget is spent: the agent stops after each step until it is raised. */
			exhausted: z.boolean(),
		})
		.nullable(),
	/** The chat's approved plan file, when it has one: the control offers "implements the approved plan". */
	approvedPlan: z.string().max(4000).optional(),
	/** The chat is written in another window: the control shows the goal and changes nothing. */
	readOnly: z.boolean().optional(),
});
export type GoalView = z.infer<typeof GoalView>;

export const GOAL_HOST_MESSAGES = [
	/** The current chat's goal: after `ready`, on every change (spend included), and when another chat becomes current. */
	z.object({ type: z.literal('goal.changed'), seq, goal: GoalView }),
	/** `/goal` alone in the composer: open the goal control (focus in it). */
	z.object({ type: z.literal('goal.open'), seq }),
] as const;

export const GOAL_VIEW_MESSAGES = [
	/** The goal control's Set / Save / Raise budget: sets the goal, or changes the active one (only the fields given). `budget` null: none. */
	z.object({
		type: z.literal('goal.set'),
		objective: z.string().max(MAX_GOAL_OBJECTIVE_CHARS).optional(),
		budget: z.number().int().positive().max(MAX_GOAL_BUDGET_TOKENS).nullable().optional(),
		implementsPlan: z.boolean().optional(),
	}),
	/** The goal control's Complete or Clear. */
	z.object({ type: z.literal('goal.end'), how: z.enum(GOAL_ENDINGS) }),
] as const;
