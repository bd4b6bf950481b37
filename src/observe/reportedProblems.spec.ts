import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReminderEngine } from '../reminders/engine';
import type { InjectionRecord } from '../reminders/record';
import type { TurnEvent } from '../reminders/turnEvents';
import { FakeTimers } from '../testing/fakeTimers';
import { diagnosticEntry, InMemoryDiagnosticsSource } from '../testing/inMemoryDiagnosticsSource';
import { MemoryRecorder } from '../testing/memoryRecorder';
import { RecordingLogger } from '../testing/recordingLogger';
import type { DiagnosticEntry } from './diagnostics';
import { EditDiagnostics, type EditDiagnosticsOptions } from './editDiagnostics';
import { problemHash, ReportedProblems } from './reportedProblems';

const A = 'file:///w/src/a.ts';
const unused = diagnosticEntry({ severity: 'warning', message: "'x' is assigned a value but never used.", source: 'eslint', code: 'no-unused-vars', line: 0, character: 6 });
const assign = diagnosticEntry({ message: "Type 'string' is not assignable to type 'number'.", code: '2322', line: 3, character: 7 });
const missing = diagnosticEntry({ message: "Cannot find name 'y'.", code: '2304', line: 9 });

function setup(options: Partial<EditDiagnosticsOptions> = {}) {
	const source = new InMemoryDiagnosticsSource();
	const timers = new FakeTimers();
	const log = new RecordingLogger();
	const make = () => new EditDiagnostics(source, timers.clock, timers, { displayPath: (uri) => uri.replace('file:///w/', ''), log, ...options });
	const observer = make();
	/** One edit of A in request `turn`: baseline, the server publishing `after`, settled. */
	const edit = async (target: EditDiagnostics, turn: string, after: readonly DiagnosticEntry[]): Promise<TurnEvent | undefined> => {
		target.beforeEdit(turn, A);
		const result = target.afterEdit(turn, A);
		timers.advance(100);
		source.setDiagnostics(A, after);
		timers.advance(300);
		const event = await result;
		target.endRequest(turn);
		return event;
	};
	return { source, timers, observer, make, edit };
}

/** Delivers the event through a real engine, as a turn does: its commit runs, its record is written. */
async function deliver(event: TurnEvent | undefined): Promise<InjectionRecord[]> {
	assert.ok(event, 'expected an edit.diagnostics event');
	const recorder = new MemoryRecorder();
	const engine = new ReminderEngine({ recorder, clock: new FakeTimers().clock, log: new RecordingLogger() });
	const owner = engine.beginUserTurn('turn');
	engine.queueTurnEvent(owner, event);
	await engine.wait({ requestId: 'req', owner, phase: 'turn-start', messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] }, undefined).commit();
	return recorder.records;
}

describe('pre-existing problems already reported in the chat', () => {
	it('are counted in a later turn, not listed again; new ones are listed as before', async () => {
		const { source, observer, edit } = setup();
		source.setSilently(A, [unused]);
		const first = await edit(observer, 'turn-1', [unused]);
		assert.match(first?.body ?? '', /Already there before your edit \(context only\):\n {2}warning no-unused-vars/);
		await deliver(first);
		const second = await edit(observer, 'turn-2', [unused, missing]);
		assert.equal(second?.body, ['After your edit of src/a.ts, 1 new problem:', "  error TS2304 (ts) at 10:1: Cannot find name 'y'.", '1 problem already reported, unchanged.'].join('\n'));
	});

	it('says so when an edit leaves only problems already reported', async () => {
		const { source, observer, edit } = setup();
		source.setSilently(A, [unused, assign]);
		await deliver(await edit(observer, 'turn-1', [unused, assign]));
		const again = await edit(observer, 'turn-2', [unused, assign]);
		assert.equal(again?.body, 'After your edit of src/a.ts, no new problems.\n2 problems already reported, unchanged.');
		assert.equal(again.reason, 'problems already in 1 edited file');
	});

	it('a report that was never delivered leaves them to be listed next time', async () => {
		const { source, observer, edit } = setup();
		source.setSilently(A, [unused]);
		await edit(observer, 'turn-1', [unused]);
		assert.match((await edit(observer, 'turn-2', [unused]))?.body ?? '', /context only\):\n {2}warning no-unused-vars/);
	});

	it('a problem given as new is already reported in the next turn; a second copy of it is listed', async () => {
		const { observer, edit } = setup();
		await deliver(await edit(observer, 'turn-1', [missing]));
		const copy = diagnosticEntry({ message: "Cannot find name 'y'.", code: '2304', line: 20 });
		const next = await edit(observer, 'turn-2', [missing, copy]);
		assert.equal(next?.body, ['After your edit of src/a.ts, 1 new problem:', "  error TS2304 (ts) at 21:1: Cannot find name 'y'.", '1 problem already reported, unchanged.'].join('\n'));
	});

	it('a problem fixed in a delivered report and back later is listed again', async () => {
		const { source, observer, edit } = setup();
		source.setSilently(A, [unused, assign]);
		await deliver(await edit(observer, 'turn-1', [unused, assign]));
		// Turn 2 fixes the type error and says so (its report is delivered); turn 3 starts with it back.
		await deliver(await edit(observer, 'turn-2', [unused, missing]));
		source.setSilently(A, [unused, assign]);
		const back = await edit(observer, 'turn-3', [unused, assign]);
		assert.equal(back?.body, ['After your edit of src/a.ts, no new problems.', 'Already there before your edit (context only):', "  error TS2322 (ts) at 4:8: Type 'string' is not assignable to type 'number'.", '1 problem already reported, unchanged.'].join('\n'));
	});

	it('only what a report listed within its caps counts as given', async () => {
		const { source, observer, edit } = setup({ maxPerFile: 1 });
		source.setSilently(A, [unused, assign]);
		const capped = await edit(observer, 'turn-1', [unused, assign]);
		assert.match(capped?.body ?? '', /1 more problem not listed/);
		await deliver(capped);
		const next = await edit(observer, 'turn-2', [unused, assign]);
		assert.equal(next?.body, ['After your edit of src/a.ts, no new problems.', 'Already there before your edit (context only):', "  warning no-unused-vars (eslint) at 1:7: 'x' is assigned a value but never used.", '1 problem already reported, unchanged.'].join('\n'));
	});

	it('a reopened chat restores them from its records, by problem identity; a chat restored from none lists them', async () => {
		const { source, observer, make, edit } = setup();
		source.setSilently(A, [unused, assign]);
		const records = await deliver(await edit(observer, 'turn-1', [unused, assign]));
		const subjects = records[0]?.entries[0]?.subjects;
		assert.deepEqual(subjects, [{ ref: A, hashes: [problemHash(unused), problemHash(assign)] }], 'the record says what the model was given, as hashes');
		assert.doesNotMatch(JSON.stringify(subjects), /assignable/, 'never the message itself');
		const reopened = make();
		reopened.restore(records);
		assert.equal((await edit(reopened, 'turn-2', [unused, assign]))?.body, 'After your edit of src/a.ts, no new problems.\n2 problems already reported, unchanged.');
		reopened.restore([]);
		assert.match((await edit(reopened, 'turn-3', [unused, assign]))?.body ?? '', /context only\):\n {2}error TS2322[^\n]*\n {2}warning no-unused-vars/);
	});
});

describe('ReportedProblems', () => {
	it('counts identities, not ranges: a moved problem is the same one', () => {
		const reported = new ReportedProblems();
		reported.learn(reported.after(A, [assign], [assign]));
		const moved = diagnosticEntry({ message: assign.message, code: '2322', line: 30, character: 1 });
		assert.deepEqual(reported.split(A, [moved, moved]), { unreported: [moved], reported: 1 });
		assert.deepEqual(reported.split('file:///w/other.ts', [moved]), { unreported: [moved], reported: 0 });
	});
});
