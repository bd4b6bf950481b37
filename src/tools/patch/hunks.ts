// applyHunks: one update's hunks applied to a file's text → the new text, or a PatchError naming
// the file and the hunk whose lines are not where it says. Strict: context and removed lines match
// the file exactly (whitespace included); the file's line breaks, byte-order mark and missing
// final newline are kept. Why strict, and the rest of the rules: docs/tools.md ("ApplyPatch format").
// Placing the hunks is linear in the file plus the patch (lineIndex.ts), and pauses (steps.ts).
import { hasNeutralisedMarker, restoreNeutralisedMarkers } from '../../reminders/envelope';
import { truncateChars } from '../text';
import { rebuildSteps, type Replacement, splitSteps } from './fileLines';
import { LineIndex } from './lineIndex';
import { searchLines } from './lineSearch';
import { type Hunk, PatchError } from './patch';
import { runToEnd, type Steps, Work } from './steps';

function quote(text: string): string {
	return JSON.stringify(truncateChars(text, 120));
}

/**
 * The text of file `path` (its text `before`) after `hunks`, applied in order: each hunk's lines are
 * looked for below the previous hunk (and below its `@@` lines), never above.
 */
export function applyHunks(path: string, before: string, hunks: readonly Hunk[]): string {
	return runToEnd(hunkSteps(path, before, hunks, new Work()));
}

/** applyHunks, pausing every quantum of `work`. */
export function* hunkSteps(path: string, before: string, hunks: readonly Hunk[], work: Work): Steps<string> {
	const bom = before.startsWith('\uFEFF') ? '\uFEFF' : '';
	const lines = yield* splitSteps(before.slice(bom.length), work);
	const texts = lines.map((line) => line.text);
	const index = yield* LineIndex.build(texts, work);
	const replacements: Replacement[] = [];
	let cursor = 0;
	for (const [i, hunk] of hunks.entries()) {
		const where = new HunkPlace(path, hunk, i, hunks.length);
		const replacement = (yield* place(index, hunk, cursor, where, work)) ??
			(needsRestoring(hunk) ? yield* place(index, restoreMarkers(hunk), cursor, where, work) : undefined);
		if (!replacement) {
			throw where.error(diagnose(texts, hunk, cursor));
		}
		replacements.push(replacement);
		cursor = replacement.start + replacement.removed;
	}
	return bom + (yield* rebuildSteps(lines, replacements, work));
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
function* place(index: LineIndex, hunk: Hunk, cursor: number, where: HunkPlace, work: Work): Steps<Replacement | undefined> {
	const { texts } = index;
	const { from, missing } = belowAnchors(texts, hunk, cursor);
	// The anchors' scan is forward from the cursor, and the cursor passes it: linear over the hunks.
	yield* work.spend(from - cursor + 1);
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
	const [first, second] = yield* index.find(old, from, hunk.anchors.length === 0 ? 2 : 1, work);
	if (first === undefined) {
		return undefined;
	}
	if (second !== undefined) {
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
