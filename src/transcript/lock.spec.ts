import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { RecordingLogger } from '../testing/recordingLogger';
import { load } from './load';
import { lockPath, type LockOwner, TranscriptLock, TranscriptLockedError } from './lock';
import { TranscriptStore } from './store';

const root = mkdtempSync(join(tmpdir(), 'aside-lock-'));
after(() => {
	rmSync(root, { recursive: true, force: true });
});
let dirs = 0;
function freshDir(): string {
	const dir = join(root, `d${++dirs}`);
	mkdirSync(dir, { recursive: true });
	return dir;
}

const T0 = Date.UTC(2026, 10, 30, 9);

/** The pid of a process that has exited: what a crashed window leaves in its lock. */
function deadPid(): number {
	const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
	return Number(child.stdout);
}

function writeLock(dir: string, id: string, owner: Partial<LockOwner>): void {
	writeFileSync(lockPath(dir, id), JSON.stringify({ pid: process.pid, host: hostname(), token: 'someone-else', since: T0, ...owner }));
}

function ownerOf(dir: string, id: string): LockOwner {
	return JSON.parse(readFileSync(lockPath(dir, id), 'utf8')) as LockOwner;
}

describe('TranscriptLock', () => {
	it('has one holder at a time, even between two libraries of one process, and is free again once released', () => {
		const dir = freshDir();
		const first = TranscriptLock.acquire(dir, 's1');
		assert.equal(ownerOf(dir, 's1').pid, process.pid);
		const second = TranscriptLock.tryAcquire(dir, 's1');
		assert.ok(second.lock === undefined);
		assert.equal(second.owner?.token, first.owner.token, 'it names the holder');
		assert.throws(() => TranscriptLock.acquire(dir, 's1'), (error: unknown) => error instanceof TranscriptLockedError && /open in another window \(process \d+, since /.test(error.message));
		assert.ok(TranscriptLock.tryAcquire(dir, 's2').lock, 'other sessions are not affected');
		first.release();
		assert.equal(existsSync(lockPath(dir, 's1')), false);
		const third = TranscriptLock.acquire(dir, 's1');
		assert.notEqual(third.owner.token, first.owner.token);
		first.release(); // A second release of an old lock removes nothing of the new holder's.
		assert.equal(ownerOf(dir, 's1').token, third.owner.token);
	});

	it('takes over a lock whose process is gone, and says so', () => {
		const dir = freshDir();
		writeLock(dir, 's1', { pid: deadPid() });
		const log = new RecordingLogger();
		const acquired = TranscriptLock.tryAcquire(dir, 's1', { log });
		assert.ok(acquired.lock, 'a crashed owner does not keep the lock');
		assert.equal(ownerOf(dir, 's1').token, acquired.lock.owner.token);
		assert.match(log.at('warn')[0] ?? '', /took over the lock of process \d+.*no longer running/);
		assert.deepEqual(readdirSync(dir), ['s1.lock'], 'nothing is left beside it');
	});

	it('takes over a lock naming this process with a token it does not hold (an owner that never released)', () => {
		const dir = freshDir();
		writeLock(dir, 's1', {});
		assert.ok(TranscriptLock.tryAcquire(dir, 's1').lock);
	});

	it('keeps the lock of a live process, and of another machine, which cannot be checked', () => {
		const dir = freshDir();
		writeLock(dir, 'parent', { pid: process.ppid });
		assert.equal(TranscriptLock.tryAcquire(dir, 'parent').lock, undefined);
		writeLock(dir, 'remote', { pid: deadPid(), host: `${hostname()}-elsewhere` });
		const remote = TranscriptLock.tryAcquire(dir, 'remote');
		assert.equal(remote.lock, undefined);
		assert.throws(() => TranscriptLock.acquire(dir, 'remote'), /on .*-elsewhere/);
	});

	it('takes over a live pid that started later than the owner did (the pid was reused)', (t) => {
		if (!existsSync('/proc/self/stat')) {
			t.skip('needs /proc');
			return;
		}
		const dir = freshDir();
		writeLock(dir, 's1', { pid: process.ppid, processStart: '1' });
		assert.ok(TranscriptLock.tryAcquire(dir, 's1').lock);
	});

	it('waits out a lock file being written, and takes over one left half-written', () => {
		const dir = freshDir();
		writeFileSync(lockPath(dir, 's1'), '');
		assert.equal(TranscriptLock.tryAcquire(dir, 's1').lock, undefined, 'just created: its owner is writing it');
		const old = (Date.now() - 60_000) / 1000;
		utimesSync(lockPath(dir, 's1'), old, old);
		assert.ok(TranscriptLock.tryAcquire(dir, 's1').lock);
	});

	it('rejects an id that is not a file name', () => {
		assert.throws(() => TranscriptLock.tryAcquire(freshDir(), '../x'), /Invalid session id/);
	});
});

describe('TranscriptStore under the lock', () => {
	const header = (id: string) => ({ kind: 'session' as const, v: 1 as const, id, createdAt: T0 });

	it('holds the lock from create to close: a second store cannot open the file meanwhile', () => {
		const dir = freshDir();
		const store = TranscriptStore.create(dir, header('s1'));
		assert.throws(() => TranscriptStore.open(dir, 's1'), TranscriptLockedError);
		store.append({ kind: 'user', id: 'u1', turnId: 't1', at: T0, text: 'hello' });
		store.close();
		assert.equal(existsSync(lockPath(dir, 's1')), false, 'released on close');
		const again = TranscriptStore.open(dir, 's1');
		again.close();
		assert.equal(load(dir, 's1').records.length, 1);
	});

	it('repairs a torn line after a crash: the dead writer\'s lock is taken over first', () => {
		const dir = freshDir();
		const store = TranscriptStore.create(dir, header('s1'));
		store.append({ kind: 'user', id: 'u1', turnId: 't1', at: T0, text: 'hello' });
		// The window dies mid-write: its torn line and its lock stay behind.
		writeFileSync(store.path, '{"kind":"user","id":"u2"', { flag: 'a' });
		writeLock(dir, 's1', { pid: deadPid() });
		const reopened = TranscriptStore.open(dir, 's1');
		assert.equal(reopened.repairedBytes, 24);
		reopened.close();
		assert.deepEqual(load(dir, 's1').problems, []);
	});

	it('releases the lock when the store cannot be made', () => {
		const dir = freshDir();
		writeFileSync(join(dir, 'bad.jsonl'), 'not a header\n');
		assert.throws(() => TranscriptStore.open(dir, 'bad'), /does not start with a session header/);
		assert.equal(existsSync(lockPath(dir, 'bad')), false);
		const store = TranscriptStore.create(dir, header('s1'));
		store.close();
		assert.throws(() => TranscriptStore.create(dir, header('s1')), /already has a transcript/);
		assert.equal(existsSync(lockPath(dir, 's1')), false);
	});
});
