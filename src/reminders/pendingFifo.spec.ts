import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StagedEntry } from './definition';
import { PendingFifo } from './pendingFifo';

const item = (body: string): StagedEntry => ({ type: 'sessionResume', key: 'session.resume', body });

describe('pending FIFO', () => {
	it('keeps order, and consumes exactly what was delivered', () => {
		const fifo = new PendingFifo();
		const a = item('a');
		const b = item('b');
		fifo.enqueue(a);
		fifo.enqueue(b);
		const delivered = fifo.snapshot();
		fifo.enqueue(item('c'));
		assert.equal(fifo.size, 3, 'taking a snapshot consumes nothing');
		fifo.consume(delivered);
		assert.deepEqual(fifo.snapshot().map((i) => i.body), ['c'], 'a later arrival stays pending');
	});

	it('a snapshot is a copy', () => {
		const fifo = new PendingFifo();
		fifo.enqueue(item('a'));
		const snapshot = fifo.snapshot();
		fifo.consume(snapshot);
		assert.equal(snapshot.length, 1);
		assert.equal(fifo.size, 0);
	});
});
