// Unified diffs for confirmations and the view. jsdiff gets a time budget: a diff of two large,
// very different texts can otherwise block the extension host for seconds.
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

export const DIFF_TIMEOUT_MS = 1000;
export const DIFF_TOO_LARGE = 'The diff was too large to show.';

/** The unified diff from `before` to `after`, or DIFF_TOO_LARGE when it takes too long. */
export function unifiedDiff(oldName: string, newName: string, before: string, after: string): string {
	const patch = createTwoFilesPatch(oldName, newName, before, after, undefined, undefined, {
		context: 3,
		timeout: DIFF_TIMEOUT_MS,
		headerOptions: FILE_HEADERS_ONLY,
	});
	return patch ?? DIFF_TOO_LARGE;
}
