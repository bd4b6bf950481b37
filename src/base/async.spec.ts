import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ABORTED, isAborted, unlessAborted } from './async';

describe('unlessAborted', () => {
	it('settles with the work when the signal does not fire', async () => {
		const controller = new AbortController();
		assert.equal(await unlessAborted(Promise.resolve(42), controller.signal), 42);
		controller.abort();
		assert.equal(isAborted(controller.signal), true, 'a later abort changes nothing that settled');
	});

	it('settles with ABORTED as soon as the signal fires, while the work is still running', async () => {
		const controller = new AbortController();
		let finish = (_value: string): void => undefined;
		const work = new Promise<string>((resolve) => {
			finish = resolve;
		});
		const waiting = unlessAborted(work, controller.signal);
		controller.abort();
		assert.equal(await waiting, ABORTED);
		finish('late');
		assert.equal(await work, 'late');
	});

	it('settles with ABORTED at once for a signal that already fired, whatever the work does', async () => {
		const controller = new AbortController();
		controller.abort();
		assert.equal(await unlessAborted(new Promise<never>(() => undefined), controller.signal), ABORTED);
		// A failure of work given up on is no unhandled rejection (the test runner would fail on one).
		assert.equal(await unlessAborted(Promise.reject(new Error('AbortError')), controller.signal), ABORTED);
	});

	it('rejects with an Error when the work fails first, and an Error stays itself', async () => {
		const signal = new AbortController().signal;
		const failure = new TypeError('bad input');
		await assert.rejects(unlessAborted(Promise.reject(failure), signal), (error) => error === failure);
		// eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what a careless tool does
		await assert.rejects(unlessAborted(Promise.reject('just text'), signal), (error) => error instanceof Error && error.message === 'just text');
	});
});
