// A file's text as lines with their own line breaks, and back with a patch's replacements made:
// the linear ends of applying hunks (hunks.ts), which for a file at the size cap are long enough
// to pause in too (steps.ts).
import type { HunkLine } from './patch';
import type { Steps, Work } from './steps';

export interface FileLine {
	readonly text: string;
	/** `\n`, `\r\n`, `\r`, or empty for a last line without one. */
	readonly eol: string;
}

export interface Replacement {
	readonly start: number;
	readonly removed: number;
	/** The hunk's lines in order: its context lines are the file's `removed` lines from `start` it keeps. */
	readonly lines: readonly HunkLine[];
}

/** Lines between two counts of work in the linear loops. */
const CHUNK = 4096;

export function* splitSteps(text: string, work: Work): Steps<FileLine[]> {
	const lines: FileLine[] = [];
	const breaks = /\r\n|\n|\r/g;
	let start = 0;
	for (let match = breaks.exec(text); match; match = breaks.exec(text)) {
		lines.push({ text: text.slice(start, match.index), eol: match[0] });
		start = match.index + match[0].length;
		if (lines.length % CHUNK === 0) {
			yield* work.spend(CHUNK);
		}
	}
	if (start < text.length) {
		lines.push({ text: text.slice(start), eol: '' });
	}
	yield* work.spend(lines.length % CHUNK);
	return lines;
}

/** The line break most lines of the file end with (the first one seen on a tie), for the lines a hunk adds. */
function usualEol(lines: readonly FileLine[]): string {
	const counts = new Map<string, number>();
	for (const { eol } of lines) {
		if (eol !== '') {
			counts.set(eol, (counts.get(eol) ?? 0) + 1);
		}
	}
	let best = '\n';
	let bestCount = 0;
	for (const [eol, count] of counts) {
		if (count > bestCount) {
			best = eol;
			bestCount = count;
		}
	}
	return best;
}

/**
 * The lines with the replacements made: kept lines (a hunk's context lines included) keep their
 * line breaks, added ones get the file's usual one.
 */
export function* rebuildSteps(lines: readonly FileLine[], replacements: readonly Replacement[], work: Work): Steps<string> {
	const eol = usualEol(lines);
	const endsWithBreak = lines.length === 0 || lines.at(-1)?.eol !== '';
	const result: FileLine[] = [];
	// Loops, not push(...slice): spreading a large file's lines overflows the stack.
	const keep = (from: number, to: number) => {
		for (let i = from; i < to; i++) {
			const line = lines[i];
			if (line) {
				result.push(line);
			}
		}
	};
	let next = 0;
	for (const { start, removed, lines: hunkLines } of replacements) {
		keep(next, start);
		let old = start;
		for (const { kind, text } of hunkLines) {
			if (kind === 'add') {
				result.push({ text, eol: '' });
				continue;
			}
			if (kind === 'context') {
				keep(old, old + 1);
			}
			old++;
		}
		yield* work.spend(start - next + hunkLines.length);
		next = start + removed;
	}
	keep(next, lines.length);
	yield* work.spend(lines.length - next);
	// The file ends with a line break exactly when it did: this format cannot say otherwise.
	const texts: string[] = [];
	for (const [i, line] of result.entries()) {
		const last = i === result.length - 1;
		texts.push(line.text + (last && !endsWithBreak ? '' : line.eol || eol));
		if ((i + 1) % CHUNK === 0) {
			yield* work.spend(CHUNK);
		}
	}
	return texts.join('');
}
