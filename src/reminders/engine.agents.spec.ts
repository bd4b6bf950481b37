// Sub-agents' rosters in the engine: clones isolated from the template and from their siblings,
// turn counts per invocation, the agent-scope defaults and the extras a spawn adds, and finding
// a definition by type or key (what a profile's `reminders` names).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { everyTurn } from './policy';
import { bodiesOf, rosterReminder, setup } from '../testing/engineSetup';

describe('agent invocations of the engine', () => {
	it("firing a child's clone leaves the template and its siblings untouched; each counts its own samples", async () => {
		const { engine, request } = setup({ defaults: [rosterReminder('once')] });
		const first = engine.spawnAgent('root/explore#1');
		const second = engine.spawnAgent('root/explore#2');
		first.beginSample();
		first.beginSample();
		first.beginSample();
		assert.deepEqual(bodiesOf(engine.wait(request(first.owner, 'turn-start'), undefined)), ['once says hello']);
		await engine.wait(request(first.owner, 'mid-turn'), undefined).commit();
		first.beginSample();
		assert.deepEqual(bodiesOf(engine.wait(request(first.owner, 'mid-turn'), undefined)), [], 'the one-shot fired in this clone');

		second.beginSample();
		assert.deepEqual(bodiesOf(engine.wait(request(second.owner, 'turn-start'), undefined)), ['once says hello'], 'a sibling clone is untouched');
		const root = engine.beginUserTurn('turn-1');
		assert.deepEqual(bodiesOf(engine.wait(request(root, 'turn-start'), undefined)), ['once says hello'], 'the template (the session roster) is untouched');
		assert.deepEqual([first.roster.turn, second.roster.turn, engine.roster.turn], [4, 1, 1], 'turn counts per invocation');
	});

	it("a spawn takes the session roster's definitions for agents and its own extras; an agent-scope default only when added", () => {
		const agentOnly = { ...rosterReminder('agentOnly', everyTurn), scope: 'agent' as const };
		const extra = { ...rosterReminder('extra', everyTurn), scope: 'agent' as const };
		const sessionOnly = { ...rosterReminder('sessionOnly', everyTurn), scope: 'session' as const };
		const { engine, request } = setup({ defaults: [rosterReminder('both', everyTurn), agentOnly, sessionOnly] });
		const child = engine.spawnAgent('root/general#1', [extra, sessionOnly, rosterReminder('both', everyTurn), agentOnly]);
		assert.deepEqual(child.roster.types(), ['both', 'extra', 'agentOnly'], 'a session-only extra and a duplicate are skipped');
		assert.deepEqual(engine.roster.types(), ['both', 'sessionOnly']);
		child.beginSample();
		assert.deepEqual(bodiesOf(engine.wait(request(child.owner, 'turn-start'), undefined)), ['both says hello', 'extra says hello', 'agentOnly says hello']);
		assert.deepEqual(engine.spawnAgent('root/general#2').roster.types(), ['both'], "a sibling gets neither the other's extras nor the agent-scope default");
	});

	it('finds a definition by type or by key, in the session roster or the defaults', () => {
		const agentOnly = { ...rosterReminder('agentOnly', everyTurn, 'test.other'), scope: 'agent' as const };
		const { engine } = setup({ defaults: [rosterReminder('both'), agentOnly] });
		assert.equal(engine.definitionNamed('both')?.type, 'both');
		assert.equal(engine.definitionNamed('test.roster')?.type, 'both');
		assert.equal(engine.definitionNamed('agentOnly')?.type, 'agentOnly', 'an agent-scope default is found though the session roster does not hold it');
		assert.equal(engine.definitionNamed('test.other')?.type, 'agentOnly');
		assert.equal(engine.definitionNamed('nothing.here'), undefined);
	});
});
