import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReminderEngine } from '../reminders/engine';
import { FakeClock } from '../testing/fakeClock';
import { MemoryRecorder } from '../testing/memoryRecorder';
import { RecordingLogger } from '../testing/recordingLogger';
import { Steering } from './steering';

function setup() {
	const log = new RecordingLogger();
	const recorder = new MemoryRecorder();
	const engine = new ReminderEngine({ recorder, clock: new FakeClock(), log });
	let changes = 0;
	const steering = new Steering(() => changes++, log);
	const owner = engine.beginUserTurn('turn-1');
	const wait = (id: string) => engine.wait({ requestId: id, owner, phase: 'mid-turn', messages: [{ role: 'user', content: [{ type: 'text', text: 'Install the dependencies.' }] }] }, undefined);
	return { engine, recorder, steering, owner, wait, log, changes: () => changes };
}

const steeringBodies = (recorder: MemoryRecorder): string[] => recorder.records.flatMap((record) => record.entries.filter((entry) => entry.key === 'steering.user').map((entry) => entry.body));

describe('steering', () => {
	it('is pending from when it is typed until the request that carries it was accepted', async () => {
		const { engine, recorder, steering, owner, wait, changes } = setup();
		steering.steer(engine, owner, 'use pnpm');
		assert.deepEqual(steering.pending, ['use pnpm']);
		assert.equal(changes(), 1);
		const injection = wait('r1');
		assert.deepEqual(steering.pending, ['use pnpm'], 'a WAIT alone delivers nothing');
		await injection.commit();
		assert.deepEqual(steering.pending, [], 'its own event\'s commit clears it');
		assert.equal(changes(), 2);
		assert.equal(steeringBodies(recorder).length, 1);
	});

	it('clears only what the delivery carried: a message typed while the request was on its way waits for the next', async () => {
		const { engine, recorder, steering, owner, wait } = setup();
		steering.steer(engine, owner, 'first');
		const injection = wait('r1');
		steering.steer(engine, owner, 'second');
		await injection.commit();
		assert.deepEqual(steering.pending, ['second']);
		await wait('r2').commit();
		assert.deepEqual(steering.pending, []);
		const bodies = steeringBodies(recorder);
		assert.equal(bodies.length, 2);
		assert.match(bodies[0] ?? '', /first$/);
		assert.match(bodies[1] ?? '', /second$/);
	});

	it('a request that was never accepted clears nothing', () => {
		const { engine, steering, owner, wait } = setup();
		steering.steer(engine, owner, 'use pnpm');
		wait('r1');
		assert.deepEqual(steering.pending, ['use pnpm']);
	});

	it('after the turn ended, a message stays pending and take() hands over what was never delivered', async () => {
		const { engine, steering, owner, wait, log } = setup();
		steering.steer(engine, owner, 'delivered');
		await wait('r1').commit();
		engine.endUserTurn();
		steering.steer(engine, owner, 'too late');
		assert.ok(log.at('warn').some((line) => line.includes('arrived after its turn ended')));
		assert.deepEqual(steering.take(), ['too late']);
		assert.deepEqual(steering.pending, [], 'nothing is pending after take()');
	});
});
