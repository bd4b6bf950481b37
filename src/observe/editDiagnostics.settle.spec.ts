import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { A, assign, B, missing, REQ, setup, unused } from '../testing/editDiagnosticsSetup';
import { FakeTimers, isDone } from '../testing/fakeTimers';
import { InMemoryDiagnosticsSource } from '../testing/inMemoryDiagnosticsSource';
import { EditDiagnostics } from './editDiagnostics';

// Waiting for a file's diagnostics to settle after an edit: quiet windows, grace, cap, cancellation, request ends.
describe('EditDiagnostics waits', () => {
	it('settles one quiet window after a change that leaves the problems as they were, not before', async () => {
		const { source, timers, observer } = setup();
		source.setSilently(A, [assign]);
		observer.beforeEdit(REQ, A);
		const result = observer.afterEdit(REQ, A);
		timers.advance(250);
		source.setDiagnostics(A, [assign]);
		timers.advance(299);
		assert.equal(await isDone(result), false);
		timers.advance(1);
		assert.match((await result)?.body ?? '', /no new problems/);
	});

	it('settles after the grace period when the language server never publishes', async () => {
		const { source, timers, counts, observer } = setup();
		source.setSilently(A, [assign]);
		observer.beforeEdit(REQ, A);
		const result = observer.afterEdit(REQ, A);
		source.setSilently(A, [assign, missing]);
		timers.advance(1499);
		assert.equal(await isDone(result), false);
		timers.advance(1);
		assert.match((await result)?.body ?? '', /After your edit of src\/a\.ts, 1 new problem:\n {2}error TS2304/);
		assert.deepEqual(counts, [{ new: 1, changed: 0, preExisting: 1, resolved: 0, timedOut: false, waitedMs: 1500, endedBy: 'grace' }]);
	});

	it('endless churn hits the (configurable) cap, and the event says so', async () => {
		const { source, timers, counts, observer } = setup({ capMs: 5000 });
		observer.beforeEdit(REQ, A);
		const result = observer.afterEdit(REQ, A);
		for (let n = 0; n < 100; n++) {
			source.setDiagnostics(A, n % 2 ? [assign] : [assign, missing]);
			timers.advance(50);
		}
		const event = await result;
		assert.match(event?.body ?? '', /^Diagnostics of src\/a\.ts were still changing 5 s after your edit; these are as they stood then\.\n/);
		assert.deepEqual(counts, [{ new: 1, changed: 0, preExisting: 0, resolved: 0, timedOut: true, waitedMs: 5000, endedBy: 'cap' }]);
		assert.equal(timers.pending, 0);
	});

	it('the person\'s settings apply to the next edit: the cap and the per-file limit are read at each one', async () => {
		let limits = { capMs: 30_000, maxPerFile: 10 };
		const { source, timers, observer, edit } = setup({ limits: () => limits });
		source.setSilently(A, []);
		assert.match((await edit(A, [assign, missing])) ?.body ?? '', /2 new problems:\n.*\n.*Cannot find name/);
		observer.endRequest(REQ);
		limits = { capMs: 5000, maxPerFile: 1 };
		source.setSilently(A, []);
		assert.match((await edit(A, [assign, missing]))?.body ?? '', /2 new problems:\n {2}error TS2322[^\n]*\n\n1 more problem not listed/);
		observer.endRequest(REQ);
		observer.beforeEdit(REQ, A);
		const churning = observer.afterEdit(REQ, A);
		for (let n = 0; n < 120; n++) {
			source.setDiagnostics(A, n % 2 ? [assign] : [assign, missing]);
			timers.advance(50);
		}
		assert.match((await churning)?.body ?? '', /still changing 5 s after your edit/);
	});

	it('a cancelled request stops waiting: no event, no telemetry, and the next edit still shows the context', async () => {
		const { source, timers, counts, observer, edit } = setup();
		source.setSilently(A, [unused]);
		observer.beforeEdit(REQ, A);
		const controller = new AbortController();
		const result = observer.afterEdit(REQ, A, controller.signal);
		timers.advance(50);
		controller.abort();
		assert.equal(await result, undefined);
		assert.deepEqual(counts, []);
		assert.equal(timers.pending, 0);
		const event = await edit(A, [unused, assign]);
		assert.match(event?.body ?? '', /Already there before your edit \(context only\):\n {2}warning no-unused-vars/);
	});

	it('a report that came while the edit was being written and saved counts: no grace after the save', async () => {
		const { source, timers, counts, observer } = setup();
		source.setSilently(A, [unused]);
		observer.beforeEdit(REQ, A);
		timers.advance(300);
		source.setDiagnostics(A, [unused, assign]);
		timers.advance(700);
		const result = observer.afterEdit(REQ, A);
		timers.advance(0);
		assert.match((await result)?.body ?? '', /1 new problem:\n {2}error TS2322/);
		assert.deepEqual(counts, [{ new: 1, changed: 0, preExisting: 1, resolved: 0, timedOut: false, waitedMs: 0, endedBy: 'quiet' }]);
		assert.equal(timers.pending, 0, 'the watch left no timer');
	});

	it('the grace counts from the start of the edit', async () => {
		const { timers, counts, observer } = setup();
		observer.beforeEdit(REQ, A);
		timers.advance(1000);
		const result = observer.afterEdit(REQ, A);
		timers.advance(500);
		assert.equal(await result, undefined);
		assert.deepEqual(counts, [{ new: 0, changed: 0, preExisting: 0, resolved: 0, timedOut: false, waitedMs: 500, endedBy: 'grace' }]);
	});

	it('a long file gets longer windows: a semantic report 2 s after the syntax one is still waited for', async () => {
		const { source, timers, observer } = setup();
		source.setSilently(A, [missing]);
		observer.beforeEdit(REQ, A);
		const result = observer.afterEdit(REQ, A, undefined, { lines: 2000 });
		timers.advance(900);
		// The syntax report: nothing new in it yet.
		source.setDiagnostics(A, [missing]);
		timers.advance(2000);
		assert.equal(await isDone(result), false);
		source.setDiagnostics(A, [missing, assign]);
		timers.advance(3300);
		assert.match((await result)?.body ?? '', /1 new problem:\n {2}error TS2322/);
	});

	it('a document opened only after the write (a file the edit created) gets the longer grace of one opened just now', async () => {
		const { source, timers, observer } = setup();
		observer.beforeEdit(REQ, B);
		const result = observer.afterEdit(REQ, B, undefined, { justOpened: true });
		timers.advance(4000);
		assert.equal(await isDone(result), false, 'its server may still be starting');
		source.setDiagnostics(B, [assign]);
		timers.advance(300);
		assert.match((await result)?.body ?? '', /After your edit of src\/b\.ts, 1 new problem/);
	});

	it('beforeEditSettled watches from after the baseline: the reports that made the baseline are not the edit\'s', async () => {
		const { source, timers, counts, observer } = setup();
		const ready = observer.beforeEditSettled(REQ, A);
		timers.advance(200);
		source.setDiagnostics(A, [unused]);
		timers.advance(300);
		await ready;
		const result = observer.afterEdit(REQ, A);
		timers.advance(1499);
		assert.equal(await isDone(result), false, 'the first report was the baseline, not the edit\'s: a full grace');
		timers.advance(1);
		await result;
		assert.deepEqual(counts.map((c) => c.endedBy), ['grace']);
	});

	it('endRequest stops the watches of edits that never reached afterEdit', () => {
		const source = new InMemoryDiagnosticsSource();
		let listeners = 0;
		const counting = {
			get: (uri: string) => source.get(uri),
			onDidChange: (listener: (uris: readonly string[]) => void) => {
				listeners++;
				const subscription = source.onDidChange(listener);
				return {
					dispose: () => {
						listeners--;
						subscription.dispose();
					},
				};
			},
		};
		const timers = new FakeTimers();
		const watched = new EditDiagnostics(counting, timers.clock, timers, { displayPath: (uri) => uri });
		watched.beforeEdit(REQ, A);
		watched.beforeEdit(REQ, A);
		watched.beforeEdit(REQ, B);
		assert.equal(listeners, 2, 'one watch per file: a second edit replaces the first one\'s');
		watched.endRequest(REQ);
		assert.equal(listeners, 0);
	});

	it('endRequest forgets the baselines; waits still running for it come to nothing', async () => {
		const { source, timers, log, observer } = setup();
		observer.beforeEdit(REQ, A);
		const result = observer.afterEdit(REQ, A);
		observer.endRequest(REQ);
		source.setDiagnostics(A, [assign]);
		timers.advance(300);
		assert.equal(await result, undefined);
		assert.equal(await observer.afterEdit(REQ, A), undefined, 'no baseline: nothing to compare with');
		assert.equal(log.at('warn').length, 1);
	});

	it('beforeEditSettled waits for a just-opened document to publish before taking the baseline', async () => {
		const { source, timers, observer } = setup();
		const ready = observer.beforeEditSettled(REQ, A);
		timers.advance(200);
		source.setDiagnostics(A, [unused]);
		timers.advance(300);
		await ready;
		const result = observer.afterEdit(REQ, A);
		source.setDiagnostics(A, [unused, assign]);
		timers.advance(300);
		const event = await result;
		assert.match(event?.body ?? '', /1 new problem:\n {2}error TS2322[^\n]*\nAlready there before your edit \(context only\):\n {2}warning no-unused-vars/);
		await observer.beforeEditSettled(REQ, A);
		assert.equal(timers.pending, 0, 'a file with a baseline does not wait again');
	});
});
