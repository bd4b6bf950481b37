// transcript: the session store on the path of every step. append() runs synchronously for each
// user message, model step, tool result and injection record, so its per-record cost is paid
// inside the agent loop; load and replay are paid once when a session is reopened.
import { appendFileSync, closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectionRecord } from '../src/reminders/record';
import { load } from '../src/transcript/load';
import { listSessions } from '../src/transcript/summary';
import { parseTranscriptRecord, type TranscriptEntry } from '../src/transcript/records';
import { replayHistory } from '../src/transcript/replay';
import { TranscriptStore } from '../src/transcript/store';
import { type BenchRow, consume, heapUsedAfterGc, measure, prng, report, round, timerOverheadUs } from './harness';

const RECORDS = 10_000;
const WARMUP_RECORDS = 2_000;
/** Every this-many tool results is a large output (100 KB), which the store keeps out of line. */
const LARGE_EVERY = 1_000;
const T0 = 1_750_000_000_000;

// Source-like text with the characters JSON escapes (quotes, backslashes, newlines, tabs). It is
// ASCII; one text in ten also carries some non-ASCII, as user messages and outputs now and then do.
const PROSE =
	'export function parse(input: string): Node[] {\n\tconst tokens = lex(input); // "tokens" -> Node[]\n\treturn tokens.map((t) => t.kind === \'a\' ? a(t) : b(t));\n}\n' +
	'The build uses esbuild with packages external & inline source maps; tests bundle each spec separately.\n' +
	'C:\\Users\\dev\\project\\src\\parser.ts(12,5): error TS2345: Argument of type "string | undefined" is not assignable.\n' +
	'Prefer targeted reads (line ranges, Grep) over whole files, and keep command output short.\n';
const NON_ASCII = ' Naïve café, déjà vu — “quoted” → ok 😀.\n';

function text(random: () => number, min: number, max: number): string {
	const length = min + Math.floor(random() * (max - min));
	const start = Math.floor(random() * PROSE.length);
	let out = '';
	while (out.length < start + length) {
		out += PROSE;
	}
	const slice = out.slice(start, start + length);
	return random() < 0.1 ? `${slice}${NON_ASCII}` : slice;
}

/**
 * Exactly `count` records of a coding session: turns of a user message, model steps with tool calls
 * and their results, now and then an injection record, and a turn-end.
 */
function buildRecords(count: number, seed: number): TranscriptEntry[] {
	const random = prng(seed);
	const records: TranscriptEntry[] = [{ kind: 'meta', at: T0, title: 'Fix the parser', provider: 'anthropic', model: 'claude-sonnet' }];
	let turn = 0;
	let call = 0;
	let results = 0;
	let at = T0;
	while (records.length < count) {
		const turnId = `turn-${++turn}`;
		records.push({ kind: 'user', id: `user-${turn}`, turnId, at: ++at, text: text(random, 200, 1_500) });
		const steps = 1 + Math.floor(random() * 4);
		for (let step = 0; step < steps && records.length < count; step++) {
			const calls = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({ id: `call_${++call}`, name: random() < 0.6 ? 'Read' : 'Bash', input: { path: `src/module${call % 40}.ts`, offset: call % 200 } }));
			const requestId = `req-${turn}-${step}`;
			records.push({ kind: 'assistant', id: `asst-${turn}-${step}`, turnId, requestId, at: ++at, text: text(random, 50, 800), toolCalls: calls, stop: 'tool-use', usage: { inputTokens: 20_000 + call, outputTokens: 300 }, model: 'claude-sonnet' });
			for (const { id, name } of calls) {
				const large = ++results % LARGE_EVERY === 0;
				records.push({
					kind: 'tool-result',
					id: `result-${id}`,
					turnId,
					callId: id,
					name,
					at: ++at,
					content: large ? text(random, 100_000, 100_001) : text(random, 1_000, 6_000),
					isError: random() < 0.05,
					...(random() < 0.1 ? { notices: [{ key: 'read.truncated', body: 'Showing lines 1-400 of 2,310; read on with offset 400.' }] } : {}),
					detail: name === 'Read' ? { kind: 'file', path: `src/module${call % 40}.ts`, lines: 400, truncated: false } : { kind: 'command', command: 'npm test', exitCode: 0, timedOut: false },
					durationMs: Math.floor(random() * 500),
				});
			}
			if (random() < 0.3) {
				const injection: InjectionRecord = {
					kind: 'injected-reminders',
					v: 1,
					phase: 'mid-turn',
					owner: { kind: 'root', id: turnId },
					requestId,
					at: ++at,
					turn,
					entries: [
						{ type: 'edited', key: 'files.edited', label: 'edited files', body: text(random, 200, 1_200), reason: 'files changed since the last step' },
						{ type: 'usage', key: 'context.usage', label: 'context usage', body: 'Context: 82,000 of 200,000 tokens used (41%).', reason: 'interval' },
					],
				};
				records.push(injection);
			}
		}
		records.push({ kind: 'assistant', id: `asst-${turn}-end`, turnId, requestId: `req-${turn}-end`, at: ++at, text: text(random, 100, 1_500), toolCalls: [], stop: 'end' });
		records.push({ kind: 'turn-end', turnId, at: ++at, outcome: 'done' });
	}
	return records.slice(0, count);
}

function appendAll(dir: string, id: string, records: readonly TranscriptEntry[]): void {
	const store = TranscriptStore.create(dir, { kind: 'session', v: 1, id, createdAt: T0 });
	for (const record of records) {
		store.append(record);
	}
	store.close();
}

function main(): void {
	const dir = mkdtempSync(join(tmpdir(), 'aside-bench-transcript-'));
	try {
		run(dir);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function run(dir: string): void {
	const rows: BenchRow[] = [];
	const records = buildRecords(RECORDS, 1);
	const lines = records.map((record) => JSON.stringify(record));
	const averageBytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0) / lines.length;
	const kinds = new Map<string, number>();
	for (const record of records) {
		kinds.set(record.kind, (kinds.get(record.kind) ?? 0) + 1);
	}

	// Warm the JIT on another session, untimed, so the measured one starts hot.
	appendAll(dir, 'warmup', buildRecords(WARMUP_RECORDS, 2));

	// append: each record timed alone, all 10,000 into one session, as a long session writes them.
	const store = TranscriptStore.create(dir, { kind: 'session', v: 1, id: 'bench', createdAt: T0 });
	let next = 0;
	const appendStats = measure(() => {
		const record = records[next++];
		if (record) {
			store.append(record);
		}
		return next;
	}, { warmup: 0, iterations: RECORDS });
	store.close();
	rows.push({ name: 'append one record (validate, stringify, writeSync)', iterations: RECORDS, ...appendStats });

	// Its parts, for scale: the validation append does before writing, and the write alone.
	let index = 0;
	const parseStats = measure(() => {
		const record = parseTranscriptRecord(records[index++ % RECORDS]);
		return record.kind.length;
	}, { warmup: 2_000, iterations: RECORDS });
	rows.push({ name: 'of which: parseTranscriptRecord alone', iterations: RECORDS, ...parseStats });

	const rawPath = join(dir, 'raw.jsonl');
	const rawFd = openSync(rawPath, 'a');
	index = 0;
	const writeStats = measure(() => writeSync(rawFd, `${lines[index++ % RECORDS] ?? ''}\n`), { warmup: 2_000, iterations: RECORDS });
	rows.push({ name: 'of which: writeSync of the line alone', iterations: RECORDS, ...writeStats });
	// What the store avoids: reopening the file per record, and syncing per record.
	const appendFileStats = measure(() => {
		appendFileSync(rawPath, `${lines[index++ % RECORDS] ?? ''}\n`);
		return index;
	}, { warmup: 200, iterations: 2_000 });
	rows.push({ name: 'for comparison: appendFileSync per record', iterations: 2_000, ...appendFileStats });
	const fsyncStats = measure(() => {
		const written = writeSync(rawFd, `${lines[index++ % RECORDS] ?? ''}\n`);
		fsyncSync(rawFd);
		return written;
	}, { warmup: 20, iterations: 500 });
	closeSync(rawFd);
	rows.push({ name: 'for comparison: writeSync + fsync per record', iterations: 500, ...fsyncStats });

	// load: the whole session, parsed and checked line by line, large outputs read back.
	const loadLoop = { warmup: 2, iterations: 10 };
	const loadStats = measure(() => load(dir, 'bench').records.length, loadLoop);
	const heapBefore = heapUsedAfterGc();
	const loaded = load(dir, 'bench');
	const retainedKb = round((heapUsedAfterGc() - heapBefore) / 1024, 0);
	if (loaded.records.length !== RECORDS || loaded.problems.length > 0) {
		throw new Error(`The session did not load whole: ${loaded.records.length} records, ${loaded.problems.length} problems.`);
	}
	rows.push({ name: `load the ${RECORDS.toLocaleString('en-US')}-record session`, iterations: loadLoop.iterations, ...loadStats, retained_kb: retainedKb });

	// The floor under load(): read the file, decode each line and JSON.parse it, keeping every
	// value as load() keeps its records (what is kept decides the garbage collector's work).
	const path = join(dir, 'bench.jsonl');
	const floorStats = measure(() => {
		const buffer = readFileSync(path);
		const kept: unknown[] = [];
		let start = 0;
		for (let end = buffer.indexOf(0x0a); end !== -1; end = buffer.indexOf(0x0a, start)) {
			kept.push(JSON.parse(buffer.toString('utf8', start, end)));
			start = end + 1;
		}
		return kept.length;
	}, loadLoop);
	rows.push({ name: 'for scale: read + JSON.parse of every line alone (the floor under load)', iterations: loadLoop.iterations, ...floorStats });

	const replayLoop = { warmup: 5, iterations: 30 };
	const replayStats = measure(() => replayHistory(loaded.records).length, replayLoop);
	const messages = replayHistory(loaded.records).length;
	rows.push({ name: `replayHistory of the ${RECORDS.toLocaleString('en-US')} records`, iterations: replayLoop.iterations, ...replayStats });

	const listLoop = { warmup: 2, iterations: 10 };
	const listStats = measure(() => listSessions(dir).length, listLoop);
	rows.push({ name: `listSessions, reading both transcripts (the ${RECORDS.toLocaleString('en-US')}-record session and a ${WARMUP_RECORDS.toLocaleString('en-US')}-record one)`, iterations: listLoop.iterations, ...listStats });
	consume(messages);

	const fileMb = round(statSync(join(dir, 'bench.jsonl')).size / 1024 / 1024, 1);
	const mix = [...kinds].map(([kind, n]) => `${n.toLocaleString('en-US')} ${kind}`).join(', ');
	report({
		case: 'transcript',
		title: 'transcript store',
		rows,
		notes: [
			`Scenario: one session of ${RECORDS.toLocaleString('en-US')} records (${mix}), ${Math.round(averageBytes).toLocaleString('en-US')} bytes per line on average, source-like ASCII text with non-ASCII in one text of ten; every ${LARGE_EVERY.toLocaleString('en-US')}th tool result is 100 KB and goes out of line. The JSONL file is ${fileMb} MB; replay yields ${messages.toLocaleString('en-US')} messages.`,
			`Append rows time each record alone with process.hrtime.bigint() (timer overhead about ${timerOverheadUs()} µs), after ${WARMUP_RECORDS.toLocaleString('en-US')} untimed appends to another session. The append p99 and max include the out-of-line writes (a file create each) and the page cache's own stalls.`,
			'The comparison rows write the same lines to a scratch file: appendFileSync opens and closes the file per record; fsync per record is the durability the store does not buy (a machine crash may lose the last lines; load() skips a torn one).',
			'Load and listSessions read from the page cache (the file was just written); a cold disk adds its read time. "retained" is heapUsed after a forced GC with the loaded transcript held, minus before loading: what an open session costs in memory.',
			'load() beyond its floor: the check of each record (records as this version writes them by the fast check derived from their kind\'s schema, taken as they are; zod for anything else), the 10 large outputs read back from their files, and the line bookkeeping. listSessions is what the session index is rebuilt from; the chat list itself reads the index (the sessions case).',
		],
	});
}

main();
