import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../testing/fakeClock';
import { assistantText, userText } from '../testing/history';
import { MemoryRecorder } from '../testing/memoryRecorder';
import { RecordingLogger } from '../testing/recordingLogger';
import { userSteering } from './builtin/userSteering';
import type { Owner } from './definition';
import { ReminderEngine } from './engine';
import { AccumulatingKind, type TurnEvent, TurnEventQueues } from './turnEvents';

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
		const joined = new AccumulatingKind<string>({ type: 'steering.user', key: 'steering.user', label: 'steering' }, { render: (items) => ({ body: items.join(' + ') }) });
		const merging = (body: string): TurnEvent => joined.event([body]);
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

describe('accumulating turn events', () => {
	const ITEMS = { type: 'test.items', key: 'test.items', label: 'items' };
	const byName = (name: string, version: number) => ({ name, version });
	type Versioned = ReturnType<typeof byName>;
	const show = (items: readonly Versioned[]) => ({ body: items.map((item) => `${item.name}@${item.version}`).join(' ') });

	it('without an identity, keep every item in the order queued, and render them as one entry', () => {
		const kind = new AccumulatingKind<string>(ITEMS, { stage: 'steering', render: (items) => ({ body: items.join(', '), reason: `${items.length} items` }) });
		const queues = new TurnEventQueues();
		queues.open(ROOT);
		for (const item of ['a', 'b', 'a']) {
			queues.queue(ROOT, kind.event([item]));
		}
		const [entry, ...rest] = queues.pending(ROOT);
		assert.deepEqual(rest, []);
		assert.deepEqual([entry?.body, entry?.reason, entry?.stage], ['a, b, a', '3 items', 'steering']);
	});

	it('with an identity, the newer item leaves the older out and goes last; with replace, the two become one in the older\'s place', () => {
		const queues = new TurnEventQueues();
		queues.open(ROOT);
		queues.open(AGENT);
		const last = new AccumulatingKind<Versioned>(ITEMS, { identity: (item) => item.name, render: show });
		const kept = new AccumulatingKind<Versioned>(
			ITEMS,
			{ identity: (item) => item.name, replace: (older, newer) => byName(newer.name, older.version + newer.version), render: show },
		);
		for (const [owner, kind] of [[ROOT, last], [AGENT, kept]] as const) {
			queues.queue(owner, kind.event([byName('a', 1), byName('b', 1)]));
			queues.queue(owner, kind.event([byName('a', 2)]));
		}
		assert.deepEqual(bodies(queues.pending(ROOT)), ['b@1 a@2']);
		assert.deepEqual(bodies(queues.pending(AGENT)), ['a@3 b@1']);
	});

	it('an event of another kind, or a plain one, under the same key replaces what was there', () => {
		const queues = new TurnEventQueues();
		queues.open(ROOT);
		const one = new AccumulatingKind<Versioned>(ITEMS, { render: show });
		const other = new AccumulatingKind<Versioned>(ITEMS, { render: show });
		queues.queue(ROOT, one.event([byName('a', 1)]));
		queues.queue(ROOT, other.event([byName('b', 1)]));
		assert.deepEqual(bodies(queues.pending(ROOT)), ['b@1']);
		queues.queue(ROOT, event('test.items', 'plain'));
		queues.queue(ROOT, one.event([byName('c', 1)]));
		assert.deepEqual(bodies(queues.pending(ROOT)), ['c@1']);
	});

	it('a delivery consumes the items it carried and runs their commits once; what arrived meanwhile stays, rendered alone', () => {
		const queues = new TurnEventQueues();
		queues.open(ROOT);
		const committed: string[] = [];
		const kind = new AccumulatingKind<string>(ITEMS, { render: (items) => ({ body: items.join(' + '), commit: () => committed.push(`render ${items.join(' + ')}`) }) });
		queues.queue(ROOT, kind.event(['one'], () => committed.push('one')));
		queues.queue(ROOT, kind.event(['two'], () => committed.push('two')));
		const [delivered] = queues.pending(ROOT);
		assert.ok(delivered);
		// A third arrives while the request carrying the first two is on its way.
		queues.queue(ROOT, kind.event(['three'], () => committed.push('three')));
		queues.remove(ROOT, delivered);
		delivered.commit?.();
		assert.deepEqual(committed, ['render one + two', 'one', 'two']);
		const [next, ...rest] = queues.pending(ROOT);
		assert.ok(next);
		assert.deepEqual([next.body, rest], ['three', []]);
		queues.remove(ROOT, next);
		next.commit?.();
		assert.deepEqual(committed, ['render one + two', 'one', 'two', 'render three', 'three']);
		assert.deepEqual(queues.pending(ROOT), []);
	});

	it('steering typed while the request carrying earlier steering is on its way goes out next, alone', async () => {
		const engine = new ReminderEngine({ recorder: new MemoryRecorder(), clock: new FakeClock(), log: new RecordingLogger() });
		const owner = engine.beginUserTurn('t1');
		const delivered: string[] = [];
		const wait = (id: string) => engine.wait({ requestId: id, owner, phase: 'mid-turn', messages: [userText('go'), assistantText('working')] }, undefined);
		engine.queueTurnEvent(owner, userSteering('use pnpm', () => delivered.push('use pnpm')));
		const first = wait('r1');
		engine.queueTurnEvent(owner, userSteering('and skip the tests', () => delivered.push('and skip the tests')));
		await first.commit();
		assert.match(first.record?.entries[0]?.body ?? '', /\n\nuse pnpm$/);
		assert.deepEqual(delivered, ['use pnpm']);
		const second = wait('r2');
		assert.deepEqual(second.record?.entries.map((entry) => entry.reason), ['the user typed a message while the agent worked']);
		assert.match(second.record.entries[0]?.body ?? '', /\n\nand skip the tests$/);
		await second.commit();
		assert.deepEqual(delivered, ['use pnpm', 'and skip the tests']);
		assert.equal(wait('r3').record, null);
	});
});
