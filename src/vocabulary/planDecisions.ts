// The person's decisions on a proposed plan, defined once: the transcript's record, the agent's
// plan state and the protocol's rows take them from here. No imports, so the webview's bundle
// may share it through src/protocol/.

/** The plan card's Approve, Revise and Reject, as recorded. */
export const PLAN_DECISIONS = ['approved', 'revised', 'rejected'] as const;
export type PlanDecision = (typeof PLAN_DECISIONS)[number];
