// The goal's words, defined once: the transcript's goal record, the goal feature and the
// protocol's goal line take them from here. No imports.

/** How a goal record changes the chat's goal. */
export const GOAL_CHANGES = ['set', 'changed', 'budget', 'completed', 'cleared', 'exhausted'] as const;
export type GoalChange = (typeof GOAL_CHANGES)[number];

/** How the person ends a goal from the view. */
export const GOAL_ENDINGS = ['completed', 'cleared'] as const;
export type GoalEnding = (typeof GOAL_ENDINGS)[number];
