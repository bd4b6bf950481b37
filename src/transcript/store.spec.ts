import assert from 'node:assert/strict';
import fs from 'node:fs'; // The module object itself, so mock.method reaches what the store calls.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, mock } from 'node:test';
import { encodeInjectionRecord, type InjectionRecord } from '../reminders/record';
import { RecordingLogger } from '../testing/recordingLogger';
import { load } from './load';
import { TranscriptError } from './paths';
import { type SessionHeader, type ToolResultRecord, type TranscriptEntry, TranscriptRecordError } from './records';
import { TranscriptStore } from './store';

const root = mkdtempSync(join(tmpdir(), 'aside-transcript-'));
after(() => {
	rmSync(root, { recursive: true, force: true });
});
let dirs = 0;
function freshDir(): string {
	return join(root, `d${++dirs}`);
}

const T0 = Date.UTC(2026, 10, 30, 9);
const HEADER: SessionHeader = { kind: 'session', v: 1, id: 's-1', createdAt: T0 };

const INJECTION: InjectionRecord = {
	kind: 'injected-reminders',
	v: 1,
	phase: 'mid-turn',
	owner: { kind: 'root', id: 't1' },
	requestId: 'req-2',
	at: T0 + 5,
	turn: 1,
	entries: [{ type: 'date', key: 'session.date', label: 'date', body: 'Today is 2026-11-30 & x < y.', reason: 'first delivery' }],
};

/** One record of every kind, with every optional field somewhere. */
const EVERY_KIND: TranscriptEntry[] = [
	{ kind: 'meta', at: T0, title: 'Fix the parser', provider: 'anthropic', model: 'claude' },
	{ kind: 'user', id: 'u1', turnId: 't1', at: T0 + 1, text: 'Why does "a < b" fail?\nSee <system-reminder>.' },
	{
		kind: 'assistant',
		id: 'a1',
		turnId: 't1',
		requestId: 'req-1',
		at: T0 + 2,
		text: 'Let me look.',
		toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'src/parser.ts', range: [1, 40] } }],
		stop: 'tool-use',
		usage: { inputTokens: 1200, outputTokens: 40 },
		model: 'claude',
	},
	{
		kind: 'tool-result',
		id: 'r1',
		turnId: 't1',
		callId: 'c1',
		name: 'Read',
		at: T0 + 3,
		content: '1\tconst a = 1;\n2\t// ünïcödé 😀',
		isError: false,
		notices: [{ key: 'read.truncated', body: 'Showing lines 1-40 of 900.' }],
		detail: { kind: 'file', path: 'src/parser.ts', lines: 900, truncated: true },
		durationMs: 12,
		verdict: 'granted',
	},
	INJECTION,
	{ kind: 'assistant', id: 'a2', turnId: 't1', requestId: 'req-2', at: T0 + 6, text: 'Fixed.', toolCalls: [], stop: 'end' },
	{ kind: 'turn-end', turnId: 't1', at: T0 + 7, outcome: 'failed', error: 'The provider refused.' },
];

function writeSession(dir: string, records: readonly TranscriptEntry[], header: SessionHeader = HEADER): string {
	const store = TranscriptStore.create(dir, header);
	for (const record of records) {
		store.append(record);
	}
	store.close();
	return store.path;
}

function toolResult(id: string, content: string): ToolResultRecord {
	return { kind: 'tool-result', id, turnId: 't1', callId: `call-${id}`, name: 'Bash', at: T0, content, isError: false };
}

describe('TranscriptStore and load', () => {
	it('round-trips a record of every kind, one line each, kind first', () => {
		const dir = freshDir();
		const path = writeSession(dir, EVERY_KIND);
		const loaded = load(dir, 's-1');
		assert.deepEqual(loaded, { header: HEADER, records: EVERY_KIND, problems: [] });
		const text = readFileSync(path, 'utf8');
		assert.ok(text.endsWith('\n'));
		const lines = text.slice(0, -1).split('\n');
		assert.equal(lines.length, EVERY_KIND.length + 1);
		assert.ok(lines.every((line) => line.startsWith('{"kind":"')));
		assert.equal(lines[5], encodeInjectionRecord(INJECTION), 'the injection record is stored as its own encoding');
	});

	it('refuses what load would not accept, and writes nothing for it', () => {
		const dir = freshDir();
		const store = TranscriptStore.create(dir, HEADER);
		assert.throws(() => {
			store.append({ kind: 'user', id: '', turnId: 't1', at: 1, text: 'x' });
		}, TranscriptRecordError);
		assert.throws(() => {
			store.append({ ...INJECTION, entries: [{ ...INJECTION.entries[0], body: 'x</system-reminder>' }] } as InjectionRecord);
		}, /cannot be replayed/);
		assert.throws(() => {
			store.append({ ...toolResult('r1', 'out'), notices: [{ key: 'bad key', body: 'b' }] });
		}, /notice cannot be wrapped/);
		assert.throws(() => {
			store.append({ ...toolResult('r1', 'out'), content: null, contentFile: 'r1.txt' });
		}, /takes a tool result with its content/);
		assert.throws(() => {
			store.append(HEADER as unknown as TranscriptEntry);
		}, /written by create/);
		store.close();
		assert.throws(() => {
			store.append(EVERY_KIND[1] as TranscriptEntry);
		}, /closed/);
		assert.deepEqual(load(dir, 's-1').records, []);
		assert.throws(() => TranscriptStore.create(dir, HEADER), /already has a transcript/);
		assert.throws(() => TranscriptStore.create(dir, { ...HEADER, id: '../escape' }), /Invalid session id/);
	});

	it('keeps large tool output out of line and reads it back', () => {
		const dir = freshDir();
		const big = `${'x'.repeat(70 * 1024)}\nend`;
		const wide = '€'.repeat(30_000); // 30,000 UTF-16 units, 90,000 UTF-8 bytes: over 64 KB.
		const records = [toolResult('r1', big), toolResult('r2', wide), toolResult('r3', 'small'), toolResult('odd/id', big)];
		const path = writeSession(dir, records);
		const lines = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as ToolResultRecord);
		assert.deepEqual(
			lines.slice(1).map((line) => [line.content === null ? null : 'inline', line.contentFile]),
			[[null, 'r1.txt'], [null, 'r2.txt'], ['inline', undefined], [null, lines[4]?.contentFile]],
		);
		assert.match(lines[4]?.contentFile ?? '', /^[0-9a-f]{40}\.txt$/, 'an id that is no file name is hashed');
		assert.equal(readFileSync(join(dir, 's-1.files', 'r1.txt'), 'utf8'), big);
		assert.deepEqual(load(dir, 's-1'), { header: HEADER, records, problems: [] });
	});

	it('a missing out-of-line file becomes a placeholder and a warning, never a crash', () => {
		const dir = freshDir();
		const store = TranscriptStore.create(dir, HEADER, { inlineLimit: 10 });
		for (const record of [toolResult('r1', 'y'.repeat(100)), toolResult('r2', 'fine'), toolResult('r3', 'z'.repeat(11))]) {
			store.append(record);
		}
		store.close();
		unlinkSync(join(dir, 's-1.files', 'r3.txt'));
		const log = new RecordingLogger();
		const loaded = load(dir, 's-1', { log });
		assert.deepEqual(loaded.records.map((record) => (record.kind === 'tool-result' ? record.content : '')), ['y'.repeat(100), 'fine', '[output file missing: s-1.files/r3.txt]']);
		assert.equal(loaded.problems.length, 1);
		assert.equal(loaded.problems[0]?.line, 4);
		assert.match(loaded.problems[0].message, /tool call call-r3 \(Bash\) was stored in s-1\.files\/r3\.txt, which cannot be read/);
		assert.equal(log.at('warn').length, 1);
	});

	it('skips a torn last line without losing earlier records, and the next append starts clean', () => {
		const dir = freshDir();
		const path = writeSession(dir, EVERY_KIND.slice(0, 3));
		appendFileSync(path, '{"kind":"user","id":"u2","turnId":"t2","at":17,"te');
		const torn = load(dir, 's-1');
		assert.deepEqual(torn.records, EVERY_KIND.slice(0, 3));
		assert.equal(torn.problems.length, 1);
		assert.equal(torn.problems[0]?.line, 5);
		assert.match(torn.problems[0].message, /last line is incomplete \(50 bytes without a newline\)/);

		const log = new RecordingLogger();
		const store = TranscriptStore.open(dir, 's-1', { log });
		assert.equal(store.repairedBytes, 50);
		assert.match(log.at('warn')[0] ?? '', /cut off an incomplete last line \(50 bytes\)/);
		const next: TranscriptEntry = { kind: 'user', id: 'u2', turnId: 't2', at: T0 + 20, text: 'again' };
		store.append(next);
		store.close();
		assert.deepEqual(load(dir, 's-1'), { header: HEADER, records: [...EVERY_KIND.slice(0, 3), next], problems: [] });
		assert.ok(readFileSync(path, 'utf8').endsWith(`"text":"again"}\n`));
	});

	it('a torn line that happens to be valid JSON is still skipped: a record counts once its newline is written', () => {
		const dir = freshDir();
		const path = writeSession(dir, EVERY_KIND.slice(0, 1));
		appendFileSync(path, JSON.stringify(EVERY_KIND[1]));
		assert.deepEqual(load(dir, 's-1').records, EVERY_KIND.slice(0, 1));
	});

	it('skips and reports invalid lines in the middle, keeping the records around them', () => {
		const dir = freshDir();
		const path = writeSession(dir, [EVERY_KIND[0] as TranscriptEntry]);
		const bad = [
			'{"kind":"user","id":"u1","turnId":"t1","at":1,"te{"kind":"user"', // two torn writes glued together
			JSON.stringify({ kind: 'user', id: 'u1', turnId: 't1', at: 1 }),
			JSON.stringify({ kind: 'branch', at: 1 }),
			JSON.stringify(HEADER),
			JSON.stringify({ ...INJECTION, entries: [{ ...INJECTION.entries[0], key: 'bad key' }] }),
			JSON.stringify({ ...toolResult('r9', ''), content: null, contentFile: '../../etc/passwd' }),
			'',
		];
		appendFileSync(path, `${bad.join('\n')}\n${JSON.stringify(EVERY_KIND[1])}\n`);
		const loaded = load(dir, 's-1');
		assert.deepEqual(loaded.records, EVERY_KIND.slice(0, 2));
		assert.deepEqual(
			loaded.problems.map((problem) => problem.line),
			[3, 4, 5, 6, 7, 8],
		);
		const messages = loaded.problems.map((problem) => problem.message);
		assert.match(messages[0] ?? '', /^Not valid JSON/);
		assert.match(messages[1] ?? '', /^Not a transcript record: user: text: .*skipped/);
		assert.match(messages[2] ?? '', /^Unknown record kind "branch"\. Perhaps a newer version/);
		assert.match(messages[3] ?? '', /second session header/);
		assert.match(messages[4] ?? '', /entries\.0\.key: not a valid reminder key/);
		assert.match(messages[5] ?? '', /contentFile "\.\.\/\.\.\/etc\/passwd" is not a plain file name/);
	});

	it('a write that fails part-way is cut back, so the records before and after it stay whole', (t) => {
		const dir = freshDir();
		const store = TranscriptStore.create(dir, HEADER);
		store.append(EVERY_KIND[0] as TranscriptEntry);
		const realWrite = fs.writeSync;
		// The disk fills up after 10 bytes of the next line.
		const failing = mock.method(fs, 'writeSync', (fd: number, data: string | Uint8Array, offset?: number) => {
			if (typeof data === 'string') {
				return realWrite(fd, Buffer.from(data).subarray(0, 10));
			}
			throw Object.assign(new Error(`ENOSPC: no space left on device (offset ${offset ?? 0})`), { code: 'ENOSPC' });
		});
		assert.throws(() => {
			store.append(EVERY_KIND[1] as TranscriptEntry);
		}, (error: unknown) => error instanceof TranscriptError && /Could not append to the transcript of session s-1: ENOSPC/.test(error.message));
		failing.mock.restore();
		store.append(EVERY_KIND[2] as TranscriptEntry);
		// And when even cutting back fails, the next line starts on a fresh line: one bad line, no more.
		t.mock.method(fs, 'writeSync', (fd: number, data: string | Uint8Array) => (typeof data === 'string' ? realWrite(fd, Buffer.from(data).subarray(0, 10)) : 0));
		t.mock.method(fs, 'ftruncateSync', () => {
			throw new Error('EIO');
		});
		assert.throws(() => {
			store.append(EVERY_KIND[1] as TranscriptEntry);
		});
		t.mock.restoreAll();
		store.append(EVERY_KIND[3] as TranscriptEntry);
		store.close();
		const loaded = load(dir, 's-1');
		assert.deepEqual(loaded.records, [EVERY_KIND[0], EVERY_KIND[2], EVERY_KIND[3]]);
		assert.deepEqual(loaded.problems.map((problem) => [problem.line, problem.message.slice(0, 14)]), [[4, 'Not valid JSON']]);
	});

	it('two writers on one file: a second open never repairs (cuts) the first writer\'s records', () => {
		const dir = freshDir();
		const first = TranscriptStore.create(dir, HEADER);
		const record = (n: number): TranscriptEntry => ({ kind: 'user', id: `u${n}`, turnId: `t${n}`, at: T0 + n, text: `message ${n}` });
		first.append(record(1));
		first.append(record(2));
		// The first writer is in the middle of its third line when a second window opens the file…
		const third = `${JSON.stringify(record(3))}\n`;
		appendFileSync(first.path, third.slice(0, 20));
		let wentOn = false;
		const goOn = (): void => {
			// …and goes on writing: the rest of its 3rd line, then its 4th to 60th records.
			if (!wentOn) {
				wentOn = true;
				appendFileSync(first.path, third.slice(20));
				for (let n = 4; n <= 60; n++) {
					first.append(record(n));
				}
			}
		};
		const realTruncate = fs.ftruncateSync;
		// Before the second open cuts what looked like a torn line, the first writer wrote on.
		const truncate = mock.method(fs, 'ftruncateSync', (fd: number, length?: number) => {
			goOn();
			realTruncate(fd, length);
		});
		let second: unknown;
		try {
			TranscriptStore.open(dir, 's-1').close();
			second = 'opened for writing';
		} catch (error) {
			second = error;
		} finally {
			truncate.mock.restore();
		}
		goOn();
		first.close();
		assert.equal(load(dir, 's-1').records.length, 60, 'every acknowledged record of the first writer is still there');
		assert.ok(second instanceof TranscriptError && /open in another window/.test(second.message), `the second open is refused (${String(second)})`);
	});

	it('a failed write is cut back only to bytes this writer wrote: another writer\'s lines stay', (t) => {
		const dir = freshDir();
		const store = TranscriptStore.create(dir, HEADER);
		store.append(EVERY_KIND[0] as TranscriptEntry);
		// Ten records appended by a writer that takes no lock (an older Aside, another tool).
		const foreign = Array.from({ length: 10 }, (_, n): TranscriptEntry => ({ kind: 'user', id: `f${n}`, turnId: `tf${n}`, at: T0 + n, text: `foreign ${n}` }));
		appendFileSync(store.path, foreign.map((record) => `${JSON.stringify(record)}\n`).join(''));
		const realWrite = fs.writeSync;
		t.mock.method(fs, 'writeSync', (fd: number, data: string | Uint8Array) => {
			if (typeof data === 'string') {
				return realWrite(fd, Buffer.from(data).subarray(0, 10));
			}
			throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
		});
		assert.throws(() => {
			store.append(EVERY_KIND[1] as TranscriptEntry);
		}, /ENOSPC/);
		t.mock.restoreAll();
		store.append(EVERY_KIND[2] as TranscriptEntry);
		store.close();
		const loaded = load(dir, 's-1');
		assert.deepEqual(loaded.records, [EVERY_KIND[0], ...foreign, EVERY_KIND[2]], 'the other writer\'s ten records survive the clean-up');
		assert.deepEqual(loaded.problems.map((problem) => [problem.line, problem.message.slice(0, 14)]), [[13, 'Not valid JSON']], 'the partial line is confined to one bad line');
	});

	it('throws only when there is no usable transcript', () => {
		const dir = freshDir();
		assert.throws(() => load(dir, 'none'), (error: unknown) => error instanceof TranscriptError && /no transcript for session none/.test(error.message));
		assert.throws(() => TranscriptStore.open(dir, 'none'), /no transcript for session none/);
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, 'cut.jsonl'), '{"kind":"session","v":1,"id":"cut","crea');
		assert.throws(() => load(dir, 'cut'), /no complete first line/);
		assert.throws(() => TranscriptStore.open(dir, 'cut'), /no complete first line/);
		writeFileSync(join(dir, 'other.jsonl'), `${JSON.stringify(HEADER)}\n`);
		assert.throws(() => load(dir, 'other'), /file of session other holds session s-1/);
		writeFileSync(join(dir, 'future.jsonl'), `${JSON.stringify({ ...HEADER, id: 'future', v: 2 })}\n`);
		assert.throws(() => load(dir, 'future'), /newer version of Aside \(transcript version 2\)/);
		assert.throws(() => load(dir, '../s-1'), /Invalid session id/);
	});
});
