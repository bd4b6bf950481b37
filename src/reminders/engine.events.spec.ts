// The engine's turn events, pending FIFO and agent invocations: who gets what, and when it is dropped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setup, rosterReminder, observed, bodiesOf } from '../testing/engineSetup';

describe('reminder engine: turn events, the pending FIFO and agents', () => {
	it('turn events are delivered at the owner\'s next WAIT and never carried into the next user turn', async () => {
		const { engine, log, request } = setup();
		const first = engine.beginUserTurn('turn-1');
		engine.queueTurnEvent(first, observed('delivered'));
		await engine.wait(request(first, 'mid-turn'), undefined).commit();
		engine.queueTurnEvent(first, observed('never delivered: the turn ended first'));
		engine.endUserTurn();
		assert.equal(engine.queueTurnEvent(first, observed('late tool output')), false, 'a finished owner takes nothing');
		assert.match(log.at('debug').join('\n'), /dropped an observed turn event for root turn-1/);

		const second = engine.beginUserTurn('turn-2');
		assert.equal(engine.wait(request(second, 'turn-start'), undefined).record, null);
	});

	it('starting a new user turn drops the previous owner\'s events', () => {
		const { engine, request } = setup();
		const first = engine.beginUserTurn('turn-1');
		engine.queueTurnEvent(first, observed('queued in turn 1'));
		const second = engine.beginUserTurn('turn-2');
		assert.equal(engine.wait(request(second, 'turn-start'), undefined).record, null);
		assert.equal(engine.currentRootOwner, second);
		assert.equal(engine.queueTurnEvent(first, observed('tool output of turn 1, arriving late')), false, 'turn 1 is closed, not just out of sight');
		assert.throws(() => engine.wait(request(first, 'mid-turn'), undefined), /turn-1 is not the running root turn/, 'and cannot prepare requests any more');
	});

	it('a newer event of the same key replaces the undelivered older one', async () => {
		const { engine, request } = setup();
		const owner = engine.beginUserTurn('turn-1');
		engine.queueTurnEvent(owner, observed('a.ts: 1 line changed'));
		engine.queueTurnEvent(owner, observed('a.ts: 3 lines changed'));
		const injection = engine.wait(request(owner, 'mid-turn'), undefined);
		assert.deepEqual(bodiesOf(injection), ['a.ts: 3 lines changed']);
		engine.queueTurnEvent(owner, observed('a.ts: 4 lines changed'));
		await injection.commit();
		assert.deepEqual(bodiesOf(engine.wait(request(owner, 'mid-turn'), undefined)), ['a.ts: 4 lines changed'], 'an event that arrived after the WAIT survives its commit');
	});

	it('the pending FIFO survives a request boundary, is consumed only on commit, and only by the root', async () => {
		const { engine, request } = setup();
		engine.enqueuePending({ type: 'fifo', key: 'test.fifo', body: 'resumed' });
		const agent = engine.spawnAgent('agent-1');
		agent.beginSample();
		assert.equal(engine.wait(request(agent.owner, 'turn-start'), undefined).record, null, 'agents do not consume the session FIFO');
		const owner = engine.beginUserTurn('turn-1');
		engine.wait(request(owner, 'turn-start'), undefined); // failed
		engine.endUserTurn();
		assert.equal(engine.pending.size, 1, 'the request and the turn ended; the FIFO did not');
		const next = engine.beginUserTurn('turn-2');
		const injection = engine.wait(request(next, 'turn-start'), undefined);
		engine.enqueuePending({ type: 'fifo', key: 'test.fifo', body: 'arrived during dispatch' });
		await injection.commit();
		assert.deepEqual(engine.pending.snapshot().map((item) => item.body), ['arrived during dispatch']);
	});

	it('agents: their own roster, turn counting and events, isolated from the root', async () => {
		const { engine, request } = setup({ defaults: [rosterReminder('both'), { ...rosterReminder('rootOnly'), scope: 'session' }] });
		const root = engine.beginUserTurn('turn-1');
		await engine.wait(request(root, 'turn-start'), undefined).commit();

		const agent = engine.spawnAgent('agent-1');
		assert.deepEqual(agent.roster.types(), ['both']);
		assert.equal(agent.beginSample(), 1);
		engine.queueTurnEvent(agent.owner, observed('agent saw this'));
		engine.queueTurnEvent(root, observed('root saw this'));
		const first = engine.wait(request(agent.owner, 'turn-start'), undefined);
		assert.deepEqual(bodiesOf(first), ['both says hello', 'agent saw this']);
		assert.deepEqual(first.record?.owner, { kind: 'agent', id: 'agent-1' });
		assert.equal(first.record.turn, 1);
		await first.commit();
		assert.equal(agent.beginSample(), 2, 'every model sample counts as an agent turn');
		assert.equal(engine.roster.turn, 1, 'the root\'s turn count did not move');

		assert.deepEqual(bodiesOf(engine.wait(request(root, 'mid-turn'), undefined)), ['root saw this']);
		engine.queueTurnEvent(agent.owner, observed('after the end'));
		agent.end();
		assert.throws(() => engine.wait(request(agent.owner, 'mid-turn'), undefined), /No running agent invocation "agent-1"/);
		assert.throws(() => {
			engine.spawnAgent('agent-2');
			engine.spawnAgent('agent-2');
		}, /already running/);
	});
});
