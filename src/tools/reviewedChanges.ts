// A change set the person reviewed and accepted: applied as they left the proposed side (their own
// revision, if they changed it), all or nothing, through the same applyChanges as any write. The
// result says when what was applied is not the proposal, with the diff proposed → applied, and a
// change that can no longer apply (a file changed while its review was open) is refused with the
// person's revision in the message, so nothing they typed is lost.
import { errorMessage } from '../base/errors';
import { type ChangePlan, type FileChange, applyChanges, changeKind, diffDetail } from './changes';
import { unifiedDiff } from './diff';
import { ToolError } from './errors';
import { changedSinceReadMessage } from './staleWrite';
import { plural } from '../base/words';
import type { ToolContext, ToolResult } from './tool';

/** How much of the diff proposed → applied the model reads; the rest is cut and the cut said. */
export const REVISION_DIFF_MAX_CHARS = 8000;

export interface ReviewedApplication {
	readonly result: ToolResult;
	/** The files (as shown) whose proposed text the person changed; empty when they accepted it as proposed. */
	readonly revised: readonly string[];
}

/**
 * The plan with each proposed text replaced by what the review's proposed side holds now. A
 * deletion stays a deletion (its proposed side is empty and not the person's to fill); a side the
 * review could not read (`undefined`) keeps the proposal.
 */
export function revisedChanges(plan: ChangePlan, proposedSides: readonly (string | null | undefined)[]): readonly FileChange[] {
	return plan.changes.map((change, index) => {
		const side = proposedSides[index];
		return changeKind(change) === 'delete' || side === undefined || side === null ? change : { ...change, after: side };
	});
}

/** The diff from the model's proposal to what the person left, per revised file, cut at `max` characters. */
export function revisionDiff(proposed: readonly FileChange[], applied: readonly FileChange[], max = REVISION_DIFF_MAX_CHARS): string {
	const diffs = applied.flatMap((change, index) => {
		const original = proposed[index];
		return original && original.after !== change.after ? [unifiedDiff(`${change.shown} (proposed)`, `${change.shown} (applied)`, original.after ?? '', change.after ?? '')] : [];
	});
	const whole = diffs.join('');
	return whole.length <= max ? whole : `${whole.slice(0, max)}\n[… ${plural(whole.length - max, 'more character')} of the diff cut]\n`;
}

/** The message for a file whose text changed while its review was open: nothing is written over it. */
export function changedDuringReview(shown: string): string {
	return `${changedSinceReadMessage(shown)} It changed while the review of this change was open; the newer text was kept as it is.`;
}

/** Applies the accepted change set as the person left it; never throws for the change's sake. */
export async function applyReviewed(
	plan: ChangePlan,
	proposedSides: readonly (string | null | undefined)[],
	context: ToolContext,
	tool: string,
): Promise<ReviewedApplication> {
	const applied = revisedChanges(plan, proposedSides);
	const revised = applied.filter((change, index) => change.after !== plan.changes[index]?.after).map((change) => change.shown);
	const diff = revised.length > 0 ? revisionDiff(plan.changes, applied) : '';
	try {
		const touched = await applyChanges(applied, context, { tool, stale: changedDuringReview });
		const content =
			revised.length === 0
				? plan.summary
				: `${plan.summary}\nThe user revised your proposed text of ${revised.join(', ')} in the diff editor before accepting it: what was applied is their text, not your proposal. The diff from your proposal to what was applied:\n${diff}`;
		return { result: { content, detail: diffDetail(applied), touched }, revised };
	} catch (error) {
		const why = error instanceof ToolError ? error.message : `${tool} failed: ${errorMessage(error)}`;
		// The person's revision was not applied: it rides in the message, so it is not lost.
		const kept = revised.length === 0 ? '' : `\nThe user had revised your proposal before accepting it; their revision was not applied either. The diff from your proposal to their text:\n${diff}`;
		return { result: { isError: true, content: `${why}${kept}` }, revised: [] };
	}
}
