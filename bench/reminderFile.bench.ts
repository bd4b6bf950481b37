// reminder file diagnostics: what the language server computes on every keystroke in a
// `.aside/reminders/*.md` — parseReminderFile (frontmatter with positions, every field, the body's
// markers and placeholders) on a 200-line file, a valid one and one with a problem on many lines,
// then the whole folder (20 such files, collisions) as the server checks it after each change.
import { ParseCache } from '../src/reminderServer/folders';
import { completionsAt } from '../src/workspaceReminders/editing';
import { parseReminderFile } from '../src/workspaceReminders/reminderFile';
import { parseReminderFolder, withCollisions } from '../src/workspaceReminders/reminderFolder';
import { BUILTIN_VOCABULARY } from '../src/workspaceReminders/vocabulary';
import { type BenchRow, measure, report, round, timerOverheadUs } from './harness';

const LINES = 200;
const LOOP = { warmup: 200, iterations: 2_000 };
const TARGET_MS = 20;

/** A 200-line file: 30 lines of frontmatter (a when with 24 globs), 170 of body with placeholders and escaped characters. */
function reminderFile(index: number, broken: boolean): string {
	const lines = ['---', `key: ${broken ? 'bad key' : `rule-${index}`}`, `label: rule ${index}`, `policy: ${broken ? 'sometimes' : '"interval: 3"'}`, 'when:', '  read:'];
	for (let glob = 0; glob < 24; glob++) {
		lines.push(`    - "src/module${glob}/**/*.{ts,tsx}"`);
	}
	lines.push(`  mode: ${broken ? 'plann' : 'plan'}`, '---');
	while (lines.length < LINES) {
		const n = lines.length;
		lines.push(broken && n % 10 === 0 ? `Line ${n}: {{file}} and a <system-reminder> marker.` : `Line ${n}: when {{files}} change on {{date}} in {{mode}} mode, keep a < b && c > d in mind.`);
	}
	return `${lines.join('\n')}\n`;
}

function main(): void {
	const valid = reminderFile(0, false);
	const broken = reminderFile(0, true);
	const folder = Array.from({ length: 20 }, (_unused, index) => ({ name: `rule-${index}.md`, text: reminderFile(index % 19, index === 7) }));
	if (parseReminderFile(valid).spec === undefined || parseReminderFile(broken).problems.length < 20) {
		throw new Error('the bench files are not what they should be');
	}
	const cache = new ParseCache();
	let edit = 0;
	const cases: readonly { readonly name: string; readonly run: () => number }[] = [
		{ name: `parseReminderFile, valid ${LINES}-line file`, run: () => parseReminderFile(valid).problems.length + 1 },
		{ name: `parseReminderFile, ${LINES}-line file with ${parseReminderFile(broken).problems.length} problems`, run: () => parseReminderFile(broken).problems.length },
		{ name: `parseReminderFolder, 20 files of ${LINES} lines`, run: () => parseReminderFolder(folder).length },
		{ name: 'the same folder, one file edited (the server\'s cached parses)', run: () => {
			edit++;
			return withCollisions(folder.map((file, index) => ({ name: file.name, parsed: cache.parse(file.name, index === 3 ? `${file.text}${edit}\n` : file.text, BUILTIN_VOCABULARY) }))).length;
		} },
		{ name: 'completionsAt, last body line', run: () => completionsAt(valid, { line: LINES - 1, character: 10 }, { vocabulary: BUILTIN_VOCABULARY }).length + 1 },
	];
	const rows: BenchRow[] = cases.map(({ name, run }) => {
		const stats = measure(run, LOOP);
		return { name, iterations: LOOP.iterations, ...stats, target: name.startsWith('parseReminderFile') ? stats.median_us <= TARGET_MS * 1000 : 'n/a' };
	});
	report({
		case: 'reminderFile',
		title: 'reminder file diagnostics',
		target: `diagnostics for a ${LINES}-line reminder file in ≤ ${TARGET_MS} ms (median)`,
		rows,
		notes: [
			`A ${LINES}-line file: 30 lines of frontmatter (key, label, policy, a when with 24 globs each checked by picomatch, a mode), 170 body lines with three placeholders each and characters the envelope escapes. The broken one has a problem in four fields and one every ten body lines (an unknown placeholder and a marker).`,
			`The folder rows: every file of a folder parsed and their keys compared (one of the 20 is broken; two share a key); the server keeps each file's last parse, so after a keystroke it parses the edited file only (the second folder row).`,
			`${LOOP.warmup} warm-up calls, then each call timed alone with process.hrtime.bigint() (timer overhead about ${round(timerOverheadUs(), 3)} µs).`,
		],
	});
}

main();
