// The chat's approved plan, as other parts of the agent read it: the plan workflow (mode.plan,
// the plan card, the plan file) keeps it per chat; the verification suggestion (edits.verify)
// asks whether the plan's "how to verify" is still to be carried out.

/** A plan the person approved in this chat. */
export interface ApprovedPlan {
	/** The plan file, absolute (beside the chat's transcript). */
	readonly file: string;
	/** The plan's Markdown, as approved. */
	readonly text: string;
	/** Its "how to verify" section, when the plan has one. */
	readonly howToVerify?: string;
	/** When it was approved (milliseconds since the epoch). */
	readonly approvedAt: number;
}

/** The current chat's approved plan, if it has one (the latest approval wins). */
export interface ApprovedPlans {
	current(): ApprovedPlan | undefined;
}
