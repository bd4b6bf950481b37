import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { A, assign, missing, REQ, setup } from '../testing/editDiagnosticsSetup';
import { isDone } from '../testing/fakeTimers';
import { diagnosticEntry } from '../testing/inMemoryDiagnosticsSource';

const LONG = { lines: 2000 };
const expression = diagnosticEntry({ message: 'Expression expected.', code: '1109', line: 3 });

// A long file's wait once the server has answered for the edited text: a short quiet window,
// not the one scaled for a server that may still be checking (3.3 s for 2,000 lines).
describe('EditDiagnostics: the wait ends soon after the answer', () => {
	it('a report that changes a problem ends the wait 100 ms later, however long the file', async () => {
		const { source, timers, counts, observer } = setup();
		observer.beforeEdit(REQ, A);
		const result = observer.afterEdit(REQ, A, undefined, LONG);
		timers.advance(900);
		source.setDiagnostics(A, [assign]);
		timers.advance(99);
		assert.equal(await isDone(result), false);
		timers.advance(1);
		assert.match((await result)?.body ?? '', /1 new problem/);
		assert.equal(counts[0]?.waitedMs, 1000);
	});

	it('reports that change nothing (the visible lines first, the old problems kept) keep the long window', async () => {
		const { source, timers, observer } = setup();
		source.setSilently(A, [assign]);
		observer.beforeEdit(REQ, A);
		const result = observer.afterEdit(REQ, A, undefined, LONG);
		timers.advance(300);
		source.setDiagnostics(A, [assign]);
		timers.advance(2000);
		assert.equal(await isDone(result), false, 'the semantic check may still be running');
		// The whole file's report, 2.3 s after the edit: the answer.
		source.setDiagnostics(A, [missing]);
		timers.advance(100);
		assert.match((await result)?.body ?? '', /1 new problem:\n {2}error TS2304/);
	});

	it('a syntax error alone is one phase: the semantic report after it is waited for', async () => {
		const { source, timers, observer } = setup();
		source.setSilently(A, [expression]);
		observer.beforeEdit(REQ, A);
		const result = observer.afterEdit(REQ, A, undefined, LONG);
		timers.advance(300);
		source.setDiagnostics(A, []);
		timers.advance(1500);
		assert.equal(await isDone(result), false);
		source.setDiagnostics(A, [missing, assign]);
		timers.advance(100);
		assert.match((await result)?.body ?? '', /2 new problems/);
	});

	it('the answer that came while the edit was being saved: the short window is counted from it', async () => {
		const { source, timers, observer } = setup();
		observer.beforeEdit(REQ, A);
		timers.advance(400);
		source.setDiagnostics(A, [assign]);
		timers.advance(60);
		const result = observer.afterEdit(REQ, A, undefined, LONG);
		timers.advance(39);
		assert.equal(await isDone(result), false);
		timers.advance(1);
		assert.match((await result)?.body ?? '', /1 new problem/);
	});
});
