import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter, waitForEvent } from './event';
import { DisposableStore, MutableDisposable, toDisposable } from './lifecycle';

describe('Emitter', () => {
	it('delivers to every listener and stops after unsubscribe', () => {
		const emitter = new Emitter<number>();
		const seen: number[] = [];
		const a = emitter.event((n) => seen.push(n));
		emitter.event((n) => seen.push(n * 10));
		emitter.fire(1);
		a.dispose();
		emitter.fire(2);
		assert.deepEqual(seen, [1, 10, 20]);
	});

	it('reports a throwing listener and still calls the others', () => {
		const errors: unknown[] = [];
		const emitter = new Emitter<number>((error) => errors.push(error));
		const seen: number[] = [];
		emitter.event(() => {
			throw new Error('boom');
		});
		emitter.event((n) => seen.push(n));
		emitter.fire(7);
		assert.deepEqual(seen, [7]);
		assert.equal(errors.length, 1);
	});

	it('subscribes the same function twice independently', () => {
		const emitter = new Emitter<void>();
		let calls = 0;
		const listener = () => calls++;
		const first = emitter.event(listener);
		emitter.event(listener);
		first.dispose();
		emitter.fire();
		assert.equal(calls, 1);
	});

	it('waitForEvent resolves on a matching value and times out otherwise', async () => {
		const emitter = new Emitter<number>();
		const waiting = waitForEvent(emitter.event, (n) => n > 2, 1000, 'a big number');
		emitter.fire(1);
		emitter.fire(3);
		assert.equal(await waiting, 3);
		await assert.rejects(waitForEvent(emitter.event, () => true, 5, 'nothing'), /Timed out after 5 ms waiting for nothing/);
	});
});

describe('DisposableStore', () => {
	it('disposes everything once, even when one throws', () => {
		const store = new DisposableStore();
		const disposed: string[] = [];
		store.add(toDisposable(() => disposed.push('a')));
		store.add(
			toDisposable(() => {
				throw new Error('bad');
			}),
		);
		store.add(toDisposable(() => disposed.push('c')));
		assert.throws(() => {
			store.dispose();
		}, /bad/);
		store.dispose();
		assert.deepEqual(disposed, ['a', 'c']);
	});

	it('disposes what is added after it was disposed', () => {
		const store = new DisposableStore();
		store.dispose();
		let disposed = false;
		store.add(toDisposable(() => (disposed = true)));
		assert.equal(disposed, true);
	});
});

describe('MutableDisposable', () => {
	it('disposes the old value when replaced, and the last one on dispose', () => {
		const holder = new MutableDisposable();
		const disposed: string[] = [];
		holder.value = toDisposable(() => disposed.push('first'));
		holder.value = toDisposable(() => disposed.push('second'));
		assert.deepEqual(disposed, ['first']);
		holder.dispose();
		assert.deepEqual(disposed, ['first', 'second']);
		holder.value = toDisposable(() => disposed.push('late'));
		assert.deepEqual(disposed, ['first', 'second', 'late']);
	});
});
