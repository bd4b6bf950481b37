// How much a mention attaches: the bounds (the `aside.mentions.*` settings, src/vscode/settings.ts)
// and the one way a text is cut to them, line by line. Shared by file, PDF and selection mentions.
import { truncateUtf8, utf8Length } from '../tools/text';

export interface MentionLimits {
	/** A file larger than this is refused (its size is said). */
	readonly maxFileBytes: number;
	/** What one file (or a selection) attaches at most: lines, and bytes. */
	readonly maxLines: number;
	readonly maxBytes: number;
	readonly maxFolderEntries: number;
	readonly maxProblems: number;
	/** Of the whole `@changes` diff. */
	readonly maxDiffBytes: number;
}

export const DEFAULT_MENTION_LIMITS: MentionLimits = {
	maxFileBytes: 4 * 1024 * 1024,
	maxLines: 500,
	maxBytes: 32 * 1024,
	maxFolderEntries: 200,
	maxProblems: 50,
	maxDiffBytes: 64 * 1024,
};

/** The lines from `first`, as many as the bounds allow, up to `last`. */
export function takeLines(lines: readonly string[], first: number, last: number, limits: MentionLimits): { text: string; last: number } {
	const taken: string[] = [];
	let bytes = 0;
	for (let line = first; line <= last && taken.length < limits.maxLines; line++) {
		const text = lines[line - 1] ?? '';
		const size = utf8Length(text) + 1;
		if (taken.length > 0 && bytes + size > limits.maxBytes) {
			break;
		}
		// A single line longer than the bound is cut itself rather than left out.
		taken.push(size > limits.maxBytes ? truncateUtf8(text, limits.maxBytes) : text);
		bytes += size;
	}
	return { text: taken.join('\n'), last: first + taken.length - 1 };
}
