// patch: what placing an ApplyPatch's hunks costs on the extension host's one thread, for hunks
// without an "@@" line (each must be unique below the one before, which used to rescan the rest of
// the file for every hunk), at 50,000 lines × 5,000 hunks and at the caps (a 10 MB file, a patch of
// 1,000,000 characters). The engine pauses every quantum of work (src/tools/patch/steps.ts): the
// longest stretch between two pauses is how long Stop, or anything else on the host, waits at most.
import { loadavg } from 'node:os';
import { EDIT_MAX_FILE_BYTES } from '../src/tools/edit';
import { PATCH_MAX_CHARS } from '../src/tools/applyPatch';
import { changeSteps } from '../src/tools/patch/changes';
import { parsePatch } from '../src/tools/patch/parse';
import { Work, WORK_QUANTUM } from '../src/tools/patch/steps';
import { type BenchRow, heapUsedAfterGc, report, round, summarize } from './harness';

const ITERATIONS = 5;

interface Case {
	readonly name: string;
	readonly file: string;
	readonly patch: string;
	readonly hunks: number;
}

const lineOf = (i: number): string => `const value${i} = compute(${i});`;

/** A file of `lines` distinct lines and a patch changing every `every`-th line, each hunk with one context line either side and no "@@" line. */
function makeCase(name: string, lines: number, every: number, maxPatchChars = Number.POSITIVE_INFINITY): Case {
	const file = Array.from({ length: lines }, (_, i) => `${lineOf(i)}\n`).join('');
	const parts = ['*** Begin Patch', '*** Update File: big.ts'];
	let chars = parts.join('\n').length + '\n*** End Patch'.length;
	let hunks = 0;
	for (let i = 1; i + 1 < lines; i += every) {
		const hunk = ['@@', ` ${lineOf(i - 1)}`, `-${lineOf(i)}`, `+${lineOf(i)} // changed`, ` ${lineOf(i + 1)}`].join('\n');
		if (chars + hunk.length + 1 > maxPatchChars) {
			break;
		}
		parts.push(hunk);
		chars += hunk.length + 1;
		hunks++;
	}
	parts.push('*** End Patch');
	return { name, file, patch: parts.join('\n'), hunks };
}

/** Runs the engine to the end as the tool does (pausing at every yield, here without giving the thread away), timing each stretch between pauses. */
function placeOnce(entry: Case): { readonly totalUs: number; readonly longestSliceUs: number; readonly pauses: number } {
	const steps = changeSteps(parsePatch(entry.patch), () => entry.file, new Work());
	const start = process.hrtime.bigint();
	let sliceStart = start;
	let longest = 0n;
	let pauses = 0;
	for (let next = steps.next(); !next.done; next = steps.next()) {
		const now = process.hrtime.bigint();
		longest = now - sliceStart > longest ? now - sliceStart : longest;
		sliceStart = now;
		pauses++;
	}
	const end = process.hrtime.bigint();
	longest = end - sliceStart > longest ? end - sliceStart : longest;
	return { totalUs: Number(end - start) / 1000, longestSliceUs: Number(longest) / 1000, pauses };
}

function main(): void {
	const capLines = Math.floor(EDIT_MAX_FILE_BYTES / (lineOf(100_000).length + 1));
	const cases = [makeCase('50,000 lines × 5,000 hunks, no "@@" line', 50_000, 10), makeCase(`at the caps: ${capLines.toLocaleString('en-US')} lines (10 MB), a ${PATCH_MAX_CHARS.toLocaleString('en-US')}-character patch`, capLines, 20, PATCH_MAX_CHARS)];
	const rows: BenchRow[] = [];
	for (const entry of cases) {
		placeOnce(entry);
		const samples = new Float64Array(ITERATIONS);
		let longest = 0;
		let pauses = 0;
		const heapBefore = heapUsedAfterGc();
		for (let i = 0; i < ITERATIONS; i++) {
			const once = placeOnce(entry);
			samples[i] = once.totalUs;
			longest = Math.max(longest, once.longestSliceUs);
			pauses = once.pauses;
		}
		const stats = summarize(samples, heapUsedAfterGc() - heapBefore);
		rows.push({ name: `${entry.name} (${entry.hunks.toLocaleString('en-US')} hunks)`, iterations: ITERATIONS, median_ms: round(stats.median_us / 1000), max_ms: round(stats.max_us / 1000), pauses, longest_slice_ms: round(longest / 1000) });
	}
	report({
		case: 'patch',
		title: 'ApplyPatch placing hunks on the host thread',
		target: 'linear in the file plus the patch, with pauses all through it (Stop is seen at each)',
		rows,
		notes: [
			'Each hunk has one context line either side of a changed line and no "@@" line, so the rule that it must occur once below the hunk before it is checked for every hunk. The time is placing the hunks, with splitting and rebuilding the text (changeSteps), one call per iteration after one untimed call; parsing the patch and reading and writing the files are not in it.',
			`"pauses": how often the engine gave the thread back (every ${WORK_QUANTUM.toLocaleString('en-US')} units of work: line comparisons and lines looked at, a line indexed counting four); in the tool each pause is a macrotask, and Stop ends the work at the next one. "longest slice": the longest stretch without a pause. Load average at the end of the run: ${loadavg()[0]?.toFixed(1) ?? '?'} (the machine may be shared).`,
			'Before (every hunk rescanned the rest of the file to prove it unique, with no pause): 38.5 s and 41.4 s for the first row on this machine under the same load (4.9 s on the quieter machine of the first report), and at the caps hunks × lines comparisons: minutes.',
		],
	});
}

main();
