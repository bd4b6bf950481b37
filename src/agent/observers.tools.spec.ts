// The observers know a tool only by what it declares before it runs (Tool.touches) and what its
// result says it touched (ToolResult.touched), never by its name or its input. Proved with a tool
// none of them has heard of that writes two files in one call, run by a real turn, with the real
// EditDiagnostics and edited-files cache over an in-memory workspace and diagnostics source.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { EditDiagnostics } from '../observe/editDiagnostics';
import { ReminderEngine } from '../reminders/engine';
import { FakeDocuments, fileUri } from '../testing/fakeDocuments';
import { SequentialIds } from '../testing/fakeClock';
import { FakeFileEvents } from '../testing/fakeFileEvents';
import { FakeTimers, isDone } from '../testing/fakeTimers';
import { diagnosticEntry, InMemoryDiagnosticsSource } from '../testing/inMemoryDiagnosticsSource';
import { MemoryRecorder } from '../testing/memoryRecorder';
import { MemoryDocumentWriter, MemoryWorkspaceFs } from '../testing/memoryWorkspace';
import { nodeToolContext } from '../testing/nodeWorkspace';
import { RecordingLogger } from '../testing/recordingLogger';
import { directDispatch } from '../testing/agentPorts';
import { ScriptedProvider, type ScriptedReply } from '../testing/scriptedProvider';
import { invokeTool, prepareTool } from '../tools/registry';
import type { Tool } from '../tools/tool';
import { SessionObservers } from './observers';
import { Turn } from './turn';
import type { AgentRecord } from '../transcript/records';

const ROOT = '/w';
const A = '/w/src/a.ts';
const B = '/w/lib/b.ts';

/** A language server in one line: every line that says `broken` is an error. */
function problems(text: string) {
	return text.split('\n').flatMap((line, n) => (line.includes('broken') ? [diagnosticEntry({ message: `Broken: ${line.trim()}`, line: n })] : []));
}

function setup(initial: Record<string, string>) {
	const files = new Map(Object.entries(initial));
	const source = new InMemoryDiagnosticsSource();
	for (const [path, text] of files) {
		source.setSilently(fileUri(path), problems(text));
	}
	const fs = new MemoryWorkspaceFs(files);
	const writer = new MemoryDocumentWriter(files, (path, text) => {
		source.setDiagnostics(fileUri(path), problems(text));
	});
	const timers = new FakeTimers();
	const log = new RecordingLogger();
	const engine = new ReminderEngine({ recorder: new MemoryRecorder(), clock: timers.clock, log });
	const documents = new FakeDocuments(source);
	const events = new FakeFileEvents();
	const observers = new SessionObservers(engine, fs, events, () => [ROOT], {}, log, {
		observer: new EditDiagnostics(source, timers.clock, timers, { displayPath: (uri) => uri.replace(`file://${ROOT}/`, ''), log }),
		documents,
	});
	/** What the editor had done to its documents when a tool started. */
	const beforeRun: string[] = [];
	const writePair: Tool<{ a: string; b: string }> = {
		name: 'WritePair',
		description: 'Replaces two files at once.',
		kind: 'write',
		input: z.object({ a: z.string(), b: z.string() }),
		touches: () => Promise.resolve({ reads: [], writes: [A, B] }),
		async run({ a, b }, context) {
			beforeRun.push(...documents.calls);
			await context.writer.replace(A, a);
			await context.writer.replace(B, b);
			context.seen.saw(A, a);
			context.seen.saw(B, b);
			return { content: 'Wrote both.', touched: [{ path: A, access: 'written', text: a }, { path: B, access: 'written', text: b }] };
		},
	};
	const showPair: Tool<Record<string, never>> = {
		name: 'ShowPair',
		description: 'Shows two files at once.',
		kind: 'read',
		input: z.object({}),
		touches: () => Promise.resolve({ reads: [A, B], writes: [] }),
		run: async () => {
			beforeRun.push(...documents.calls);
			const [a = '', b = ''] = await Promise.all([A, B].map((path) => fs.readFile(path).then((bytes) => new TextDecoder().decode(bytes))));
			return { content: `${a}${b}`, touched: [{ path: A, access: 'read', text: a }, { path: B, access: 'read', text: b }] };
		},
	};
	const records: AgentRecord[] = [];
	const ids = new SequentialIds('id');
	const provider = new ScriptedProvider();
	const signal = new AbortController().signal;
	/** Runs a turn to its end, moving fake time on in steps while the observers wait for diagnostics. */
	const turn = async (text: string, ...replies: ScriptedReply[]): Promise<void> => {
		provider.script(...replies);
		const running = new Turn(
			{
				tools: {
					offered: () => [writePair, showPair],
					specs: () => [],
					invoke: invokeTool,
					prepare: prepareTool,
					context: (abort) => ({ ...nodeToolContext([ROOT], abort, observers.seen), fs, writer }),
				},
				dispatch: directDispatch(provider),
				runtime: { clock: timers.clock, ids, log },
			},
			{
				engine,
				transcript: { records, append: (record) => void records.push(record) },
				permissions: { ask: () => Promise.resolve({ granted: true }) },
				settings: () => ({ maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'auto-edit' }),
				system: () => 'You are a test.',
				observers,
			},
			ids.next(),
		).run(text, signal);
		while (!(await isDone(running))) {
			timers.advance(100);
		}
		assert.equal((await running).outcome, 'done');
	};
	/** The reminders the model was sent with the request at `index`. */
	const reminders = (index: number): string => {
		const last = provider.requests[index]?.messages.at(-1);
		return last?.role === 'user' && last.content[0]?.type === 'text' ? last.content[0].text : '';
	};
	return { files, events, documents, observers, turn, reminders, beforeRun, log };
}

const writePair = (a: string, b: string): ScriptedReply => ({ toolCalls: [{ id: 'write', name: 'WritePair', input: { a, b } }] });
const showPair: ScriptedReply = { toolCalls: [{ id: 'show', name: 'ShowPair', input: {} }] };

describe('a tool the observers know only by what it declares and reports', () => {
	it('a call that writes two files: both get a diagnostics baseline, their new problems, and an edited-files cache entry', async () => {
		const { files, events, observers, turn, reminders, beforeRun, log } = setup({
			[A]: 'export const a = 1; // broken before\n',
			[B]: 'export const b = 1; // broken before\n',
		});
		const a = 'export const a = 1; // broken before\nexport const a2 = 2; // broken by the call\n';
		const b = 'export const b = 1; // broken before\nexport const b2 = 2; // broken by the call\n';
		await turn('Write both.', writePair(a, b), { text: 'Done.' });

		// Baselines: both files were made checkable before the call ran, and what was broken before
		// is context, not news. Diagnostics: each file's new problem is reported after the call.
		assert.deepEqual(beforeRun, [`show ${A}`, `show ${B}`]);
		const diagnostics = reminders(1);
		const report = (file: string, name: string) =>
			`After your edit of ${file}, 1 new problem:\n  error (ts) at 2:1: Broken: export const ${name}2 = 2; // broken by the call\n` +
			`Already there before your edit (context only):\n  error (ts) at 1:1: Broken: export const ${name} = 1; // broken before`;
		assert.ok(diagnostics.startsWith('<system-reminder key="edit.diagnostics">'), diagnostics);
		assert.ok(diagnostics.includes(report('src/a.ts', 'a')), diagnostics);
		assert.ok(diagnostics.includes(report('lib/b.ts', 'b')), diagnostics);

		// Cache entries: what the call wrote is what the agent knows, so a change made outside
		// Aside's tools is reported against it, for both files.
		files.set(A, a.replace('a2 = 2', 'a2 = 3'));
		files.set(B, b.replace('b2 = 2', 'b2 = 3'));
		events.fireChange(A, B);
		assert.equal(observers.pendingCount, 2);
		await turn('Anything new?', { text: 'Both changed.' });
		const edited = reminders(2);
		assert.match(edited, /key="files\.edited"/);
		assert.match(edited, /^-export const a2 = 2; \/\/ broken by the call$/m);
		assert.match(edited, /^\+export const a2 = 3; \/\/ broken by the call$/m);
		assert.match(edited, /^-export const b2 = 2; \/\/ broken by the call$/m);
		assert.match(edited, /^\+export const b2 = 3; \/\/ broken by the call$/m);
		assert.deepEqual(log.lines.filter((line) => line.level === 'warn'), []);
	});

	it('a call that shows two files: both are opened, their AGENTS.md given, and both kept in the edited-files cache', async () => {
		const { files, events, documents, turn, reminders, beforeRun, log } = setup({
			[A]: 'export const a = 1;\n',
			'/w/src/AGENTS.md': 'Source rules.\n',
			[B]: 'export const b = 1;\n',
			'/w/lib/AGENTS.md': 'Library rules.\n',
		});
		await turn('Show both.', showPair, { text: 'Seen.' });
		assert.deepEqual(beforeRun, [], 'nothing is opened for a call that only reads until it has read');
		assert.deepEqual(documents.calls, [`open ${A}`, `open ${B}`], 'opened, never shown');
		const given = reminders(1);
		assert.match(given, /key="workspace\.instructions"/);
		assert.match(given, /Contents of src\/AGENTS\.md:\n\nSource rules\./);
		assert.match(given, /Contents of lib\/AGENTS\.md:\n\nLibrary rules\./);

		files.set(A, 'export const a = 2;\n');
		files.set(B, 'export const b = 2;\n');
		events.fireChange(A, B);
		await turn('Anything new?', { text: 'Both changed.' });
		const edited = reminders(2);
		assert.match(edited, /^-export const a = 1;\n\+export const a = 2;$/m);
		assert.match(edited, /^-export const b = 1;\n\+export const b = 2;$/m);
		assert.deepEqual(log.lines.filter((line) => line.level === 'warn'), []);
	});
});
