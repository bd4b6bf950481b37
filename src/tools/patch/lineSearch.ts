// Finding a hunk's lines in a file's lines: Knuth–Morris–Pratt over lines, so a search is linear
// in the file plus the hunk whatever the text (a file of identical lines cannot make it quadratic).

export interface LineSearch {
	/** Where the pattern starts, at or after `from`: the first two occurrences at most. */
	readonly matches: readonly number[];
	/** The longest prefix of the pattern found at or after `from` (length 0 when not even its first line is). */
	readonly longest: { readonly at: number; readonly length: number };
}

function prefixTable(pattern: readonly string[]): Int32Array {
	const table = new Int32Array(pattern.length);
	let length = 0;
	for (let i = 1; i < pattern.length; i++) {
		while (length > 0 && pattern[i] !== pattern[length]) {
			length = table[length - 1] ?? 0;
		}
		if (pattern[i] === pattern[length]) {
			length++;
		}
		table[i] = length;
	}
	return table;
}

/** Searches `lines[from…]` for `pattern` (not empty). */
export function searchLines(lines: readonly string[], pattern: readonly string[], from: number): LineSearch {
	const table = prefixTable(pattern);
	const matches: number[] = [];
	let longest = { at: from, length: 0 };
	let length = 0;
	for (let i = from; i < lines.length && matches.length < 2; i++) {
		while (length > 0 && lines[i] !== pattern[length]) {
			length = table[length - 1] ?? 0;
		}
		if (lines[i] === pattern[length]) {
			length++;
		}
		if (length > longest.length) {
			longest = { at: i - length + 1, length };
		}
		if (length === pattern.length) {
			matches.push(i - length + 1);
			length = table[length - 1] ?? 0;
		}
	}
	return { matches, longest };
}
