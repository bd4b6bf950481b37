// The text of a `files.edited` report: what changed in each file the agent had seen, as a diff or,
// when there is none, its new size and why there is no diff; files past the report's bound only
// by name. File names and diffs are outside text, quoted so they cannot forge a reminder.
import { sanitizeUntrusted } from '../reminders/envelope';
import { plural } from '../base/words';
import { formatBytes } from '../tools/text';

/** What the cache will hold of a file once the report is delivered. */
export type Snapshot = { readonly kind: 'content'; readonly bytes: Uint8Array; readonly mtimeMs: number } | { readonly kind: 'fingerprint'; readonly size: number; readonly mtimeMs: number };

/** Why a changed file has no diff. */
export type NoDiff = 'binary' | 'large' | 'fingerprint' | 'bytes' | 'lines' | 'slow' | 'budget';

export type Change =
	| { readonly kind: 'diff'; readonly diff: string; readonly next: Snapshot }
	| { readonly kind: 'changed'; readonly why: NoDiff; readonly size: number; readonly next: Snapshot }
	| { readonly kind: 'maybe'; readonly size: number; readonly next: Snapshot }
	| { readonly kind: 'deleted' };

export interface Prepared {
	readonly path: string;
	readonly shown: string;
	/** The candidate's event count when it was examined: a later event keeps it a candidate. */
	readonly seq: number;
	/** The cache entry's version it was compared with: the commit applies only over that one. */
	readonly version: number;
	readonly change: Change;
}

/** The bounds a report names when it explains a missing diff, as the settings are now. */
export interface ReportLimits {
	/** Files described one by one; the rest are named in a list. */
	readonly maxReportedFiles: number;
	/** The cache keeps no copy of files over this size. */
	readonly maxFileBytes: number;
	readonly maxDiffBytes: number;
	readonly maxDiffLines: number;
}

/** How many of the files past `maxReportedFiles` the list names. */
const MAX_LISTED_NAMES = 20;

export function reportBody(prepared: readonly Prepared[], limits: ReportLimits): string {
	const described = prepared.slice(0, limits.maxReportedFiles).map((item) => describe(item, limits));
	const rest = prepared.slice(limits.maxReportedFiles).map((item) => sanitizeUntrusted(item.shown));
	if (rest.length > 0) {
		const named = rest.slice(0, MAX_LISTED_NAMES).join(', ');
		const more = rest.length > MAX_LISTED_NAMES ? `, and ${plural(rest.length - MAX_LISTED_NAMES, 'more file')}` : '';
		described.push(`${plural(rest.length, 'more file')} changed or were deleted: ${named}${more}. Read any of them again before relying on it.`);
	}
	// What the model needs once per report: these changed outside its tools, by no one known, and what the diffs go between.
	const header = 'These files changed outside Aside\'s tools since you last saw them (who changed them is not known); each diff goes from what you saw to what is on disk now.';
	return [header, ...described].join('\n\n');
}

function describe({ shown, change }: Prepared, limits: ReportLimits): string {
	const name = sanitizeUntrusted(shown);
	const again = 'Read it again before relying on its content.';
	switch (change.kind) {
		case 'deleted':
			return `${name} was deleted.`;
		case 'diff':
			return `${name} changed:\n${sanitizeUntrusted(change.diff)}`;
		case 'maybe':
			return (
				`${name} may have changed: its modification time changed but its size (${formatBytes(change.size)}) did not, ` +
				`and Aside keeps no copy of files over ${formatBytes(limits.maxFileBytes)} to compare. ${again}`
			);
		case 'changed':
			return `${name} changed; it is now ${formatBytes(change.size)}. ${whyNoDiff(change.why, limits)} ${change.why === 'binary' ? '' : again}`.trimEnd();
	}
}

function whyNoDiff(why: NoDiff, limits: ReportLimits): string {
	switch (why) {
		case 'binary':
			return 'It is a binary file, so there is no diff.';
		case 'large':
		case 'fingerprint':
			return `Aside keeps no copy of files over ${formatBytes(limits.maxFileBytes)}, so there is no diff.`;
		case 'bytes':
			return `The two versions are too large to compare (over ${formatBytes(limits.maxDiffBytes)} together).`;
		case 'lines':
			return `The diff is longer than ${plural(limits.maxDiffLines, 'line')}.`;
		case 'slow':
			return 'The diff took too long to compute.';
		case 'budget':
			return 'There is no room left in this reminder for its diff.';
	}
}
