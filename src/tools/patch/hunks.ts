// applyHunks: one update's hunks applied to a file's text → the new text, or a PatchError naming
// the file and the hunk whose lines are not where it says. Strict: context and removed lines match
// the file exactly (whitespace included); the file's line breaks, byte-order mark and missing
// final newline are kept. Why strict, and the rest of the rules: docs/tools.md ("ApplyPatch format").
import { hasNeutralisedMarker, restoreNeutralisedMarkers } from '../../reminders/envelope';
import { truncateChars } from '../text';
import { searchLines } from './lineSearch';
import { type Hunk, type HunkLine, PatchError } from './patch';

interface FileLine {
	readonly text: string;
	/** `\n`, `\r\n`, `\r`, or empty for a last line without one. */
	readonly eol: string;
}

interface Replacement {
	readonly start: number;
	readonly removed: number;
	/** The hunk's lines in order: its context lines are the file's `removed` lines from `start` it keeps. */
	readonly lines: readonly HunkLine[];
}

function splitFile(text: string): FileLine[] {
	const lines: FileLine[] = [];
	const breaks = /\r\n|\n|\r/g;
	let start = 0;
	for (let match = breaks.exec(text); match; match = breaks.exec(text)) {
		lines.push({ text: text.slice(start, match.index), eol: match[0] });
		start = match.index + match[0].length;
	}
	if (start < text.length) {
		lines.push({ text: text.slice(start), eol: '' });
	}
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

function quote(text: string): string {
	return JSON.stringify(truncateChars(text, 120));
}

/**
 * The text of file `path` (its text `before`) after `hunks`, applied in order: each hunk's lines are
 * looked for below the previous hunk (and below its `@@` lines), never above.
 */
export function applyHunks(path: string, before: string, hunks: readonly Hunk[]): string {
	const bom = before.startsWith('\uFEFF') ? '\uFEFF' : '';
	const lines = splitFile(before.slice(bom.length));
	const texts = lines.map((line) => line.text);
	const replacements: Replacement[] = [];
	let cursor = 0;
	hunks.forEach((hunk, index) => {
		const where = new HunkPlace(path, hunk, index, hunks.length);
		const replacement = place(texts, hunk, cursor, where) ?? (needsRestoring(hunk) ? place(texts, restoreMarkers(hunk), cursor, where) : undefined);
		if (!replacement) {
			throw where.error(diagnose(texts, hunk, cursor));
		}
		replacements.push(replacement);
		cursor = replacement.start + replacement.removed;
	});
	return bom + rebuild(lines, replacements);
}

/** What a message says of the hunk: `src/a.ts, hunk 2 of 3 (patch line 14)`. */
class HunkPlace {
	constructor(
		readonly path: string,
		readonly hunk: Hunk,
		readonly index: number,
		readonly total: number,
	) {}

	error(message: string): PatchError {
		const of = this.total > 1 ? ` of ${this.total}` : '';
		return new PatchError(`${this.path}, hunk ${this.index + 1}${of} (patch line ${this.hunk.line}): ${message}`, {
			path: this.path,
			hunk: this.index + 1,
			line: this.hunk.line,
		});
	}
}

function oldLines(hunk: Hunk): string[] {
	return hunk.lines.filter((line) => line.kind !== 'add').map((line) => line.text);
}

/** Below the hunk's `@@` lines (each a line of the file, whitespace around it aside), or -1 with the anchor not found. */
function belowAnchors(texts: readonly string[], hunk: Hunk, cursor: number): { readonly from: number; readonly missing?: string } {
	let from = cursor;
	for (const anchor of hunk.anchors) {
		let found = -1;
		for (let i = from; i < texts.length; i++) {
			if (texts[i]?.trim() === anchor) {
				found = i;
				break;
			}
		}
		if (found === -1) {
			return { from, missing: anchor };
		}
		from = found + 1;
	}
	return { from };
}

/**
 * Where the hunk goes, or undefined when its lines are not there (diagnose says why). Without an
 * `@@` line its old lines must occur once below the cursor (the format's own rule: context that
 * is not unique needs an `@@` line); below an `@@` line the first occurrence is the one meant.
 */
function place(texts: readonly string[], hunk: Hunk, cursor: number, where: HunkPlace): Replacement | undefined {
	const { from, missing } = belowAnchors(texts, hunk, cursor);
	if (missing !== undefined) {
		return undefined;
	}
	const old = oldLines(hunk);
	const { lines } = hunk;
	if (old.length === 0) {
		if (hunk.endOfFile) {
			return { start: texts.length, removed: 0, lines };
		}
		if (hunk.anchors.length > 0 || texts.length === 0) {
			return { start: from, removed: 0, lines };
		}
		throw where.error('it only adds lines and has no context to place them: start it with a line of the file to keep (" " prefix), give an "@@" line it goes below, or end it with "*** End of File" to add at the end.');
	}
	if (hunk.endOfFile) {
		const start = texts.length - old.length;
		return start >= from && old.every((line, i) => texts[start + i] === line) ? { start, removed: old.length, lines } : undefined;
	}
	const { matches } = searchLines(texts, old, from);
	const [first, second] = matches;
	if (first === undefined) {
		return undefined;
	}
	if (second !== undefined && hunk.anchors.length === 0) {
		throw where.error(`its context and removed lines occur more than once (at lines ${first + 1} and ${second + 1}${cursor > 0 ? `, below line ${cursor}` : ''}), so where it goes is ambiguous: add context lines, or an "@@" line naming the function or class it is in.`);
	}
	return { start: first, removed: old.length, lines };
}

function needsRestoring(hunk: Hunk): boolean {
	return hunk.anchors.some(hasNeutralisedMarker) || hunk.lines.some((line) => line.kind !== 'add' && hasNeutralisedMarker(line.text));
}

/**
 * The hunk as the file has it: the model read outside text with `<system-reminder` shown as
 * `‹system-reminder` (as Edit does, see docs/tools.md), and its `+` lines get the same `<` back.
 */
function restoreMarkers(hunk: Hunk): Hunk {
	return {
		...hunk,
		anchors: hunk.anchors.map(restoreNeutralisedMarkers),
		lines: hunk.lines.map((line) => ({ kind: line.kind, text: restoreNeutralisedMarkers(line.text) })),
	};
}

/** Why the hunk's lines are not where it says, in words the model can act on. */
function diagnose(texts: readonly string[], hunk: Hunk, cursor: number): string {
	const { from, missing } = belowAnchors(texts, hunk, cursor);
	const below = from > 0 ? ` below line ${from}` : '';
	if (missing !== undefined) {
		const anywhere = texts.some((text) => text.trim() === missing);
		return anywhere
			? `its "@@ ${truncateChars(missing, 120)}" line is in the file only above line ${from + 1}, where this hunk may start: hunks go in the order of the file, each below the previous one.`
			: `its "@@" line ${quote(missing)} is not a line of the file${below}.`;
	}
	const old = oldLines(hunk);
	const exact = searchLines(texts, old, from);
	const [elsewhere] = exact.matches;
	if (hunk.endOfFile && elsewhere !== undefined) {
		return `its context and removed lines are at line ${elsewhere + 1}, but "*** End of File" says they are the last lines of the file (line ${texts.length} is the last).`;
	}
	const [above] = searchLines(texts, old, 0).matches;
	if (above !== undefined && above < from) {
		return `its context and removed lines are at line ${above + 1}, above line ${from + 1} where this hunk may start: hunks go in the order of the file, each below the previous one${hunk.anchors.length > 0 ? ' and below its "@@" lines' : ''}.`;
	}
	for (const [normal, what] of [
		[(text: string) => text.trimEnd(), 'trailing whitespace'],
		[(text: string) => text.trim(), 'indentation'],
	] as const) {
		const [loose] = searchLines(texts.map(normal), old.map(normal), from).matches;
		if (loose !== undefined) {
			const offset = old.findIndex((line, i) => texts[loose + i] !== line);
			return `its lines are at line ${loose + 1} with different ${what}: line ${loose + offset + 1} of the file is ${quote(texts[loose + offset] ?? '')}, the hunk has ${quote(old[offset] ?? '')}. Context and removed lines must match the file exactly, whitespace included.`;
		}
	}
	const { longest } = exact;
	if (longest.length === 0) {
		return `its first context or removed line ${quote(old[0] ?? '')} is not in the file${below}. Copy context and removed lines exactly from the file as it is now.`;
	}
	const differs = longest.at + longest.length;
	const fileHas = differs < texts.length ? `the file has ${quote(texts[differs] ?? '')}` : 'the file ends there';
	return `its first ${longest.length === 1 ? 'line matches' : `${longest.length} lines match`} at line ${longest.at + 1}, then line ${differs + 1} differs: ${fileHas}, the hunk expects ${quote(old[longest.length] ?? '')}. Copy context and removed lines exactly from the file as it is now.`;
}

/**
 * The lines with the replacements made: kept lines (a hunk's context lines included) keep their
 * line breaks, added ones get the file's usual one.
 */
function rebuild(lines: readonly FileLine[], replacements: readonly Replacement[]): string {
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
		next = start + removed;
	}
	keep(next, lines.length);
	// The file ends with a line break exactly when it did: this format cannot say otherwise.
	return result
		.map((line, i) => {
			const last = i === result.length - 1;
			return line.text + (last && !endsWithBreak ? '' : line.eol || eol);
		})
		.join('');
}
