// The observers in a whole chat: real turns (scripted model), the real Read, Edit and Write tools
// over a temporary workspace, SessionObservers as the extension wires them, and the chat reopened
// from its own records.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { NO_AGENT_PROFILES } from '../reminders/builtin/agentsListing';
import { builtinReminders } from '../reminders/builtin/defaults';
import { DEFAULT_REMINDER_CONFIG } from '../reminders/config';
import type { InjectionRecord } from '../reminders/record';
import type { EditedFilesOptions } from '../observe/editedFiles';
import { fixedEnvironment } from '../testing/environment';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { FakeFileEvents } from '../testing/fakeFileEvents';
import { writeFileAt } from '../testing/memoryFiles';
import { MemorySessionStore } from '../testing/memorySessionStore';
import { NodeWorkspaceFs, nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { RecordingLogger } from '../testing/recordingLogger';
import { directDispatch } from '../testing/agentPorts';
import { ScriptedProvider, type ScriptedReply } from '../testing/scriptedProvider';
import { editTool } from '../tools/edit';
import { readTool } from '../tools/read';
import { invokeTool, prepareTool } from '../tools/registry';
import { writeTool } from '../tools/write';
import { SessionObservers } from './observers';
import { ChatSession, type SessionEnvironment } from './session';
import type { TranscriptEntry } from '../transcript/records';
import { Turn } from './turn';
import { verificationInputs } from './verification';

function workspace(t: TestContext) {
	const folder = tempWorkspace('aside-chat-');
	t.after(() => {
		folder.dispose();
	});
	const path = (name: string) => join(folder.root, name);
	const write = (name: string, text: string) => writeFileAt(path(name), text, Date.now());
	return { root: folder.root, path, write };
}

interface ChatOptions {
	readonly loaded?: readonly TranscriptEntry[];
	/** The editor's text of a file, where it is not what is on disk (unsaved changes). */
	readonly editorText?: (path: string) => string | undefined;
	readonly edited?: EditedFilesOptions;
	/** What a save writes to disk for the text Aside's Edit gave it (a formatter on save). */
	readonly formatOnSave?: (text: string) => string;
}

/** A chat over `root`, as the extension builds one: its session, its observers, turns to run. */
function chat(t: TestContext, root: string, { loaded = [], editorText, edited = {}, formatOnSave }: ChatOptions = {}) {
	const clock = new FakeClock();
	const ids = new SequentialIds(`chat${loaded.length}`);
	const log = new RecordingLogger();
	const rootInstructions = () => {
		const text = readFileSync(join(root, 'AGENTS.md'), 'utf8');
		return { files: [{ path: 'AGENTS.md', text, truncated: false }] };
	};
	// As the extension wires edits.verify: the chat's observers' writes, its records.
	const verify = verificationInputs({ writes: () => observers.writes, records: () => session.records });
	const env: SessionEnvironment = {
		clock,
		ids,
		log,
		reminderConfig: DEFAULT_REMINDER_CONFIG,
		reminderDefaults: () => builtinReminders(clock, rootInstructions, verify, NO_AGENT_PROFILES, fixedEnvironment([root])),
	};
	const store = new MemorySessionStore();
	store.records.push(...loaded);
	const session = new ChatSession('chat', store, env, loaded);
	const events = new FakeFileEvents();
	const observers = new SessionObservers(session.reminders, new NodeWorkspaceFs(), events, () => [root], edited, log);
	observers.restore(session.records);
	t.after(() => {
		observers.dispose();
		session.dispose();
	});
	const provider = new ScriptedProvider();
	const turn = async (text: string, ...replies: ScriptedReply[]) => {
		provider.script(...replies);
		const outcome = await new Turn(
			{
				tools: {
					offered: () => [readTool, editTool, writeTool],
					specs: () => [],
					invoke: invokeTool,
					prepare: prepareTool,
					context: (signal) => {
						const context = nodeToolContext([root], signal, observers.seen);
						if (editorText) {
							const readText = context.writer.readText.bind(context.writer);
							context.writer.readText = (path) => Promise.resolve(editorText(path)).then((text) => text ?? readText(path));
						}
						if (formatOnSave) {
							const replace = context.writer.replace.bind(context.writer);
							context.writer.replace = (path, text, expected) => replace(path, formatOnSave(text), expected);
						}
						return context;
					},
				},
				dispatch: directDispatch(provider),
				runtime: { clock, ids, log },
			},
			{
				engine: session.reminders,
				transcript: session,
				permissions: { ask: () => Promise.resolve({ granted: true }) },
				settings: () => ({ maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'auto-edit' }),
				system: () => 'You are a test.',
				observers,
			},
			ids.next(),
		).run(text, new AbortController().signal);
		assert.equal(outcome.outcome, 'done', outcome.error);
	};
	const read = (file: string): ScriptedReply => ({ toolCalls: [{ id: `read-${file}`, name: 'Read', input: { path: file } }] });
	const edit = (file: string, old_string: string, new_string: string): ScriptedReply => ({ toolCalls: [{ id: `edit-${file}`, name: 'Edit', input: { path: file, old_string, new_string } }] });
	/** The results of the tool calls in the chat, in order. */
	const results = () => session.records.flatMap((record) => (record.kind === 'tool-result' ? [record.content] : []));
	return { session, store, events, observers, provider, turn, read, edit, results, log };
}

function injections(records: readonly TranscriptEntry[]): InjectionRecord[] {
	return records.filter((record): record is InjectionRecord => record.kind === 'injected-reminders');
}

/** Each instruction file given, in order, with the text it was given with. */
function instructionDeliveries(records: readonly TranscriptEntry[]): { file: string; text: string }[] {
	return injections(records)
		.flatMap((record) => record.entries)
		.filter((entry) => entry.key === 'workspace.instructions')
		.flatMap((entry) =>
			entry.body
				.split(/^(?=Contents of )/m)
				.slice(1)
				.map((section) => {
					const [heading = '', ...rest] = section.split('\n\n');
					return { file: heading.replace(/^Contents of (.+?)(?: \(.*\))?:$/, '$1'), text: rest.join('\n\n').trim() };
				}),
		);
}

/** Deliveries of a file with a text the chat had already been given. */
function repeats(deliveries: readonly { file: string; text: string }[]): number {
	const seen = new Set<string>();
	let count = 0;
	for (const { file, text } of deliveries) {
		const id = `${file}\n${text}`;
		count += seen.has(id) ? 1 : 0;
		seen.add(id);
	}
	return count;
}

describe('instruction files in a whole chat', () => {
	it('40 turns with two nested AGENTS.md: each file once per chat, a changed one once more, as changed', async (t) => {
		const { root, write } = workspace(t);
		write('AGENTS.md', 'Root rules.\n');
		write('pkg/AGENTS.md', 'Package rules.\n');
		write('pkg/sub/AGENTS.md', 'Sub-package rules.\n');
		write('pkg/a.ts', 'export const a = 1;\n');
		write('pkg/sub/b.ts', 'export const b = 2;\n');
		write('c.ts', 'export const c = 3;\n');
		const { session, turn, read } = chat(t, root);
		const schedule = ['pkg/a.ts', 'pkg/sub/b.ts', 'c.ts', 'pkg/sub/b.ts'];
		for (let n = 1; n <= 40; n++) {
			if (n === 21) {
				write('pkg/sub/AGENTS.md', 'Sub-package rules, revised.\n');
			}
			const file = schedule[n % schedule.length] ?? 'c.ts';
			await turn(`Look at ${file}.`, read(file), { text: 'Seen.' });
		}
		const deliveries = instructionDeliveries(session.records);
		const entries = injections(session.records).flatMap((record) => record.entries);
		const reminderChars = entries.reduce((sum, entry) => sum + entry.body.length, 0);
		t.diagnostic(`${entries.length} reminder deliveries, ${deliveries.length} instruction files given, ${repeats(deliveries)} repeats; ${reminderChars} characters of reminder text`);
		assert.deepEqual(
			deliveries.map(({ file }) => file),
			['AGENTS.md', 'pkg/AGENTS.md', 'pkg/sub/AGENTS.md', 'pkg/sub/AGENTS.md'],
		);
		assert.equal(repeats(deliveries), 0);
		const sub = injections(session.records).flatMap((record) => record.entries).filter((entry) => entry.body.includes('Contents of pkg/sub/AGENTS.md'));
		assert.doesNotMatch(sub[0]?.body ?? '', /changed since/);
		assert.match(sub[1]?.body ?? '', /Contents of pkg\/sub\/AGENTS\.md \(changed since you were last given it\):\n\nSub-package rules, revised\./);
	});

	it('a reopened chat is not given again what its records show it was given: neither the nested files nor the root ones', async (t) => {
		const { root, write } = workspace(t);
		write('AGENTS.md', 'Root rules.\n');
		write('pkg/AGENTS.md', 'Package rules.\n');
		write('pkg/sub/AGENTS.md', 'Sub-package rules.\n');
		write('pkg/sub/b.ts', 'export const b = 2;\n');
		const first = chat(t, root);
		await first.turn('Look at b.', first.read('pkg/sub/b.ts'), { text: 'Seen.' });
		assert.deepEqual(instructionDeliveries(first.session.records).map(({ file }) => file), ['AGENTS.md', 'pkg/AGENTS.md', 'pkg/sub/AGENTS.md']);
		// The window reloads: a new host reads the transcript back.
		write('pkg/sub/AGENTS.md', 'Sub-package rules, revised while the chat was closed.\n');
		const reopened = chat(t, root, { loaded: first.store.records });
		const before = reopened.session.records.length;
		await reopened.turn('Look at b again.', reopened.read('pkg/sub/b.ts'), { text: 'Seen.' });
		const given = instructionDeliveries(reopened.session.records.slice(before));
		assert.deepEqual(given, [{ file: 'pkg/sub/AGENTS.md', text: 'Sub-package rules, revised while the chat was closed.' }], 'only the file that changed, once');
	});
});

/** The files.edited reports the chat delivered. */
function editedReports(records: readonly TranscriptEntry[]): string[] {
	return injections(records)
		.flatMap((record) => record.entries)
		.filter((entry) => entry.key === 'files.edited')
		.map((entry) => entry.body);
}

describe('what the model was shown is what the edited-files cache keeps', () => {
	it('a save of text the agent read unsaved from the editor is not an outside change', async (t) => {
		const { root, path, write } = workspace(t);
		write('a.ts', 'const a = 1;\n');
		const unsaved = 'const a = 1;\nconst b = 2;\n';
		const { session, events, turn, read } = chat(t, root, { editorText: (file) => (file === path('a.ts') ? unsaved : undefined) });
		await turn('Look at a.ts.', read('a.ts'), { text: 'Seen.' });
		// The person saves the editor's text, which the agent has already seen.
		write('a.ts', unsaved);
		events.fireChange(path('a.ts'));
		await turn('Anything new?', { text: 'No.' });
		assert.deepEqual(editedReports(session.records), []);
	});

	it('a UTF-8 file with a byte-order mark, and a file in another encoding, keep their bytes: an unchanged save is no change', async (t) => {
		const { root, path } = workspace(t);
		const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('const a = 1;\n')]);
		const latin1 = Buffer.from('const caf\xe9 = 1;\n', 'latin1');
		writeFileAt(path('bom.ts'), bom, Date.now());
		writeFileAt(path('latin1.ts'), latin1, Date.now());
		// The editor decodes the Latin-1 file in its own encoding.
		const { session, events, turn, read } = chat(t, root, { editorText: (file) => (file === path('latin1.ts') ? 'const café = 1;\n' : undefined) });
		await turn('Look at both.', read('bom.ts'), read('latin1.ts'), { text: 'Seen.' });
		events.fireChange(path('bom.ts'), path('latin1.ts'));
		await turn('Anything new?', { text: 'No.' });
		assert.deepEqual(editedReports(session.records), []);
		writeFileAt(path('latin1.ts'), Buffer.from('const caf\xe9 = 2;\n', 'latin1'), Date.now() + 5000);
		events.fireChange(path('latin1.ts'));
		await turn('And now?', { text: 'Changed.' });
		assert.equal(editedReports(session.records).length, 1, 'a real change is still reported');
	});

	it('after Aside\'s own Edit, what it wrote is what the agent knows', async (t) => {
		const { root, path, write } = workspace(t);
		write('a.ts', 'const a = 1;\n');
		// A formatter on save rewrites what Aside wrote: that is a change the agent must hear of.
		const { session, events, turn, read, edit } = chat(t, root, { formatOnSave: (text) => text.replace(';\n', '; // formatted\n') });
		await turn('Change a.', read('a.ts'), edit('a.ts', 'const a = 1;', 'const a = 2;'), { text: 'Done.' });
		events.fireChange(path('a.ts'));
		await turn('Anything new?', { text: 'Formatted.' });
		const [report] = editedReports(session.records);
		assert.match(report ?? '', /^-const a = 2;$/m);
		assert.match(report ?? '', /^\+const a = 2; \/\/ formatted$/m);
	});
});

describe('files changed outside while a sub-agent works', () => {
	it("are told to the child at its WAIT, and still reported at the root's next WAIT", async (t) => {
		const { root, path, write } = workspace(t);
		write('a.ts', 'const a = 1;\n');
		const { session, events, observers, turn, read } = chat(t, root);
		await turn('Look at a.ts.', read('a.ts'), { text: 'Seen.' });
		write('a.ts', 'const a = 1;\nconst b = 2;\n');
		events.fireChange(path('a.ts'));
		const child = session.reminders.spawnAgent('root/explore#1');
		child.beginSample();
		await observers.beforeWait(child.owner, new AbortController().signal);
		const childRequest = session.reminders.wait({ requestId: 'child-1', owner: child.owner, phase: 'turn-start', messages: [{ role: 'user', content: [{ type: 'text', text: 'Find b.' }] }] }, undefined);
		assert.ok((childRequest.record?.entries ?? []).some((entry) => entry.key === 'files.edited'), 'the child is told');
		await childRequest.commit();
		child.end();
		await turn('Anything new?', { text: 'Yes.' });
		assert.equal(editedReports(session.records).length, 1, 'the root is told too: the child did not take the report');
	});
});

describe('the stale-write guard in a chat', () => {
	it('a delivered files.edited report with the full diff counts as seen: the agent may edit without reading again', async (t) => {
		const { root, path, write } = workspace(t);
		write('a.ts', 'const a = 1;\n');
		const { events, turn, read, edit, results, session } = chat(t, root);
		await turn('Look at a.ts.', read('a.ts'), { text: 'Seen.' });
		write('a.ts', 'const a = 1;\nconst b = 2;\n');
		events.fireChange(path('a.ts'));
		await turn('Change b.', edit('a.ts', 'const b = 2;', 'const b = 3;'), { text: 'Done.' });
		assert.equal(editedReports(session.records).length, 1);
		assert.equal(results().at(-1), 'Edited a.ts: replaced 1 occurrence.');
	});

	it('a report without the diff (too long) does not: the edit is refused until the agent reads the file again', async (t) => {
		const { root, path, write } = workspace(t);
		write('a.ts', 'const a = 1;\n');
		const { events, turn, read, edit, results, session } = chat(t, root, { edited: { maxDiffLines: 1 } });
		await turn('Look at a.ts.', read('a.ts'), { text: 'Seen.' });
		write('a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n');
		events.fireChange(path('a.ts'));
		await turn('Change b.', edit('a.ts', 'const b = 2;', 'const b = 3;'), read('a.ts'), edit('a.ts', 'const b = 2;', 'const b = 3;'), { text: 'Done.' });
		assert.match(editedReports(session.records)[0] ?? '', /The diff is longer than/);
		assert.deepEqual(results().slice(-3), [
			'a.ts changed since you last read it (in the editor or on disk), so the edit was not made and nothing was written. Read it again, then make the edit against its current text.',
			results().at(-2),
			'Edited a.ts: replaced 1 occurrence.',
		]);
	});
});

describe('the verification suggestion in a chat', () => {
	const writeFile = (file: string): ScriptedReply => ({ toolCalls: [{ id: `write-${file}`, name: 'Write', input: { path: file, content: `export const x = '${file}';\n` } }] });
	/** Where edits.verify went out: after which tool result (by call id), or at a turn's start. */
	function verifyDeliveries(records: readonly TranscriptEntry[]): string[] {
		const after: string[] = [];
		let last = 'start';
		for (const record of records) {
			if (record.kind === 'tool-result') {
				last = record.callId;
			} else if (record.kind === 'user') {
				last = 'start';
			} else if (record.kind === 'injected-reminders' && record.entries.some((entry) => entry.key === 'edits.verify')) {
				after.push(last);
			}
		}
		return after;
	}

	it('two files written by the real Write tool in one turn: the next request carries it, once', async (t) => {
		const { root } = workspace(t);
		const { session, turn } = chat(t, root);
		await turn('Add a and b.', writeFile('src/a.ts'), writeFile('README.md'), writeFile('src/b.ts'), writeFile('src/c.ts'), { text: 'Done.' });
		assert.deepEqual(verifyDeliveries(session.records), ['write-src/b.ts']);
		const entry = injections(session.records).flatMap((record) => record.entries).find((candidate) => candidate.key === 'edits.verify');
		assert.match(entry?.body ?? '', /^You changed 2 implementation files in this turn: src\/a\.ts, src\/b\.ts\./);
		await turn('And d and e.', writeFile('src/d.ts'), writeFile('src/e.ts'), { text: 'Done.' });
		assert.equal(verifyDeliveries(session.records).length, 1, 'ten turns apart at most');
	});

	it('reads, one written file and documentation do not qualify', async (t) => {
		const { root, write } = workspace(t);
		write('a.ts', 'const a = 1;\n');
		write('b.ts', 'const b = 1;\n');
		const { session, turn, read } = chat(t, root);
		await turn('Look, and note it.', read('a.ts'), read('b.ts'), writeFile('src/c.ts'), writeFile('docs/notes.md'), writeFile('CHANGES.txt'), { text: 'Done.' });
		await turn('Thanks.', { text: 'You are welcome.' });
		assert.deepEqual(verifyDeliveries(session.records), []);
	});

	it('a failed write does not count', async (t) => {
		const { root, write } = workspace(t);
		write('src/a.ts', 'const a = 1;\n');
		const { session, turn, results } = chat(t, root);
		// Write refuses an existing file: that call fails and writes nothing; only b is written.
		await turn('Add a and b.', writeFile('src/a.ts'), writeFile('src/b.ts'), { text: 'Done.' });
		assert.match(results()[0] ?? '', /already exists/);
		await turn('Thanks.', { text: 'Fine.' });
		assert.deepEqual(verifyDeliveries(session.records), []);
	});
});
