// The observers in a whole chat: real turns (scripted model), the real Read, Edit and Write tools
// over a temporary workspace, SessionObservers as the extension wires them, and the chat reopened
// from its own records.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { builtinReminders } from '../reminders/builtin/defaults';
import { DEFAULT_REMINDER_CONFIG } from '../reminders/config';
import type { InjectionRecord } from '../reminders/record';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { FakeFileEvents } from '../testing/fakeFileEvents';
import { writeFileAt } from '../testing/memoryFiles';
import { MemorySessionStore } from '../testing/memorySessionStore';
import { NodeWorkspaceFs, nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { RecordingLogger } from '../testing/recordingLogger';
import { ScriptedProvider, type ScriptedReply } from '../testing/scriptedProvider';
import { editTool } from '../tools/edit';
import { readTool } from '../tools/read';
import { invokeTool, prepareTool } from '../tools/registry';
import { writeTool } from '../tools/write';
import { replayHistory } from '../transcript/replay';
import { SessionObservers } from './observers';
import { ChatSession, type SessionEnvironment, type StoredRecord } from './session';
import { Turn } from './turn';

function workspace(t: TestContext) {
	const folder = tempWorkspace('aside-chat-');
	t.after(() => {
		folder.dispose();
	});
	const path = (name: string) => join(folder.root, name);
	const write = (name: string, text: string) => writeFileAt(path(name), text, Date.now());
	return { root: folder.root, path, write };
}

/** A chat over `root`, as the extension builds one: its session, its observers, turns to run. */
function chat(t: TestContext, root: string, loaded: readonly StoredRecord[] = []) {
	const clock = new FakeClock();
	const ids = new SequentialIds(`chat${loaded.length}`);
	const log = new RecordingLogger();
	const rootInstructions = () => {
		const text = readFileSync(join(root, 'AGENTS.md'), 'utf8');
		return [{ path: 'AGENTS.md', text, truncated: false }];
	};
	const env: SessionEnvironment = { clock, ids, log, reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults: () => builtinReminders(clock, rootInstructions) };
	const store = new MemorySessionStore();
	store.records.push(...loaded);
	const session = new ChatSession('chat', store, env, loaded);
	const events = new FakeFileEvents();
	const observers = new SessionObservers(session.reminders, new NodeWorkspaceFs(), events, () => [root], {}, log);
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
				engine: session.reminders,
				transcript: session,
				history: (records) => replayHistory(records),
				stream: (request, signal) => provider.stream(request, signal),
				tools: () => [readTool, editTool, writeTool],
				toolSpecs: () => [],
				invoke: invokeTool,
				prepare: prepareTool,
				toolContext: (signal) => nodeToolContext([root], signal),
				permissions: { ask: () => Promise.resolve({ granted: true }) },
				settings: () => ({ model: 'scripted', maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'auto-edit' }),
				system: () => 'You are a test.',
				clock,
				ids,
				log,
				onUpdate: () => undefined,
				observers,
			},
			ids.next(),
		).run(text, new AbortController().signal);
		assert.equal(outcome.outcome, 'done', outcome.error);
	};
	const read = (file: string): ScriptedReply => ({ toolCalls: [{ id: `read-${file}`, name: 'Read', input: { path: file } }] });
	return { session, store, events, observers, provider, turn, read, log };
}

function injections(records: readonly StoredRecord[]): InjectionRecord[] {
	return records.filter((record): record is InjectionRecord => record.kind === 'injected-reminders');
}

/** Each instruction file given, in order, with the text it was given with. */
function instructionDeliveries(records: readonly StoredRecord[]): { file: string; text: string }[] {
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
		const reopened = chat(t, root, first.store.records);
		const before = reopened.session.records.length;
		await reopened.turn('Look at b again.', reopened.read('pkg/sub/b.ts'), { text: 'Seen.' });
		const given = instructionDeliveries(reopened.session.records.slice(before));
		assert.deepEqual(given, [{ file: 'pkg/sub/AGENTS.md', text: 'Sub-package rules, revised while the chat was closed.' }], 'only the file that changed, once');
	});
});
