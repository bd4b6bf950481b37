import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeTimers, isDone } from '../testing/fakeTimers';
import { diagnosticEntry, InMemoryDiagnosticsSource } from '../testing/inMemoryDiagnosticsSource';
import { DEFAULT_SETTLE_OPTIONS, DiagnosticsWatch, PER_LINE_MS, SCALED_LINES_MAX, scaleForLines, type SettleOutcome, waitForSettle } from './diagnosticsSettle';

const URI = 'file:///w/src/a.ts';

function setup() {
	const source = new InMemoryDiagnosticsSource();
	const timers = new FakeTimers();
	const wait = (signal?: AbortSignal, since?: DiagnosticsWatch): Promise<SettleOutcome> => waitForSettle(
		source,
		URI,
		DEFAULT_SETTLE_OPTIONS,
		timers.clock,
		timers,
		signal,
		since,
	);
	/** Begins an edit: the watch that the wait after it is given. */
	const watch = (uri = URI): DiagnosticsWatch => new DiagnosticsWatch(source, uri, timers.clock);
	return { source, timers, wait, watch };
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

	describe('with a watch started before the edit was written', () => {
		it('a report that came during the save: waits only what is left of the quiet window after it', async () => {
			const { source, timers, wait, watch } = setup();
			const since = watch();
			timers.advance(500);
			source.setDiagnostics(URI, [diagnosticEntry()]);
			timers.advance(200);
			const settled = wait(undefined, since);
			timers.advance(99);
			assert.equal(await isDone(settled), false);
			timers.advance(1);
			assert.deepEqual(await settled, { reason: 'quiet', changes: 1, waitedMs: 100 }, 'no grace: the server has reported');
			since.dispose();
			assert.equal(timers.pending, 0);
		});

		it('a report long before the save resolved: settled at once', async () => {
			const { source, timers, wait, watch } = setup();
			const since = watch();
			timers.advance(100);
			source.setDiagnostics(URI, [diagnosticEntry()]);
			timers.advance(2000);
			const settled = wait(undefined, since);
			timers.advance(0);
			assert.deepEqual(await settled, { reason: 'quiet', changes: 1, waitedMs: 0 });
		});

		it('a later report (the semantic one after the syntax one) restarts the quiet window', async () => {
			const { source, timers, wait, watch } = setup();
			const since = watch();
			timers.advance(400);
			source.setDiagnostics(URI, []);
			const settled = wait(undefined, since);
			timers.advance(250);
			source.setDiagnostics(URI, [diagnosticEntry()]);
			timers.advance(299);
			assert.equal(await isDone(settled), false);
			timers.advance(1);
			assert.deepEqual(await settled, { reason: 'quiet', changes: 2, waitedMs: 550 });
		});

		it('no report yet: the grace counts from the start of the edit, not from the call', async () => {
			const { timers, wait, watch } = setup();
			const since = watch();
			timers.advance(1000);
			const settled = wait(undefined, since);
			timers.advance(499);
			assert.equal(await isDone(settled), false);
			timers.advance(1);
			assert.deepEqual(await settled, { reason: 'grace', changes: 0, waitedMs: 500 });
		});

		it('no report and a save slower than the grace: still one quiet window for a report on its way', async () => {
			const { source, timers, wait, watch } = setup();
			const since = watch();
			timers.advance(3000);
			const settled = wait(undefined, since);
			timers.advance(299);
			assert.equal(await isDone(settled), false);
			timers.advance(1);
			assert.deepEqual(await settled, { reason: 'grace', changes: 0, waitedMs: 300 });
			const again = wait(undefined, since);
			timers.advance(200);
			source.setDiagnostics(URI, [diagnosticEntry()]);
			timers.advance(300);
			assert.deepEqual(await again, { reason: 'quiet', changes: 1, waitedMs: 500 }, 'a report within it ends the grace');
		});

		it('a watch of another URI, or changes of other URIs, count for nothing', async () => {
			const { source, timers, wait, watch } = setup();
			const other = watch('file:///w/src/b.ts');
			const since = watch();
			timers.advance(100);
			source.setDiagnostics('file:///w/src/b.ts', [diagnosticEntry()]);
			assert.equal(since.changes, 0);
			assert.equal(other.changes, 1);
			const settled = wait(undefined, other);
			timers.advance(1499);
			assert.equal(await isDone(settled), false, 'a full grace from the call');
			timers.advance(1);
			assert.equal((await settled).reason, 'grace');
		});

		it('a disposed watch counts nothing more', () => {
			const { source, watch } = setup();
			const since = watch();
			source.setDiagnostics(URI, []);
			since.dispose();
			source.setDiagnostics(URI, [diagnosticEntry()]);
			assert.equal(since.changes, 1);
		});
	});

	it('scaleForLines widens the quiet window and the grace with the file, up to a limit; the cap and the answered window stay', () => {
		assert.deepEqual(scaleForLines(DEFAULT_SETTLE_OPTIONS, undefined), DEFAULT_SETTLE_OPTIONS);
		assert.deepEqual(
			scaleForLines(DEFAULT_SETTLE_OPTIONS, 2000),
			{ quietMs: 300 + 2000 * PER_LINE_MS, graceMs: 1500 + 2000 * PER_LINE_MS, capMs: 30_000, answeredQuietMs: 100 },
		);
		assert.deepEqual(scaleForLines(DEFAULT_SETTLE_OPTIONS, 1_000_000), scaleForLines(DEFAULT_SETTLE_OPTIONS, SCALED_LINES_MAX));
		assert.deepEqual(scaleForLines(DEFAULT_SETTLE_OPTIONS, -5), DEFAULT_SETTLE_OPTIONS);
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
