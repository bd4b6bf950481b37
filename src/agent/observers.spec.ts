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
const NEW = '/w/src/new.ts';
const uriOf = fileUri;

class RecordingEngine extends ReminderEngine {
	readonly queued: TurnEvent[] = [];

	override queueTurnEvent(owner: Owner, event: TurnEvent): boolean {
		this.queued.push(event);
		return super.queueTurnEvent(owner, event);
	}
}

function setup(options: { openEditedFiles?: boolean; source?: InMemoryDiagnosticsSource } = {}) {
	const files = new Map([[A, 'export const a: number = 1;\n']]);
	const fs = new MemoryWorkspaceFs(files);
	const source = options.source ?? new InMemoryDiagnosticsSource();
	const timers = new FakeTimers();
	const log = new RecordingLogger();
	const recorder = new MemoryRecorder();
	const engine = new RecordingEngine({ recorder, clock: timers.clock, log });
	const owner = engine.beginUserTurn('turn-1');
	const documents = new FakeDocuments(source);
	const observer = new EditDiagnostics(source, timers.clock, timers, { displayPath: (uri) => uri.replace(`file://${ROOT}/`, ''), log });
	const observers = new SessionObservers(engine, fs, new FakeFileEvents(), () => [ROOT], {}, log, {
		observer,
		documents,
		openEditedFiles: () => options.openEditedFiles ?? true,
	});
	const signal = new AbortController().signal;
	/** Runs an observer call to its end, moving fake time on in steps while it waits. */
	const run = async (promise: Promise<void>): Promise<void> => {
		while (!(await isDone(promise))) {
			timers.advance(100);
		}
		await promise;
	};
	/** What Edit and Write declare before they run, and what they report having written. */
	const edit = { name: 'Edit', touches: { reads: [], writes: [A] } };
	const write = { name: 'Write', touches: { reads: [], writes: [NEW] } };
	const wrote = (path: string): ToolResult => ({ content: 'ok', touched: [{ path, access: 'written', text: files.get(path) ?? '' }] });
	const read = (path: string, content: string): ToolResult => ({ content, touched: [{ path, access: 'read', text: files.get(path) ?? '' }] });
	return { files, source, timers, engine, recorder, owner, documents, observers, signal, run, edit, write, wrote, read };
}

describe('SessionObservers and edit diagnostics', () => {
	it('an edited file in no editor tab is shown (preview, focus kept) before its baseline, so TypeScript checks it', async () => {
		const { source, engine, owner, documents, observers, signal, run, edit, wrote } = setup();
		source.setSilently(uriOf(A), []);
		const before = observers.beforeTool(edit, owner, signal);
		assert.equal(await isDone(before), false, 'waits for the report of the file it has just shown');
		assert.deepEqual(documents.calls, [`show ${A}`]);
		// The language server checks the file it now has in a tab: the existing problem is the baseline.
		source.setDiagnostics(uriOf(A), [diagnosticEntry({ message: 'Already broken.' })]);
		await run(before);
		source.setDiagnostics(uriOf(A), [diagnosticEntry({ message: 'Already broken.' }), diagnosticEntry({ message: 'Broken by the edit.', line: 4 })]);
		await run(observers.afterTool(edit, wrote(A), owner, signal));
		// The step's next request: its WAIT waits for the edit's diagnostics.
		await run(observers.beforeWait(owner, signal));
		assert.deepEqual(documents.calls, [`show ${A}`], 'shown once: it is in a tab now');
		const [event] = engine.queued;
		assert.match(event?.body ?? '', /After your edit of src\/a\.ts, 1 new problem:\n.*Broken by the edit\.\nAlready there before your edit \(context only\):\n.*Already broken\./);
	});

	it('a file already in a tab is not shown again, and its baseline is taken at once', async () => {
		const { source, owner, documents, observers, signal, edit } = setup();
		documents.shownPaths.add(A);
		documents.openPaths.add(A);
		source.setSilently(uriOf(A), [diagnosticEntry()]);
		const before = observers.beforeTool(edit, owner, signal);
		assert.equal(await isDone(before), true, 'no wait for a report');
		assert.deepEqual(documents.calls, []);
	});

	it('with aside.diagnostics.openEditedFiles off, an edited file is only opened, never shown', async () => {
		const { owner, documents, observers, signal, run, edit, wrote } = setup({ openEditedFiles: false });
		await run(observers.beforeTool(edit, owner, signal));
		await run(observers.afterTool(edit, wrote(A), owner, signal));
		assert.deepEqual(documents.calls, [`open ${A}`]);
		assert.equal(documents.shownPaths.size, 0);
	});

	it('a Read opens the document but never changes what the person sees', async () => {
		const { owner, documents, observers, signal, run, read } = setup();
		await run(observers.afterTool({ name: 'Read' }, read(A, '1\texport const a'), owner, signal));
		assert.deepEqual(documents.calls, [`open ${A}`]);
	});

	it('a file a Write creates has an empty baseline and is shown after the write, so its problems are all new', async () => {
		const { files, source, engine, owner, documents, observers, signal, run, write, wrote } = setup();
		await run(observers.beforeTool(write, owner, signal));
		assert.deepEqual(documents.calls, [], 'nothing to show yet');
		files.set(NEW, 'export const n: number = "x";\n');
		const after = observers.afterTool(write, wrote(NEW), owner, signal);
		await isDone(after);
		assert.deepEqual(documents.calls, [`show ${NEW}`]);
		source.setDiagnostics(uriOf(NEW), [diagnosticEntry({ message: 'Wrong type.' })]);
		await run(after);
		await run(observers.beforeWait(owner, signal));
		assert.match(engine.queued[0]?.body ?? '', /After your edit of src\/new\.ts, 1 new problem:\n.*Wrong type\./);
	});

	it('restore() gives a reopened chat\'s records to the diagnostics too: problems it was given are counted, not listed', async () => {
		const first = setup();
		const { source } = first;
		first.documents.shownPaths.add(A);
		source.setSilently(uriOf(A), [diagnosticEntry({ message: 'Already broken.' })]);
		const { edit } = first;
		await first.run(first.observers.beforeTool(edit, first.owner, first.signal));
		await first.run(first.observers.afterTool(edit, first.wrote(A), first.owner, first.signal));
		await first.run(first.observers.beforeWait(first.owner, first.signal));
		await first.engine.wait({ requestId: 'r1', owner: first.owner, phase: 'turn-start', messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] }, undefined).commit();
		assert.match(first.recorder.records[0]?.entries[0]?.body ?? '', /context only\):\n.*Already broken\./);

		const reopened = setup({ source });
		reopened.documents.shownPaths.add(A);
		reopened.observers.restore(first.recorder.records);
		await reopened.run(reopened.observers.beforeTool(edit, reopened.owner, reopened.signal));
		await reopened.run(reopened.observers.afterTool(edit, reopened.wrote(A), reopened.owner, reopened.signal));
		await reopened.run(reopened.observers.beforeWait(reopened.owner, reopened.signal));
		assert.equal(reopened.engine.queued[0]?.body, 'After your edit of src/a.ts, no new problems.\n1 problem already reported, unchanged.');
	});

	it('a file read (opened, not checked) and then edited waits for its report once, not at every edit', async () => {
		const { source, owner, documents, observers, signal, run, edit, wrote, read } = setup({ openEditedFiles: false });
		await run(observers.afterTool({ name: 'Read' }, read(A, ''), owner, signal));
		const first = observers.beforeTool(edit, owner, signal);
		assert.equal(await isDone(first), false, 'waits for the report of a document opened by the Read');
		await run(first);
		await run(observers.afterTool(edit, wrote(A), owner, signal));
		observers.endOwner(owner);
		source.setSilently(uriOf(A), []);
		const next = observers.beforeTool(edit, owner, signal);
		assert.equal(await isDone(next), true, 'checked once already: no second wait');
		assert.deepEqual(documents.calls, [`open ${A}`]);
	});
});
