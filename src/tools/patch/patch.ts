// The apply_patch format as data: what parsePatch (parse.ts) returns, what applyHunks (hunks.ts)
// and changesFromPatch (changes.ts) take. The grammar and every decision about it are in
// docs/tools.md ("ApplyPatch format").
import { ToolError } from '../errors';

/** One line of a hunk: kept (`' '`), removed (`-`) or added (`+`); `text` has no line break. */
export interface HunkLine {
	readonly kind: 'context' | 'remove' | 'add';
	readonly text: string;
}

/** One `@@` section of an update. */
export interface Hunk {
	/** The text of its `@@ …` lines, in order: each names a line of the file the hunk is below (none for a bare `@@`). */
	readonly anchors: readonly string[];
	readonly lines: readonly HunkLine[];
	/** Ended by `*** End of File`: its lines are the end of the file. */
	readonly endOfFile: boolean;
	/** Its first line in the patch (1-based). */
	readonly line: number;
}

/**
 * One file operation, with its header's line in the patch (1-based). Paths are relative, with
 * `/` separators, no `.` or `..` segments (patchPath.ts).
 */
export type PatchOperation =
	| { readonly kind: 'add'; readonly path: string; readonly line: number; /** Every line ends with `\n`. */ readonly text: string }
	| { readonly kind: 'delete'; readonly path: string; readonly line: number }
	| { readonly kind: 'update'; readonly path: string; readonly line: number; readonly moveTo?: string; readonly hunks: readonly Hunk[] };

/** A parsed patch: its operations in the order written (at least one). */
export interface Patch {
	readonly operations: readonly PatchOperation[];
}

/**
 * A patch that does not parse or does not apply. A ToolError, so a tool passes the message to the
 * model as it is: it names the patch line, or the file and the hunk, and what was expected.
 */
export class PatchError extends ToolError {
	constructor(
		message: string,
		readonly where: { readonly line?: number; readonly path?: string; readonly hunk?: number } = {},
	) {
		super(message);
	}
}
