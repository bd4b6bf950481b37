// Two writers on one file, and writes that fail part-way: a store cuts back only what it wrote.
import assert from 'node:assert/strict';
import fs from 'node:fs'; // The module object itself, so mock.method reaches what the store calls.
import { appendFileSync } from 'node:fs';
import { describe, it, mock } from 'node:test';
import { EVERY_KIND, HEADER, T0, transcriptDirs } from '../testing/transcriptFixtures';
import { load } from './load';
import { TranscriptError } from './paths';
import type { TranscriptEntry } from './records';
import { TranscriptStore } from './store';

const { freshDir } = transcriptDirs();

describe('TranscriptStore: failed writes and a second writer', () => {
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
});
