// What "Preview Workspace Reminder" says of a file, decided on the same analysis the language
// server publishes as the file's problems (src/reminderServer/folders.ts: the file with its
// folder, so a key another file declares counts), so the verdict names the problems the Problems
// view shows, and counts them as it does. A file that is no reminder file is refused, never
// parsed: it has no problems to claim.
import { plural } from '../base/words';
import type { AnalyzedReminderFile } from './reminderFile';
import type { ReminderFileProblem, WorkspaceReminderSpec } from './spec';

export type PreviewVerdict =
	| { readonly kind: 'not-a-reminder-file' }
	| { readonly kind: 'not-sent'; readonly problems: readonly ReminderFileProblem[] }
	| { readonly kind: 'previewable'; readonly spec: WorkspaceReminderSpec };

/** How many problems the refusal quotes; the rest are counted. */
const QUOTED_PROBLEMS = 3;

/** The verdict on a reminder file, from its analysis with its folder; `undefined`: not a reminder file. */
export function previewVerdict(analysis: AnalyzedReminderFile | undefined): PreviewVerdict {
	if (analysis === undefined) {
		return { kind: 'not-a-reminder-file' };
	}
	return analysis.spec ? { kind: 'previewable', spec: analysis.spec } : { kind: 'not-sent', problems: analysis.problems };
}

/** What the person is told when there is no preview (`shown`: the file as the workbench names it). */
export function refusalOf(verdict: Exclude<PreviewVerdict, { kind: 'previewable' }>, shown: string): string {
	if (verdict.kind === 'not-a-reminder-file') {
		return `Aside: Preview Workspace Reminder previews a workspace reminder file (.aside/reminders/<name>.md); ${shown} is not one.`;
	}
	const { problems } = verdict;
	if (problems.length === 0) {
		return `Aside: ${shown} is not sent; see the Problems view.`;
	}
	// In file order, as the Problems view lists them.
	const inOrder = [...problems].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
	const quoted = inOrder.slice(0, QUOTED_PROBLEMS).map((problem) => `line ${problem.range.start.line + 1}: ${problem.message}`);
	const more = problems.length > QUOTED_PROBLEMS ? ` … and ${(problems.length - QUOTED_PROBLEMS).toLocaleString('en-US')} more.` : '';
	return `Aside: ${shown} is not sent while it has ${plural(problems.length, 'problem')} (shown in the Problems view): ${quoted.join(' ')}${more}`;
}
