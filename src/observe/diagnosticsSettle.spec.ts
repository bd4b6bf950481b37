import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeTimers, isDone } from '../testing/fakeTimers';
import { diagnosticEntry, InMemoryDiagnosticsSource } from '../testing/inMemoryDiagnosticsSource';
import { DEFAULT_SETTLE_OPTIONS, type SettleOutcome, waitForSettle } from './diagnosticsSettle';

const URI = 'file:///w/src/a.ts';

function setup() {
	const source = new InMemoryDiagnosticsSource();
	const timers = new FakeTimers();
	const wait = (signal?: AbortSignal): Promise<SettleOutcome> => waitForSettle(source, URI, DEFAULT_SETTLE_OPTIONS, timers.clock, timers, signal);
	return { source, timers, wait };
}

describe('waitForSettle', () => {
	it('settles one quiet window after the last change for the URI', async () => {
		const { source, timers, wait } = setup();
		const settled = wait();
		timers.advance(100);
		source.setDiagnostics(URI, [diagnosticEntry()]);
		timers.advance(200);
		source.setDiagnostics(URI, [diagnosticEntry(), diagnosticEntry({ line: 3 })]);
		timers.advance(299);
		assert.equal(await isDone(settled), false, 'the second change restarted the quiet window');
		timers.advance(1);
		assert.deepEqual(await settled, { reason: 'quiet', changes: 2, waitedMs: 600 });
		assert.equal(timers.pending, 0, 'no timer is left behind');
	});

	it('settles after the grace period when no change arrives at all', async () => {
		const { timers, wait } = setup();
		const settled = wait();
		timers.advance(1499);
		assert.equal(await isDone(settled), false);
		timers.advance(1);
		assert.deepEqual(await settled, { reason: 'grace', changes: 0, waitedMs: 1500 });
		assert.equal(timers.pending, 0);
	});

	it('a change late in the grace period still gets its quiet window', async () => {
		const { source, timers, wait } = setup();
		const settled = wait();
		timers.advance(1400);
		source.setDiagnostics(URI, []);
		timers.advance(200);
		assert.equal(await isDone(settled), false, 'the grace period ended with the first change');
		timers.advance(100);
		assert.deepEqual(await settled, { reason: 'quiet', changes: 1, waitedMs: 1700 });
	});

	it('ignores changes for other URIs', async () => {
		const { source, timers, wait } = setup();
		const settled = wait();
		timers.advance(100);
		source.setDiagnostics('file:///w/src/b.ts', [diagnosticEntry()]);
		timers.advance(400);
		assert.equal(await isDone(settled), false);
		timers.advance(1000);
		assert.equal((await settled).reason, 'grace');
	});

	it('endless churn ends at the cap', async () => {
		const { source, timers, wait } = setup();
		const settled = wait();
		for (let elapsed = 0; elapsed < 40_000; elapsed += 200) {
			source.fireChange([URI]);
			timers.advance(200);
		}
		const outcome = await settled;
		assert.equal(outcome.reason, 'cap');
		assert.equal(outcome.waitedMs, 30_000);
		assert.equal(timers.pending, 0);
	});

	it('stops waiting when the signal aborts, and at once when it already has', async () => {
		const { timers, wait } = setup();
		const controller = new AbortController();
		const settled = wait(controller.signal);
		timers.advance(700);
		controller.abort();
		assert.deepEqual(await settled, { reason: 'aborted', changes: 0, waitedMs: 700 });
		assert.equal(timers.pending, 0, 'an aborted wait leaves no timer');
		assert.equal((await wait(controller.signal)).reason, 'aborted');
		assert.equal(timers.pending, 0);
	});

	it('changes after it settled touch nothing', async () => {
		const { source, timers, wait } = setup();
		const settled = wait();
		timers.advance(1500);
		await settled;
		source.setDiagnostics(URI, [diagnosticEntry()]);
		assert.equal(timers.pending, 0, 'the listener is gone');
	});
});

describe('FakeTimers', () => {
	it('runs due timers in time order, ties in the order set, including timers set while running', () => {
		const timers = new FakeTimers();
		const start = timers.clock.now();
		const ran: string[] = [];
		timers.setTimeout(() => ran.push(`b@${timers.clock.now() - start}`), 20);
		timers.setTimeout(() => {
			ran.push(`a@${timers.clock.now() - start}`);
			timers.setTimeout(() => ran.push(`c@${timers.clock.now() - start}`), 5);
		}, 10);
		const cleared = timers.setTimeout(() => ran.push('never'), 15);
		timers.setTimeout(() => ran.push(`d@${timers.clock.now() - start}`), 20);
		timers.clearTimeout(cleared);
		timers.advance(19);
		assert.deepEqual(ran, ['a@10', 'c@15']);
		timers.advance(1);
		assert.deepEqual(ran, ['a@10', 'c@15', 'b@20', 'd@20']);
		assert.equal(timers.clock.now() - start, 20);
		assert.equal(timers.pending, 0);
	});
});
