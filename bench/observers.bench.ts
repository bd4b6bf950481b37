// observers: the edited-files check at WAIT over a large cache, and diff preparation for big
// files — with the longest time the event loop was blocked while it ran, since that is what
// the extension host (and every other extension in it) feels.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { EditedFiles } from '../src/observe/editedFiles';
import { FakeFileEvents } from '../src/testing/fakeFileEvents';
import { NodeWorkspaceFs } from '../src/testing/nodeWorkspace';
import { type BenchRow, consume, report, round } from './harness';

const CACHED = 10_000;
const LINE = 'export function handler(request: Request): Response { return respond(request); }\n';

function source(lines: number, salt: string): string {
	return Array.from({ length: lines }, (_, index) => `${LINE.slice(0, -1)} // ${salt}${index}\n`).join('');
}

interface Timed {
	readonly median_us: number;
	readonly p99_us: number;
	readonly max_us: number;
	readonly blocked_ms: number;
}

/**
 * Times `run` `iterations` times, after an untimed `before` each time; `blocked_ms` is the longest
 * event-loop delay seen meanwhile.
 */
async function time(before: () => void, run: () => Promise<number>, iterations: number): Promise<Timed> {
	const histogram = monitorEventLoopDelay({ resolution: 1 });
	const samples: number[] = [];
	histogram.enable();
	for (let index = 0; index < iterations; index++) {
		before();
		const start = process.hrtime.bigint();
		consume(await run());
		samples.push(Number(process.hrtime.bigint() - start) / 1000);
	}
	histogram.disable();
	samples.sort((a, b) => a - b);
	const at = (p: number): number => samples[Math.max(0, Math.ceil(p * samples.length) - 1)] ?? Number.NaN;
	return { median_us: round(at(0.5)), p99_us: round(at(0.99)), max_us: round(samples.at(-1) ?? Number.NaN), blocked_ms: round(histogram.max / 1e6, 1) };
}

async function waitCost(dir: string, rows: BenchRow[]): Promise<void> {
	const fs = new NodeWorkspaceFs();
	const events = new FakeFileEvents();
	const edited = new EditedFiles(fs, events, { roots: () => [dir] });
	const paths: string[] = [];
	for (let index = 0; index < CACHED; index++) {
		const folder = join(dir, 'src', `m${Math.floor(index / 100)}`);
		mkdirSync(folder, { recursive: true });
		const path = join(folder, `f${index}.ts`);
		const text = source(30, `v0-${index}-`);
		writeFileSync(path, text);
		paths.push(path);
		edited.noteRead(path, Buffer.from(text), undefined);
	}
	for (const changed of [0, 1, 50]) {
		// The most recently read files: the cache's budget keeps those (the oldest were evicted).
		const touched = changed === 0 ? [] : paths.slice(-changed);
		for (const path of touched) {
			writeFileSync(path, source(30, 'v1-').replace('respond', 'respondLater'));
		}
		// Never committed: every iteration sees the same changed files, as a retried request would.
		const stats = await time(() => {
			events.fireChange(...touched);
		}, async () => {
			const event = await edited.prepare(new AbortController().signal);
			return event?.body?.length ?? 0;
		}, changed === 50 ? 100 : 500);
		rows.push({ name: `WAIT check, ${changed} changed of ${CACHED.toLocaleString('en-US')} cached`, iterations: changed === 50 ? 100 : 500, ...stats });
	}
	edited.dispose();
}

async function diffCost(dir: string, rows: BenchRow[]): Promise<void> {
	const cases = [
		{ name: '100 KB, few changes', lines: 1_200, every: 300 },
		{ name: '100 KB, many changes', lines: 1_200, every: 10 },
		{ name: '1 MB, few changes', lines: 12_000, every: 3_000 },
		{ name: '1 MB, many changes', lines: 12_000, every: 10 },
	];
	for (const { name, lines, every } of cases) {
		const fs = new NodeWorkspaceFs();
		const events = new FakeFileEvents();
		const edited = new EditedFiles(
			fs,
			events,
			{ roots: () => [dir], maxFileBytes: 4 * 1024 * 1024, maxDiffBytes: 4 * 1024 * 1024, maxDiffLines: 50_000, maxReportLines: 50_000 },
		);
		const path = join(dir, `big-${lines}-${every}.ts`);
		const before = source(lines, 'a');
		writeFileSync(path, before);
		edited.noteRead(path, Buffer.from(before), undefined);
		const after = before
			.split('\n')
			.map((line, index) => (index % every === 0 ? line.replace('respond', 'respondLater') : line))
			.join('\n');
		writeFileSync(path, after);
		const outcome = { diffed: false };
		const stats = await time(() => {
			events.fireChange(path);
		}, async () => {
			const event = await edited.prepare(new AbortController().signal);
			outcome.diffed = (event?.body ?? '').includes('@@');
			return event?.body?.length ?? 0;
		}, 10);
		rows.push({ name: `diff ${name}`, iterations: 10, ...stats, diff: outcome.diffed ? 'shown' : 'size only' });
		edited.dispose();
	}
}

async function main(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'aside-bench-observers-'));
	try {
		const rows: BenchRow[] = [];
		await waitCost(dir, rows);
		await diffCost(dir, rows);
		report({
			case: 'observers',
			title: 'edited files at WAIT',
			target: 'a WAIT with nothing changed costs the same with 10 or 10,000 cached files; diffing never blocks the event loop for long',
			rows,
			notes: [
				`WAIT check: EditedFiles.prepare() after ${CACHED.toLocaleString('en-US')} files (30 lines each) were read (the default 16 MB budget keeps the most recent ones) and 0, 1 or 50 of them changed on disk and were announced by file events; never committed, so each call does the full work (reading, comparing, diffing the changed ones). Real files in a temp folder through the Node file system.`,
				'diff rows: one file changed in every 300th / 10th line (few / many), prepared with the line and size limits raised so the diff is always attempted; "size only" means jsdiff gave up at its 500 ms limit and the reminder reports the new size instead. With the default limits (200 lines, 256 KB) the 1 MB file is never diffed at all.',
				'blocked (ms) is the longest event-loop delay perf_hooks saw while the row ran: what other extensions in the host would wait at worst. Each changed file is diffed in its own event-loop turn, so it is bounded by one file\'s diff and the 500 ms limit.',
				'The time from an edit to its diagnostics reminder with the real TypeScript server, against fixed 1 s / 2 s waits, is the `diagnostics` case (it needs VS Code).',
			],
		});
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

void main();
