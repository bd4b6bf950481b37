import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Owner } from './definition';
import { type TurnEvent, TurnEventQueues } from './turnEvents';

const ROOT: Owner = { kind: 'root', id: 'turn-1' };
const AGENT: Owner = { kind: 'agent', id: 'agent-1' };
const event = (key: string, body: string): TurnEvent => ({ type: key, key, body });
const bodies = (events: readonly TurnEvent[]): (string | null)[] => events.map((e) => e.body);

describe('turn events', () => {
	it('coalesce by key: the newer replaces the older, in first-arrival order', () => {
		const queues = new TurnEventQueues();
		queues.open(ROOT);
		queues.queue(ROOT, event('files.edited', 'a.ts v1'));
		queues.queue(ROOT, event('edit.diagnostics', '1 error'));
		queues.queue(ROOT, event('files.edited', 'a.ts v2'));
		assert.deepEqual(bodies(queues.pending(ROOT)), ['a.ts v2', '1 error']);
	});

	it('an event that says how merges with the older one instead', () => {
		const queues = new TurnEventQueues();
		queues.open(ROOT);
		const merging = (body: string): TurnEvent => ({ ...event('steering.user', body), merge: (older) => merging(`${older.body ?? ''} + ${body}`) });
		queues.queue(ROOT, merging('one'));
		queues.queue(ROOT, merging('two'));
		assert.deepEqual(bodies(queues.pending(ROOT)), ['one + two']);
	});

	it('are bound to their owner: the root and an agent never see each other\'s', () => {
		const queues = new TurnEventQueues();
		queues.open(ROOT);
		queues.open(AGENT);
		queues.queue(ROOT, event('k', 'root'));
		queues.queue(AGENT, event('k', 'agent'));
		assert.deepEqual(bodies(queues.pending(ROOT)), ['root']);
		assert.deepEqual(bodies(queues.pending(AGENT)), ['agent']);
	});

	it('closing an owner drops its events, and later ones for it are refused', () => {
		const queues = new TurnEventQueues();
		queues.open(ROOT);
		queues.queue(ROOT, event('k', 'late'));
		queues.close(ROOT);
		assert.deepEqual(queues.pending(ROOT), []);
		assert.equal(queues.queue(ROOT, event('k', 'after the end')), false);
		assert.equal(queues.isOpen(ROOT), false);
		queues.open(ROOT);
		assert.deepEqual(queues.pending(ROOT), [], 'reopening the same id starts empty');
	});

	it('removing a delivered event keeps a newer one of the same key', () => {
		const queues = new TurnEventQueues();
		queues.open(ROOT);
		const delivered = event('k', 'v1');
		queues.queue(ROOT, delivered);
		queues.queue(ROOT, event('k', 'v2'));
		queues.remove(ROOT, delivered);
		assert.deepEqual(bodies(queues.pending(ROOT)), ['v2']);
		const [v2] = queues.pending(ROOT);
		assert.ok(v2);
		queues.remove(ROOT, v2);
		assert.deepEqual(queues.pending(ROOT), []);
	});
});
