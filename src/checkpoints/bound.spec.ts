// The bound's schedule: debounced, never two passes at once, and a failing pass only logged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeTimers } from '../testing/fakeTimers';
import { RecordingLogger } from '../testing/recordingLogger';
import { CheckpointBound } from './bound';
import type { BoundReport } from './collector';

const REPORT: BoundReport = { bytesBefore: 0, bytesAfter: 0, droppedChats: [], removedBlobs: 0 };

describe('CheckpointBound', () => {
	it('runs one pass for a burst of requests, after the delay, with the bound the setting says then', async () => {
		const timers = new FakeTimers();
		const passes: number[] = [];
		let max = 100;
		const bound = new CheckpointBound(
			{ enforceBound: (maxBytes) => (passes.push(maxBytes), Promise.resolve(REPORT)) },
			() => max,
			timers,
			new RecordingLogger(),
			1000,
		);
		bound.request();
		timers.advance(500);
		bound.request();
		max = 200;
		timers.advance(999);
		assert.deepEqual(passes, [], 'the second request restarted the wait');
		timers.advance(1);
		await bound.settled();
		assert.deepEqual(passes, [200]);
	});

	it('a request during a pass is one more pass after it, never two at once', async () => {
		const timers = new FakeTimers();
		let release = (): void => undefined;
		let active = 0;
		let most = 0;
		let passes = 0;
		const bound = new CheckpointBound(
			{
				enforceBound: () => {
					active++;
					passes++;
					most = Math.max(most, active);
					return new Promise<BoundReport>((resolve) => {
						release = () => {
							active--;
							resolve(REPORT);
						};
					});
				},
			},
			() => 1,
			timers,
			new RecordingLogger(),
			10,
		);
		bound.request();
		timers.advance(10);
		bound.request();
		bound.request();
		timers.advance(10);
		assert.equal(passes, 1);
		release();
		await bound.settled();
		await Promise.resolve();
		timers.advance(10);
		assert.equal(passes, 2);
		release();
		await bound.settled();
		assert.equal(most, 1);
	});

	it('a pass that fails is logged, and the next request runs again', async () => {
		const timers = new FakeTimers();
		const log = new RecordingLogger();
		let calls = 0;
		const bound = new CheckpointBound({ enforceBound: () => (calls++, Promise.reject(new Error('EACCES'))) }, () => 1, timers, log, 10);
		bound.request();
		timers.advance(10);
		await bound.settled();
		assert.match(log.at('warn')[0] ?? '', /could not hold the checkpoints under aside\.checkpoints\.maxBytes: EACCES/);
		bound.request();
		timers.advance(10);
		await bound.settled();
		assert.equal(calls, 2);
		bound.dispose();
		bound.request();
		timers.advance(10);
		assert.equal(calls, 2, 'nothing after dispose');
	});
});
