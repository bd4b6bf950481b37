// What a step costs a goal's budget (docs/goals.md): its new input and its output. The prompt a
// provider read from its cache was charged when it was first sent; counting it again at every
// step would spend a budget in a few steps of a long chat. Cache reads are kept beside the spend.
import type { AssistantRecord } from '../../transcript/records';

/** A goal's spend so far. */
export interface Spend {
	/** Tokens charged: new input and output. */
	spent: number;
	/** Prompt tokens read from the provider's cache, shown beside the spend and not charged. */
	cacheRead: number;
}

type Usage = NonNullable<AssistantRecord['usage']>;

/** The tokens one answer's request is charged: its input less what was read from cache, and its output. */
export function stepCharge(usage: Usage): number {
	const cached = Math.min(usage.inputTokens, Math.max(0, usage.cacheReadTokens ?? 0));
	return usage.inputTokens - cached + usage.outputTokens;
}

/** Adds one answer's usage to the spend. */
export function chargeStep(spend: Spend, usage: Usage): void {
	spend.spent += stepCharge(usage);
	spend.cacheRead += Math.min(usage.inputTokens, Math.max(0, usage.cacheReadTokens ?? 0));
}
