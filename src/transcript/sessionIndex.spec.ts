import assert from 'node:assert/strict';
import fs from 'node:fs'; // The module object itself, so mock.method reaches what the index calls.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { RecordingLogger } from '../testing/recordingLogger';
import type { SessionHeader } from './sessionRecords';
import type { TranscriptEntry } from './records';
import { INDEX_FILE, SessionIndex } from './sessionIndex';
import { TranscriptStore } from './store';
import { listSessions } from './summary';

const root = mkdtempSync(join(tmpdir(), 'aside-index-'));
after(() => {
	rmSync(root, { recursive: true, force: true });
});
let dirs = 0;
function freshDir(): string {
	return join(root, `d${++dirs}`);
}

const T0 = Date.UTC(2026, 10, 30, 9);

function header(id: string, createdAt = T0): SessionHeader {
	return { kind: 'session', v: 1, id, createdAt };
}

const user = (id: string, text = 'hi'): TranscriptEntry => ({ kind: 'user', id, turnId: `t-${id}`, at: T0, text });
const turnEnd = (id: string, outcome: 'done' | 'interrupted' | 'failed' = 'done'): TranscriptEntry => ({ kind: 'turn-end', turnId: `t-${id}`, at: T0 + 1, outcome });

/** Writes a session's transcript and sets its modification time. */
function writeSession(dir: string, id: string, records: readonly TranscriptEntry[], mtime = T0 + 1000, createdAt = T0): string {
	const store = TranscriptStore.create(dir, header(id, createdAt));
	for (const record of records) {
		store.append(record);
	}
	store.close();
	utimesSync(store.path, mtime / 1000, mtime / 1000);
	return store.path;
}

/** Counts the transcripts read while `run` runs. */
function transcriptReads(t: TestContext, run: () => void): string[] {
	const reads: string[] = [];
	const real = fs.readFileSync;
	const spy = t.mock.method(fs, 'readFileSync', (...args: Parameters<typeof fs.readFileSync>) => {
		if (typeof args[0] === 'string' && args[0].endsWith('.jsonl')) {
			reads.push(args[0].slice(args[0].lastIndexOf('/') + 1));
		}
		return real(...args);
	});
	try {
		run();
	} finally {
		spy.mock.restore();
	}
	return reads;
}

describe('listSessions (reading every transcript: what the index is rebuilt from)', () => {
	it('lists sessions newest first with their last title, turn count and how the last turn ended', () => {
		const dir = freshDir();
		const quoted = (id: string): TranscriptEntry => user(id, '{"kind":"meta","title":"not a title"}');
		writeSession(dir, 'old', [quoted('u1'), { kind: 'meta', at: T0, title: 'First' }, { kind: 'meta', at: T0, title: 'Renamed' }, { kind: 'meta', at: T0, model: 'm' }, turnEnd('u1', 'failed'), quoted('u2')], T0 + 1000);
		writeSession(dir, 'new', [quoted('u1'), turnEnd('u1', 'interrupted')], T0 + 5000, T0 + 10);
		writeSession(dir, 'mid', [], T0 + 3000, T0 + 20);
		// Written by hand, keys in another order: still counted.
		appendFileSync(join(dir, 'mid.jsonl'), '{"id":"u1","turnId":"t","at":1,"text":"hi","kind":"user"}\n{"at":1,"title":"By hand","kind":"meta"}\n{"turnId":"t","at":2,"outcome":"done","kind":"turn-end"}\n');
		utimesSync(join(dir, 'mid.jsonl'), (T0 + 3000) / 1000, (T0 + 3000) / 1000);
		writeFileSync(join(dir, 'broken.jsonl'), 'not a transcript\n');
		writeFileSync(join(dir, 'notes.txt'), 'ignored');
		const log = new RecordingLogger();
		assert.deepEqual(listSessions(dir, { log }), [
			{ id: 'new', title: undefined, createdAt: T0 + 10, updatedAt: T0 + 5000, turns: 1, lastOutcome: 'interrupted' },
			{ id: 'mid', title: 'By hand', createdAt: T0 + 20, updatedAt: T0 + 3000, turns: 1, lastOutcome: 'done' },
			{ id: 'old', title: 'Renamed', createdAt: T0, updatedAt: T0 + 1000, turns: 2, lastOutcome: 'unfinished' },
		]);
		assert.match(log.at('warn')[0] ?? '', /Transcript broken: left out of the session list/);
		assert.ok(readdirSync(dir).includes('broken.jsonl'), 'listing never changes files');
	});

	it('is empty for a directory that does not exist yet', () => {
		const dir = freshDir();
		assert.deepEqual(listSessions(dir), []);
		assert.equal(existsSync(dir), false);
	});
});

describe('SessionIndex', () => {
	it('is built from the transcripts when missing, and then lists without reading any transcript', (t) => {
		const dir = freshDir();
		writeSession(dir, 's1', [user('u1'), { kind: 'meta', at: T0, title: 'One' }, turnEnd('u1')], T0 + 1000);
		writeSession(dir, 's2', [user('u1'), user('u2')], T0 + 2000);
		const built = new SessionIndex(dir);
		const expected = [
			{ id: 's2', title: undefined, createdAt: T0, updatedAt: T0 + 2000, turns: 2, lastOutcome: 'unfinished' },
			{ id: 's1', title: 'One', createdAt: T0, updatedAt: T0 + 1000, turns: 1, lastOutcome: 'done' },
		];
		assert.deepEqual(transcriptReads(t, () => { assert.deepEqual(built.list(), expected); }).sort(), ['s1.jsonl', 's2.jsonl']);
		assert.ok(existsSync(join(dir, INDEX_FILE)));
		// Another window (or the next activation) lists from the index alone.
		const next = new SessionIndex(dir);
		assert.deepEqual(transcriptReads(t, () => { assert.deepEqual(next.list(), expected); }), []);
		assert.deepEqual(transcriptReads(t, () => { assert.deepEqual(built.list(), expected); }), [], 'and so does the window that built it');
	});

	it('makes an entry again from its transcript when the file changed behind it, and only that one', (t) => {
		const dir = freshDir();
		writeSession(dir, 's1', [user('u1')], T0 + 1000);
		const s2 = writeSession(dir, 's2', [user('u1')], T0 + 2000);
		new SessionIndex(dir).list();
		// Appended to by a writer that does not keep the index (an older Aside): newer than its entry.
		appendFileSync(s2, `${JSON.stringify(user('u2'))}\n`);
		utimesSync(s2, (T0 + 3000) / 1000, (T0 + 3000) / 1000);
		// One the index does not know, and one whose file is gone.
		writeSession(dir, 's3', [], T0 + 500);
		unlinkSync(join(dir, 's1.jsonl'));
		const index = new SessionIndex(dir);
		const reads = transcriptReads(t, () => {
			assert.deepEqual(index.list().map((summary) => [summary.id, summary.turns]), [['s2', 2], ['s3', 0]]);
		});
		assert.deepEqual(reads.sort(), ['s2.jsonl', 's3.jsonl']);
		const written = JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')) as { sessions: { id: string }[] };
		assert.deepEqual(written.sessions.map((entry) => entry.id).sort(), ['s2', 's3'], 'the index on disk follows');
	});

	it('rebuilds a damaged index, saying why, and never trusts an entry it cannot check', (t) => {
		const dir = freshDir();
		writeSession(dir, 's1', [user('u1')]);
		mkdirSync(dir, { recursive: true });
		for (const [damage, why] of [['{"v":1,"sessions":[{"id":"s1"', /cannot be read/], ['{"v":1,"sessions":[{"id":"s1","turns":"many"}]}', /is not valid/], ['{"v":99,"sessions":[]}', /is not valid/]] as const) {
			writeFileSync(join(dir, INDEX_FILE), damage);
			const log = new RecordingLogger();
			const index = new SessionIndex(dir, { log });
			assert.deepEqual(transcriptReads(t, () => { assert.equal(index.list()[0]?.turns, 1); }), ['s1.jsonl']);
			assert.match(log.at('warn')[0] ?? '', why);
			assert.match(log.at('warn')[0] ?? '', /rebuilt from the transcripts/);
		}
		assert.equal((JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')) as { v: number }).v, 1, 'and writes a good one');
	});

	it('follows this window\'s appends without reading the transcript, and writes at the end of a turn', (t) => {
		const dir = freshDir();
		const index = new SessionIndex(dir);
		index.list();
		const store = TranscriptStore.create(dir, header('s1'));
		index.noteCreated('s1', T0, store.bytes);
		const append = (record: TranscriptEntry): void => {
			const before = store.bytes;
			store.append(record);
			index.noteAppend('s1', record, before, store.bytes);
		};
		append(user('u1'));
		append({ kind: 'meta', at: T0 + 5, title: 'Live title' });
		append(turnEnd('u1', 'failed'));
		index.flush();
		const entry = (JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')) as { sessions: Record<string, unknown>[] }).sessions[0];
		assert.deepEqual({ ...entry, mtimeMs: 0 }, { id: 's1', title: 'Live title', createdAt: T0, updatedAt: T0 + 5, turns: 1, lastOutcome: 'failed', size: store.bytes, mtimeMs: 0 });
		append(user('u2'));
		const reads = transcriptReads(t, () => {
			assert.deepEqual(index.list().map((summary) => [summary.title, summary.turns, summary.lastOutcome]), [['Live title', 2, 'unfinished']]);
		});
		assert.deepEqual(reads, [], 'the entry is known to match the file this window wrote');
		store.close();
		assert.deepEqual(transcriptReads(t, () => new SessionIndex(dir).list()), [], 'and the next window trusts what was written');
	});

	it("a sub-agent's messages and ends are not the chat's turns, appended or read from the transcript", () => {
		const dir = freshDir();
		const index = new SessionIndex(dir);
		index.list();
		const store = TranscriptStore.create(dir, header('s1'));
		index.noteCreated('s1', T0, store.bytes);
		const child = 'root/explore#1';
		const records: TranscriptEntry[] = [
			user('u1'),
			{ kind: 'agent-start', id: child, at: T0, turnId: 't-u1', callId: 'c1', profile: 'explore', description: 'look' },
			{ kind: 'user', id: 'cu', turnId: 'child-turn', at: T0, text: 'a task with "agent":"quoted" text', agent: child },
			{ kind: 'turn-end', turnId: 'child-turn', at: T0 + 1, outcome: 'step-limit', agent: child },
			{ kind: 'user', id: 'cu2', turnId: 'child-turn-2', at: T0, text: 'another task', agent: child },
		];
		for (const record of records) {
			const before = store.bytes;
			store.append(record);
			index.noteAppend('s1', record, before, store.bytes);
		}
		assert.deepEqual(index.list().map((summary) => [summary.turns, summary.lastOutcome]), [[1, 'unfinished']], 'the root turn is still running');
		store.close();
		assert.deepEqual(listSessions(dir).map((summary) => [summary.turns, summary.lastOutcome]), [[1, 'unfinished']], 'the same from the transcript alone');
	});

	it('an entry that did not describe the file being appended to is dropped and made again', (t) => {
		const dir = freshDir();
		const path = writeSession(dir, 's1', [user('u1')]);
		const index = new SessionIndex(dir);
		index.list();
		appendFileSync(path, `${JSON.stringify(user('u2'))}\n`); // Unknown to the index.
		const store = TranscriptStore.open(dir, 's1');
		const before = store.bytes;
		store.append(user('u3'));
		index.noteAppend('s1', user('u3'), before, store.bytes);
		store.close();
		assert.deepEqual(transcriptReads(t, () => { assert.equal(index.list()[0]?.turns, 3); }), ['s1.jsonl']);
	});

	it('two windows writing the index keep each other\'s entries', () => {
		const dir = freshDir();
		const a = new SessionIndex(dir);
		const b = new SessionIndex(dir);
		a.list();
		b.list();
		for (const [index, id] of [[a, 'from-a'], [b, 'from-b']] as const) {
			const store = TranscriptStore.create(dir, header(id));
			index.noteCreated(id, T0, store.bytes);
			store.close();
			index.flush();
		}
		const written = JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')) as { sessions: { id: string }[] };
		assert.deepEqual(written.sessions.map((entry) => entry.id).sort(), ['from-a', 'from-b']);
	});

	it('an index that cannot be written is only a warning, once: the list still comes from the transcripts', (t) => {
		const dir = freshDir();
		writeSession(dir, 's1', [user('u1')]);
		const log = new RecordingLogger();
		const index = new SessionIndex(dir, { log });
		t.mock.method(fs, 'renameSync', () => {
			throw Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
		});
		assert.equal(index.list()[0]?.turns, 1);
		writeSession(dir, 's2', [user('u1')]);
		assert.equal(index.list().length, 2);
		assert.equal(log.at('warn').length, 1);
		assert.match(log.at('warn')[0] ?? '', /Could not write the session index .*EROFS/);
		assert.deepEqual(readdirSync(dir).filter((name) => name.startsWith(INDEX_FILE)), [], 'no temp file is left behind');
	});
});
