import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EditDiagnostics } from '../observe/editDiagnostics';
import type { Owner } from '../reminders/definition';
import { ReminderEngine } from '../reminders/engine';
import type { TurnEvent } from '../reminders/turnEvents';
import { FakeDocuments, fileUri } from '../testing/fakeDocuments';
import { FakeFileEvents } from '../testing/fakeFileEvents';
import { FakeTimers, isDone } from '../testing/fakeTimers';
import { diagnosticEntry, InMemoryDiagnosticsSource } from '../testing/inMemoryDiagnosticsSource';
import { MemoryRecorder } from '../testing/memoryRecorder';
import { MemoryWorkspaceFs } from '../testing/memoryWorkspace';
import { RecordingLogger } from '../testing/recordingLogger';
import type { ToolResult } from '../tools/tool';
import { SessionObservers } from './observers';

const ROOT = '/w';
const A = '/w/src/a.ts';
const B = '/w/src/b.ts';

class RecordingEngine extends ReminderEngine {
	readonly queued: TurnEvent[] = [];

	override queueTurnEvent(owner: Owner, event: TurnEvent): boolean {
		this.queued.push(event);
		return super.queueTurnEvent(owner, event);
	}
}

function setup() {
	const files = new Map([
		[A, 'export const a: number = 1;\n'],
		[B, 'export const b: number = 2;\n'],
	]);
	const source = new InMemoryDiagnosticsSource();
	const timers = new FakeTimers();
	const log = new RecordingLogger();
	const engine = new RecordingEngine({ recorder: new MemoryRecorder(), clock: timers.clock, log });
	const owner = engine.beginUserTurn('turn-1');
	const documents = new FakeDocuments(source);
	for (const path of files.keys()) {
		documents.openPaths.add(path);
		documents.shownPaths.add(path);
	}
	const observer = new EditDiagnostics(source, timers.clock, timers, { displayPath: (uri) => uri.replace(`file://${ROOT}/`, ''), log });
	const observers = new SessionObservers(engine, new MemoryWorkspaceFs(files), new FakeFileEvents(), () => [ROOT], {}, log, { observer, documents });
	const signal = new AbortController().signal;
	const call = (path: string) => ({ name: 'Edit', touches: { reads: [], writes: [path] } });
	const wrote = (path: string): ToolResult => ({ content: 'ok', touched: [{ path, access: 'written', text: files.get(path) ?? '' }] });
	return { source, timers, engine, owner, observers, signal, call, wrote };
}

describe('A step\'s edits wait for their diagnostics once, together', () => {
	it('each edit\'s result is recorded at once; the next WAIT waits for all the files and queues each one\'s problems', async () => {
		const { source, timers, engine, owner, observers, signal, call, wrote } = setup();
		for (const path of [A, B]) {
			await observers.beforeTool(call(path), owner, signal);
			const after = observers.afterTool(call(path), wrote(path), owner, signal);
			assert.equal(await isDone(after), true, `the call after the edit of ${path} need not wait for its diagnostics`);
		}
		const started = timers.clock.now();
		const wait = observers.beforeWait(owner, signal);
		timers.advance(200);
		source.setDiagnostics(fileUri(A), [diagnosticEntry({ message: 'Broken in a.', code: '2322' })]);
		source.setDiagnostics(fileUri(B), [diagnosticEntry({ message: 'Broken in b.', code: '2322' })]);
		assert.equal(await isDone(wait), false, 'the WAIT waits for the reports');
		timers.advance(100);
		assert.equal(await isDone(wait), true, 'one window after the reports, for both files');
		assert.equal(timers.clock.now() - started, 300);
		const bodies = engine.queued.map((event) => event.body ?? '').join('\n');
		assert.match(bodies, /src\/a\.ts, 1 new problem/);
		assert.match(bodies, /src\/b\.ts, 1 new problem/);
	});

	it('a WAIT with no edit before it, or another owner\'s, does not wait', async () => {
		const { timers, owner, observers, signal, call, wrote } = setup();
		assert.equal(await isDone(observers.beforeWait(owner, signal)), true);
		await observers.beforeTool(call(A), owner, signal);
		await observers.afterTool(call(A), wrote(A), owner, signal);
		const child: Owner = { kind: 'agent', id: 'child-1' };
		assert.equal(await isDone(observers.beforeWait(child, signal)), true);
		timers.advance(1530);
		assert.equal(await isDone(observers.beforeWait(owner, signal)), true, 'the edit\'s wait ended with its grace');
	});
});
