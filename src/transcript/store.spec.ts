import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { encodeInjectionRecord, type InjectionRecord } from '../reminders/record';
import { RecordingLogger } from '../testing/recordingLogger';
import { EVERY_KIND, HEADER, INJECTION, T0, toolResult, transcriptDirs, writeSession } from '../testing/transcriptFixtures';
import { load } from './load';
import { TranscriptError } from './paths';
import type { ToolResultRecord } from './toolResultRecord';
import { type TranscriptEntry, TranscriptRecordError } from './records';
import { TranscriptStore } from './store';

const { freshDir } = transcriptDirs();

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
