// Whether a file really changed since the agent saw it, and the bounded unified diff between the
// two versions. Each call is synchronous and bounded (input bytes, edit length, a time limit), so
// callers can run one file per event-loop turn without blocking the extension host for long.
import { structuredPatch } from 'diff';
import { BINARY_SAMPLE_BYTES } from '../tools/text';

/** Longer diffs are not shown: the file is said to have changed, with advice to read it again. */
export const DEFAULT_MAX_DIFF_LINES = 200;
/** Old and new bytes together; past this, diffing costs more than a re-read is worth. */
export const DEFAULT_MAX_DIFF_BYTES = 256 * 1024;
/** jsdiff's own time limit per file: the longest one file's diff may hold the event loop. */
export const DEFAULT_DIFF_TIMEOUT_MS = 500;

export interface DiffLimits {
	readonly maxDiffLines: number;
	readonly maxDiffBytes: number;
	readonly timeoutMs: number;
}

export type DiffOutcome =
	| { readonly kind: 'diff'; readonly text: string; readonly lines: number }
	| { readonly kind: 'too-large'; readonly reason: 'bytes' | 'lines' | 'slow' };

/** A NUL byte in the first 8 KB, as git decides. */
export function isBinary(bytes: Uint8Array): boolean {
	return bytes.subarray(0, BINARY_SAMPLE_BYTES).includes(0);
}

// Not fatal: a bad sequence becomes U+FFFD, never an error or a question about the encoding.
const decoder = new TextDecoder('utf-8');

/** The text as the model sees it through Read: UTF-8, no BOM, line breaks as `\n`. */
export function decodeText(bytes: Uint8Array): string {
	return decoder.decode(bytes).replace(/\r\n?/g, '\n');
}

/**
 * Whether two versions hold the same content. Text compares as the model sees it, so a BOM or
 * line endings the editor changed on save (after one of Aside's own writes) are not a change.
 */
export function sameContent(before: Uint8Array, after: Uint8Array): boolean {
	if (Buffer.compare(before, after) === 0) {
		return true;
	}
	if (isBinary(before) || isBinary(after)) {
		return false;
	}
	// Without a BOM or a CR, different bytes are different text: no need to decode a megabyte.
	if (!hasBomOrCr(before) && !hasBomOrCr(after)) {
		return false;
	}
	return decodeText(before) === decodeText(after);
}

function hasBomOrCr(bytes: Uint8Array): boolean {
	return (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) || bytes.includes(0x0d);
}

/** Lines of unchanged context around each change: enough to place it, not to restate the file. */
export const DIFF_CONTEXT_LINES = 1;

/**
 * The hunks of the unified diff from `before` to `after`, or why it is not shown. No `---`/`+++`
 * header: the report names the file just before its diff. jsdiff stops early once the edit length
 * passes maxDiffLines (such a diff could not fit anyway) or the time limit passes, which bounds
 * the work even for two very different texts.
 */
export function boundedDiff(name: string, before: Uint8Array, after: Uint8Array, limits: DiffLimits, now: () => number = Date.now): DiffOutcome {
	if (before.length + after.length > limits.maxDiffBytes) {
		return { kind: 'too-large', reason: 'bytes' };
	}
	const started = now();
	const patch = structuredPatch(name, name, decodeText(before), decodeText(after), undefined, undefined, {
		context: DIFF_CONTEXT_LINES,
		timeout: limits.timeoutMs,
		maxEditLength: limits.maxDiffLines,
	});
	if (patch === undefined) {
		return { kind: 'too-large', reason: now() - started >= limits.timeoutMs ? 'slow' : 'lines' };
	}
	const lines = patch.hunks.map(placed).flatMap((hunk) => [`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines]);
	if (lines.length > limits.maxDiffLines) {
		return { kind: 'too-large', reason: 'lines' };
	}
	return { kind: 'diff', text: lines.join('\n'), lines: lines.length };
}

interface Hunk {
	readonly oldStart: number;
	readonly oldLines: number;
	readonly newStart: number;
	readonly newLines: number;
	readonly lines: readonly string[];
}

/**
 * A hunk that removes lines is placed by them (and its line numbers), so its outer context lines
 * only restate what the model saw: they are dropped. A hunk that only adds lines keeps them.
 */
function placed(hunk: Hunk): Hunk {
	if (!hunk.lines.some((line) => line.startsWith('-'))) {
		return hunk;
	}
	let first = 0;
	let last = hunk.lines.length;
	while (first < last && hunk.lines[first]?.startsWith(' ')) {
		first++;
	}
	while (last > first && hunk.lines[last - 1]?.startsWith(' ')) {
		last--;
	}
	const trailing = hunk.lines.length - last;
	return {
		oldStart: hunk.oldStart + first,
		oldLines: hunk.oldLines - first - trailing,
		newStart: hunk.newStart + first,
		newLines: hunk.newLines - first - trailing,
		lines: hunk.lines.slice(first, last),
	};
}

/** A hunk's range as unified diffs write it: `start,count`, `start` alone for one line, `start-1,0` for none. */
function range(start: number, count: number): string {
	if (count === 1) {
		return `${start}`;
	}
	return `${count === 0 ? start - 1 : start},${count}`;
}
