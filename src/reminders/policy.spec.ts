import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptsBody, everyTurn, type FiringState, interval, isDue, markDelivered, onChange, oneShot } from './policy';

const fresh = (): FiringState => ({ fired: false });

describe('firing policies', () => {
	it('every turn: once per turn, whatever the number of WAITs in it', () => {
		const state = fresh();
		assert.deepEqual(isDue(everyTurn, state, 1), { due: true, reason: 'every turn' });
		markDelivered(state, 1, 'x');
		assert.equal(isDue(everyTurn, state, 1).due, false);
		assert.equal(isDue(everyTurn, state, 2).due, true);
	});

	it('interval: first at once, then at least N turns apart, and the override wins', () => {
		const state = fresh();
		assert.deepEqual(isDue(interval(3), state, 1), { due: true, reason: 'first time this session (interval 3)' });
		markDelivered(state, 1, 'x');
		assert.equal(isDue(interval(3), state, 2).due, false);
		assert.equal(isDue(interval(3), state, 3).due, false);
		assert.deepEqual(isDue(interval(3), state, 4), { due: true, reason: 'interval 3 reached (last delivered 3 turns ago)' });
		assert.equal(isDue(interval(3), state, 2, 1).due, true, 'an override of 1 makes it due every turn');
		assert.equal(isDue(interval(3), state, 4, 5).due, false, 'an override of 5 postpones it');
	});

	it('interval refuses turns that are not whole and positive', () => {
		for (const bad of [0, -1, 1.5, Number.NaN]) {
			assert.throws(() => interval(bad), RangeError);
		}
	});

	it('one-shot: once until re-armed, and says why it was re-armed', () => {
		const state = fresh();
		assert.deepEqual(isDue(oneShot, state, 1), { due: true, reason: 'one-shot, first delivery' });
		markDelivered(state, 1, 'x');
		assert.equal(isDue(oneShot, state, 9).due, false);
		state.fired = false;
		state.rearmedBecause = 'context was compacted';
		assert.deepEqual(isDue(oneShot, state, 9), { due: true, reason: 're-armed: context was compacted' });
		markDelivered(state, 9, 'x');
		assert.equal(state.rearmedBecause, undefined);
	});

	it('on-change: compares the content with what was last delivered, not last evaluated', () => {
		const state = fresh();
		assert.deepEqual(isDue(onChange, state, 1), { due: true, reason: 'first delivery' });
		assert.ok(acceptsBody(onChange, state, 'a'));
		assert.ok(acceptsBody(onChange, state, 'a'), 'evaluating without delivering changes nothing');
		markDelivered(state, 1, 'a');
		assert.ok(!acceptsBody(onChange, state, 'a'));
		assert.ok(acceptsBody(onChange, state, 'b'));
		assert.deepEqual(isDue(onChange, state, 2), { due: true, reason: 'content changed since last delivered' });
		assert.ok(acceptsBody(onChange, state, null), 'a silent acknowledgement is always accepted');
	});

	it('a silent acknowledgement marks the turn but keeps the last delivered body', () => {
		const state = fresh();
		markDelivered(state, 1, 'a');
		markDelivered(state, 2, null);
		assert.equal(state.lastTurn, 2);
		assert.equal(state.lastBody, 'a');
		assert.ok(state.fired);
	});
});
