// Two windows on one workspace: two libraries (and sessions) over one real folder, as two
// extension hosts share `context.storageUri`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs'; // The module object itself, so mock.method reaches what the library calls.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { load } from '../transcript/load';
import { lockPath } from '../transcript/lock';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { RecordingLogger } from '../testing/recordingLogger';
import { appendUser, testEnvironment } from '../testing/sessions';
import { viewOfSession } from '../testing/views';
import { FileSessionLibrary } from './library';
import type { ChatSession } from './session';
import { ChatSessions } from './sessions';

const root = mkdtempSync(join(tmpdir(), 'aside-library-'));
after(() => {
	rmSync(root, { recursive: true, force: true });
});
let dirs = 0;

const T0 = Date.UTC(2026, 10, 30, 9);

interface Window {
	readonly library: FileSessionLibrary;
	readonly sessions: ChatSessions;
	readonly log: RecordingLogger;
}

function windowOn(dir: string, prefix: string): Window {
	const log = new RecordingLogger();
	const env = { ...testEnvironment(new FakeClock(T0), new SequentialIds(prefix)), log };
	const library = new FileSessionLibrary(dir, () => env.clock.now(), log);
	return { library, sessions: new ChatSessions(library, env), log };
}

function twoWindows(): [Window, Window, string] {
	const dir = join(root, `ws${++dirs}`);
	return [windowOn(dir, 'a'), windowOn(dir, 'b'), dir];
}

function turn(session: ChatSession, text: string): void {
	appendUser(session, text, T0);
	session.append({ kind: 'turn-end', turnId: `t-${text}`, at: T0 + 1, outcome: 'done' });
}

describe('two windows on one workspace', () => {
	it('the second window opens a chat the first is writing read-only, and never writes or repairs it', () => {
		const [a, b, dir] = twoWindows();
		const chat = a.sessions.current;
		turn(chat, 'first');
		// A line the first window is writing right now: not torn, just not finished yet.
		appendFileSync(join(dir, `${chat.id}.jsonl`), '{"kind":"user","id":"u-next"');
		const bytes = readFileSync(join(dir, `${chat.id}.jsonl`));

		const shown = b.sessions.open(chat.id);
		assert.equal(shown.isReadOnly, true);
		assert.deepEqual(shown.records, chat.records, 'it shows the records');
		assert.match(viewOfSession(shown).access?.text ?? '', /open in another VS Code window, so it is read-only here/);
		assert.match(b.log.at('info').join('\n'), /open in another window \(process \d+, since .*\); it is shown read-only here/);
		assert.deepEqual(readFileSync(join(dir, `${chat.id}.jsonl`)), bytes, 'nothing was cut or added');
	});

	it('a message in the read-only window continues in a copy; both files keep their own records', () => {
		const [a, b, dir] = twoWindows();
		const chat = a.sessions.current;
		turn(chat, 'first');
		b.sessions.open(chat.id);
		const copy = b.sessions.forWriting();
		assert.notEqual(copy.id, chat.id);
		turn(copy, 'in the copy');
		turn(chat, 'in the original');
		assert.deepEqual(load(dir, chat.id).records.filter((record) => record.kind === 'user').map((record) => record.text), ['first', 'in the original']);
		const copied = load(dir, copy.id);
		assert.deepEqual(copied.records.filter((record) => record.kind === 'user').map((record) => record.text), ['first', 'in the copy']);
		assert.deepEqual(copied.problems, []);
		const listed = b.library.list().find((summary) => summary.id === copy.id);
		assert.equal(listed?.title, 'first (copy)');
		assert.equal(listed.turns, 2);
	});

	it('once the first window closes the chat, the second writes it itself instead of copying', () => {
		const [a, b, dir] = twoWindows();
		const chat = a.sessions.current;
		turn(chat, 'first');
		b.sessions.open(chat.id);
		turn(chat, 'second, after the other window opened it');
		a.sessions.dispose();
		const writable = b.sessions.forWriting();
		assert.equal(writable.id, chat.id);
		assert.equal(writable.isReadOnly, false);
		assert.equal(writable.records.filter((record) => record.kind === 'user').length, 2, 'read again, with what the first window wrote meanwhile');
		turn(writable, 'third');
		assert.equal(load(dir, chat.id).records.filter((record) => record.kind === 'user').length, 3);
		// And now the first window is the one that finds it held.
		const again = windowOn(dir, 'c').sessions.open(chat.id);
		assert.equal(again.isReadOnly, true);
	});

	it('a window that crashed keeps nothing locked: the chat opens writable and its torn line is repaired', () => {
		const [a, b, dir] = twoWindows();
		const chat = a.sessions.current;
		turn(chat, 'first');
		appendFileSync(join(dir, `${chat.id}.jsonl`), '{"kind":"user","id":"u-torn"');
		// The window dies: no dispose, and its lock names a process that is gone.
		const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
		writeFileSync(lockPath(dir, chat.id), JSON.stringify({ pid: dead, host: hostname(), token: 'crashed', since: T0 }));
		const reopened = b.sessions.open(chat.id, 'restart');
		assert.equal(reopened.isReadOnly, false);
		turn(reopened, 'after the crash');
		const loaded = load(dir, chat.id);
		assert.deepEqual(loaded.problems, [], 'the torn line was cut before the next record');
		assert.equal(loaded.records.filter((record) => record.kind === 'user').length, 2);
		assert.match(b.log.at('warn').join('\n'), /took over the lock of process \d+/);
	});
});

/** The transcripts (`.jsonl`) read while `run` runs. */
function transcriptReads(t: TestContext, run: () => void): string[] {
	const reads: string[] = [];
	const real = fs.readFileSync;
	const spy = t.mock.method(fs, 'readFileSync', (...args: Parameters<typeof fs.readFileSync>) => {
		if (typeof args[0] === 'string' && args[0].endsWith('.jsonl')) {
			reads.push(args[0]);
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

describe('activation and the chat list', () => {
	/** A workspace with `count` saved chats, written by an earlier window that listed them once. */
	function savedChats(count: number): string {
		const dir = join(root, `ws${++dirs}`);
		const earlier = windowOn(dir, 'old');
		for (let n = 0; n < count; n++) {
			turn(earlier.sessions.newSession(), `chat ${n}`);
		}
		earlier.sessions.dispose();
		earlier.library.list();
		return dir;
	}

	it('a new window\'s first chat list reads no transcript: it comes from the index', (t) => {
		const dir = savedChats(5);
		const library = new FileSessionLibrary(dir, () => T0, new RecordingLogger());
		let listed: readonly { title: string | undefined }[] = [];
		assert.deepEqual(transcriptReads(t, () => {
			listed = library.list();
		}), []);
		assert.deepEqual(listed.map((summary) => summary.title).sort(), ['chat 0', 'chat 1', 'chat 2', 'chat 3', 'chat 4']);
	});

	it('activation\'s check that the last chat still exists reads nothing', (t) => {
		const dir = savedChats(3);
		const id = windowOn(dir, 'x').library.list()[0]?.id ?? '';
		let found: boolean[] = [];
		assert.deepEqual(transcriptReads(t, () => {
			const library = new FileSessionLibrary(dir, () => T0, new RecordingLogger());
			found = [library.exists(id), library.exists('gone')];
		}), []);
		assert.deepEqual(found, [true, false]);
	});
});
