import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EditDiagnosticsCounts } from '../observe/editDiagnostics';
import { ReminderEngine } from '../reminders/engine';
import type { TurnEvent } from '../reminders/turnEvents';
import { FakeDocuments, fileUri } from '../testing/fakeDocuments';
import { FakeFileEvents } from '../testing/fakeFileEvents';
import { FakeTimers, isDone } from '../testing/fakeTimers';
import { diagnosticEntry, InMemoryDiagnosticsSource } from '../testing/inMemoryDiagnosticsSource';
import { MemoryRecorder } from '../testing/memoryRecorder';
import { MemoryWorkspaceFs } from '../testing/memoryWorkspace';
import { RecordingLogger } from '../testing/recordingLogger';
import { appendUser, testSessions } from '../testing/sessions';
import type { ToolResult } from '../tools/tool';
import { createSessionObservers, CurrentObservers, type ObserverPorts } from './currentObservers';
import type { SessionObservers } from './observers';

const ROOT = '/w';
const A = '/w/a.ts';

function ports(files: Map<string, string>, events: FakeFileEvents, diagnostics?: ObserverPorts['diagnostics']): ObserverPorts {
	return {
		fs: new MemoryWorkspaceFs(files),
		fileEvents: events,
		roots: () => [ROOT],
		editedFiles: {},
		log: new RecordingLogger(),
		...(diagnostics ? { diagnostics } : {}),
	};
}

const readA = (files: Map<string, string>): ToolResult => ({ content: 'shown', touched: [{ path: A, access: 'read', text: files.get(A) ?? '' }] });

describe('the current session\'s observers', () => {
	it('each session that becomes current gets its own; the one before is disposed and hears nothing more', async () => {
		const files = new Map([[A, 'one\n']]);
		const events = new FakeFileEvents();
		const sessions = testSessions();
		const current = new CurrentObservers(sessions, ports(files, events));
		const signal = new AbortController().signal;
		const first = current.current as SessionObservers;
		await first.afterTool({ name: 'Read' }, readA(files), sessions.current.reminders.beginUserTurn('t1'), signal);
		appendUser(sessions.current, 'hello');
		sessions.newSession();
		const second = current.current as SessionObservers;
		assert.notEqual(second, first);
		files.set(A, 'two\n');
		events.fireChange(A);
		assert.deepEqual([first.pendingCount, second.pendingCount], [0, 0], 'the old observers stopped listening; the new ones never saw the file');
		await second.afterTool({ name: 'Read' }, readA(files), sessions.current.reminders.beginUserTurn('t2'), signal);
		files.set(A, 'three\n');
		events.fireChange(A);
		assert.equal(second.pendingCount, 1);
		current.dispose();
		assert.equal(current.current, undefined);
	});
});

describe('createSessionObservers', () => {
	it('wires edit diagnostics from its ports: the baseline, the new problem as a turn event, counts to telemetry', async () => {
		const files = new Map([[A, 'export const a = 1;\n']]);
		const source = new InMemoryDiagnosticsSource();
		const timers = new FakeTimers();
		const documents = new FakeDocuments(source);
		const counts: EditDiagnosticsCounts[] = [];
		const queued: TurnEvent[] = [];
		const engine = new ReminderEngine({ recorder: new MemoryRecorder(), clock: timers.clock, log: new RecordingLogger() });
		const queue = engine.queueTurnEvent.bind(engine);
		engine.queueTurnEvent = (owner, event) => {
			queued.push(event);
			return queue(owner, event);
		};
		const observers = createSessionObservers(
			engine,
			ports(files, new FakeFileEvents(), {
				source,
				documents,
				clock: timers.clock,
				timers,
				options: { displayPath: (uri) => uri.replace(`file://${ROOT}/`, '') },
				telemetry: (each) => counts.push(each),
				openEditedFiles: () => false,
			}),
		);
		const owner = engine.beginUserTurn('t1');
		const signal = new AbortController().signal;
		const run = async (promise: Promise<void>): Promise<void> => {
			while (!(await isDone(promise))) {
				timers.advance(100);
			}
			await promise;
		};
		const edit = { name: 'Patch', touches: { reads: [], writes: [A] } };
		await run(observers.beforeTool(edit, owner, signal));
		assert.deepEqual(documents.calls, [`open ${A}`], 'openEditedFiles off: opened, not shown');
		source.setDiagnostics(fileUri(A), [diagnosticEntry({ message: 'Broken by the patch.' })]);
		await run(observers.afterTool(edit, { content: 'ok', touched: [{ path: A, access: 'written', text: files.get(A) ?? '' }] }, owner, signal));
		await run(observers.beforeWait(owner, signal));
		assert.match(queued[0]?.body ?? '', /After your edit of a\.ts, 1 new problem:\n.*Broken by the patch\./);
		assert.deepEqual(counts.map((each) => each.new), [1]);
	});
});
