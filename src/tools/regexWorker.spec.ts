import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RegexWorker, RegexWorkerStopped } from './regexWorker';

const encode = (text: string) => new TextEncoder().encode(text);
/** Nested repetition on a line that almost matches: 2^40 ways to fail, far more than any test waits. */
const CATASTROPHIC = '^(a+)+$';
const EVIL_LINE = `${'a'.repeat(40)}!`;

describe('the regex worker', () => {
	it('finds matching lines in order, split as splitLines splits them, up to maxResults', async () => {
		const worker = new RegexWorker('b', '', 3);
		try {
			assert.deepEqual(await worker.match(encode('ab\r\nxx\rb\n\nB\n')), { matches: [{ line: 1, text: 'ab' }, { line: 3, text: 'b' }], full: false });
			assert.deepEqual(await worker.match(encode('')), { matches: [], full: false });
			assert.deepEqual(await worker.match(encode('b\nb\nb')), { matches: [{ line: 1, text: 'b' }], full: true }, 'the third match overall fills it');
		} finally {
			await worker.stop();
		}
	});

	it('decodes UTF-8, and ignores case with the i flag', async () => {
		const worker = new RegexWorker('CAFÉ', 'i', 10);
		try {
			assert.deepEqual(await worker.match(encode('un café\n')), { matches: [{ line: 1, text: 'un café' }], full: false });
		} finally {
			await worker.stop();
		}
	});

	it('sends only the file when its bytes are a view into a larger buffer', async () => {
		const worker = new RegexWorker('x', '', 10);
		try {
			const pool = encode('no\nx here\nno');
			assert.deepEqual(await worker.match(pool.subarray(3, 9)), { matches: [{ line: 1, text: 'x here' }], full: false });
		} finally {
			await worker.stop();
		}
	});

	it('stop() ends a catastrophic backtracking regex while it runs, and rejects what was pending', { timeout: 120_000 }, async () => {
		const worker = new RegexWorker(CATASTROPHIC, '', 10);
		const started = new Promise<number>((resolve) => worker.onDidStartFile(resolve));
		const outcome = (match: Promise<unknown>) => match.then(() => 'finished', (error: unknown) => error);
		const stuck = outcome(worker.match(encode(`${EVIL_LINE}\n`)));
		const queued = outcome(worker.match(encode('aaa\n')));
		assert.equal(await started, 0, 'the worker is testing the evil line');
		// The host thread is free meanwhile: this timer fires.
		await new Promise((resolve) => setTimeout(resolve, 0));
		await worker.stop('Stopped by the test.');
		const [stuckError, queuedError] = await Promise.all([stuck, queued]);
		assert.ok(stuckError instanceof RegexWorkerStopped);
		assert.equal(stuckError.message, 'Stopped by the test.');
		assert.ok(queuedError instanceof RegexWorkerStopped);
		await assert.rejects(worker.match(encode('aaa')), RegexWorkerStopped, 'a stopped worker takes no more files');
	});
});
