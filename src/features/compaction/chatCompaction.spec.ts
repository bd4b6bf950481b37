// Compaction in a whole chat: the Agent over a temporary workspace with the real Read tool and
// the session's observers as the extension wires them (AGENTS.md discovery, the edited-files cache).
import { registerTestObservation } from '../../testing/testObservation';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { Emitter } from '../../base/event';
import { scriptedModels, testPorts } from '../../testing/agentPorts';
import { FakeFileEvents } from '../../testing/fakeFileEvents';
import { writeFileAt } from '../../testing/memoryFiles';
import { NodeWorkspaceFs, nodeToolContext, tempWorkspace } from '../../testing/nodeWorkspace';
import { RecordingLogger } from '../../testing/recordingLogger';
import { ScriptedProvider, type ScriptedReply } from '../../testing/scriptedProvider';
import { MemoryLibrary, testEnvironment } from '../../testing/sessions';
import { ChatSessions } from '../../agent/sessions';
import { lastText } from '../../testing/turnHarness';
import { readTool } from '../../tools/read';
import type { AgentRecord } from '../../transcript/records';
import type { CompactionRecord } from '../../transcript/historyMarkers';
import { Agent } from '../../agent/agent';
import { agentFeatures, compactionOf } from '../features';
import { SlashCommands } from '../../view/slashCommands';
import { CompactionPart } from './compactionView';
import { SessionObservers } from '../../agent/observers';
import type { ModelSource } from '../../agent/ports';

const compactions = (records: readonly AgentRecord[]): CompactionRecord[] => records.filter((record): record is CompactionRecord => record.kind === 'compaction');
const keysIn = (text: string): string[] => [...text.matchAll(/<system-reminder key="([^"]+)">/g)].map((match) => match[1] ?? '');

/** A chat over a temporary workspace with src/deep/AGENTS.md and src/deep/a.ts. */
function chat(t: TestContext) {
	const folder = tempWorkspace('aside-compact-');
	const root = folder.root;
	const write = (name: string, text: string) => writeFileAt(join(root, name), text, Date.now());
	write('src/deep/AGENTS.md', 'Deep rules v1.\n');
	write('src/deep/a.ts', 'export const a = 1;\n');
	const provider = new ScriptedProvider();
	const models: ModelSource = { ...scriptedModels(provider), contextWindow: () => 100_000 };
	const library = new MemoryLibrary();
	const sessions = new ChatSessions(library, testEnvironment());
	const log = new RecordingLogger();
	const observers = new SessionObservers(sessions.current.reminders, new NodeWorkspaceFs(), new FakeFileEvents(), () => [root], {}, log);
	const agent = new Agent(
		{
			features: agentFeatures(),
			sessions,
			models,
			settings: { current: { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'full-access' }, onDidChange: new Emitter<unknown>().event },
			system: () => 'You are Aside.',
			observers: () => observers,
		},
		testPorts(models, { tools: () => [readTool], context: (signal) => nodeToolContext([root], signal, observers.seen) }),
	);
	t.after(() => {
		agent.dispose();
		observers.dispose();
		folder.dispose();
	});
	const session = sessions.current;
	const turn = async (text: string, ...replies: ScriptedReply[]) => {
		provider.script(...replies);
		const outcome = await agent.startTurn(text);
		assert.equal(outcome.outcome, 'done', outcome.error);
	};
	const read = (path: string): ScriptedReply => ({ toolCalls: [{ id: `read-${path}`, name: 'Read', input: { path } }] });
	return { root, write, provider, session, sessions, library, agent, observers, turn, read };
}

describe('compacting a chat by hand', () => {
	it('records the summary; the next request holds it, the files read before, and the nested AGENTS.md again, without a new Read', async (t) => {
		const { provider, session, agent, turn, read, write } = chat(t);
		await turn('Look at src/deep/a.ts', read('src/deep/a.ts'), { text: 'It exports a.' });
		assert.ok(lastText(provider.requests[1]?.messages ?? []).includes('Deep rules v1.'), 'the Read brought the nested AGENTS.md');
		write('src/deep/AGENTS.md', 'Deep rules v2.\n');
		provider.script({ text: 'The user looked at src/deep/a.ts; it exports a.' });
		assert.equal(await compactionOf(agent, session).compact('keep the API decisions'), undefined);
		const summary = provider.requests[2];
		assert.ok(summary);
		assert.equal(summary.toolChoice, 'none');
		assert.match(lastText(summary.messages), /keeps this:\n\nkeep the API decisions$/);
		const [record] = compactions(session.records);
		assert.ok(record);
		assert.deepEqual({ cause: record.cause, keepFrom: record.keepFrom, turnId: record.turnId, instructions: record.instructions, model: record.model }, {
			cause: 'manual',
			keepFrom: undefined,
			turnId: undefined,
			instructions: 'keep the API decisions',
			model: 'scripted',
		});
		assert.deepEqual(session.reminders.pending.snapshot().map((entry) => entry.key).sort(), ['compact.file-references', 'workspace.instructions']);
		await turn('What next?', { text: 'Go on.' });
		const next = provider.requests[3]?.messages ?? [];
		assert.match(lastText(next.slice(0, 1)), /^<system-reminder key="context\.summary">[\s\S]*The user looked at src\/deep\/a\.ts/);
		assert.ok(!JSON.stringify(next).includes('Look at src/deep/a.ts'), 'the old prefix is not replayed');
		const reminders = lastText(next);
		assert.match(reminders, /- src\/deep\/a\.ts \(20 bytes; last read /);
		assert.ok(reminders.includes('Deep rules v2.'), 'the AGENTS.md again, in its current content');
		assert.equal(provider.requests.length, 4, 'no Read was needed');
		assert.deepEqual(session.reminders.pending.size, 0);
	});

	it('a file deleted since is said to be gone; its AGENTS.md, deleted, is not given again', async (t) => {
		const { provider, root, session, agent, turn, read } = chat(t);
		await turn('Look', read('src/deep/a.ts'), { text: 'ok' });
		const { rmSync } = await import('node:fs');
		rmSync(join(root, 'src/deep'), { recursive: true });
		provider.script({ text: 'Summary.' });
		assert.equal(await compactionOf(agent, session).compact(), undefined);
		await turn('Next', { text: 'ok' });
		const reminders = lastText(provider.requests.at(-1)?.messages ?? []);
		assert.match(reminders, /- src\/deep\/a\.ts \(no longer exists; last read /);
		assert.deepEqual(keysIn(reminders).filter((key) => key === 'workspace.instructions'), []);
	});

	it('/compact typed as the message compacts (what follows is what to keep); /compactx is a message', async (t) => {
		const { provider, session, agent, turn } = chat(t);
		// As the composer sends it: a slash command is run, anything else goes to the agent.
		const commands = new SlashCommands(new CompactionPart(() => compactionOf(agent, session)).commands);
		const view = { send: () => undefined, notice: (_level: string, text: string) => assert.fail(text), submit: () => assert.fail('no message of its own') };
		const composer = {
			send: (text: string) => {
				if (!commands.run(text, view)) {
					agent.submit(text);
				}
			},
		};
		await turn('Hi', { text: 'Hello.' });
		provider.script({ text: 'We greeted each other.' });
		const compacted = new Promise<void>((resolve) => {
			session.onDidAppend((record) => {
				if (record.kind === 'compaction') {
					resolve();
				}
			});
		});
		composer.send('/compact  the greeting ');
		await compacted;
		assert.equal(compactions(session.records)[0]?.instructions, 'the greeting');
		assert.ok(!session.records.some((record) => record.kind === 'user' && record.text.startsWith('/compact')));
		provider.script({ text: 'A message.' });
		const ended = new Promise<void>((resolve) => {
			agent.onDidEndTurn(() => {
				resolve();
			});
		});
		composer.send('/compactx');
		await ended;
		assert.ok(session.records.some((record) => record.kind === 'user' && record.text === '/compactx'));
	});

	it('a message sent while the summary is written waits, then starts the next turn on the compacted chat', async (t) => {
		const { provider, session, agent, turn } = chat(t);
		await turn('Hi', { text: 'Hello.' });
		provider.script({ text: 'We greeted each other.' }, { text: 'Answered.' });
		provider.onRequest = (request) => {
			if (request.toolChoice === 'none') {
				agent.submit('What now?');
				assert.match(JSON.stringify(agent.state.activity), /compacting/);
			}
		};
		const ended = new Promise<void>((resolve) => {
			agent.onDidEndTurn(() => {
				resolve();
			});
		});
		assert.equal(await compactionOf(agent, session).compact(), undefined);
		await ended;
		// (The observations the summary dropped ride that turn's first request: injected-reminders aside.)
		const kinds = session.records.filter((record) => record.kind !== 'injected-reminders').map((record) => (record.kind === 'user' ? `user ${record.text}` : record.kind));
		assert.deepEqual(kinds.slice(kinds.indexOf('compaction')), ['compaction', 'user What now?', 'assistant', 'turn-end']);
		assert.match(lastText(provider.requests.at(-1)?.messages.slice(0, 1) ?? []), /We greeted each other\./);
	});

	it('says why it cannot: nothing to compact yet, or a turn running', async (t) => {
		const { provider, session, agent } = chat(t);
		assert.equal(await compactionOf(agent, session).compact(), 'There is nothing to compact yet.');
		assert.equal(provider.requests.length, 0);
		provider.script({ hang: 'Thinking' });
		const running = agent.startTurn('Hi');
		await new Promise((resolve) => setImmediate(resolve));
		assert.match((await compactionOf(agent, session).compact()) ?? '', /The agent is working/);
		agent.stop();
		await running;
	});

	it('refuses a chat another window writes, sending nothing', async (t) => {
		const { provider, session, sessions, library, agent, turn } = chat(t);
		await turn('Hi', { text: 'Hello.' });
		const id = session.id;
		sessions.newSession();
		library.heldElsewhere.add(id);
		sessions.open(id);
		assert.equal(sessions.current.isReadOnly, true);
		const sent = provider.requests.length;
		assert.equal(await compactionOf(agent, sessions.current).compact(), 'This chat is being written in another window, so it cannot be compacted here.');
		assert.equal(provider.requests.length, sent);
	});

	it('ignores tool calls in the summary\'s answer: its text is the summary', async (t) => {
		const { provider, session, agent, turn } = chat(t);
		await turn('Hi', { text: 'Hello.' });
		provider.script({ text: 'We greeted each other.', toolCalls: [{ id: 'c9', name: 'Read', input: { path: 'x.ts' } }] });
		assert.equal(await compactionOf(agent, session).compact(), undefined);
		const [record] = compactions(session.records);
		assert.equal(record?.summary, 'We greeted each other.');
		assert.ok(!session.records.some((each) => each.kind === 'tool-result'), 'no call ran');
	});

	it('a Stop during the summary leaves the chat exactly as it was: records, pending FIFO, roster and observers', async (t) => {
		const { provider, session, agent, turn, read } = chat(t);
		await turn('Look at src/deep/a.ts', read('src/deep/a.ts'), { text: 'It exports a.' });
		const records = [...session.records];
		provider.script({ hang: 'The user' });
		provider.onRequest = (request) => {
			if (request.toolChoice === 'none') {
				setImmediate(() => {
					agent.stop();
				});
			}
		};
		assert.equal(await compactionOf(agent, session).compact(), 'The compaction was stopped; the chat is unchanged.');
		provider.onRequest = undefined;
		assert.deepEqual(session.records, records);
		assert.equal(session.reminders.pending.size, 0);
		// Nothing was reset: the next request gives neither the AGENTS.md nor the file list again.
		await turn('Next', { text: 'ok' });
		const reminders = lastText(provider.requests.at(-1)?.messages ?? []);
		assert.deepEqual(keysIn(reminders).filter((key) => key === 'workspace.instructions' || key === 'compact.file-references'), []);
	});

	it('a message sent while the summary is written, then a Stop: the message goes back to the person, not to the model, never lost', async (t) => {
		const { provider, session, agent, turn } = chat(t);
		await turn('Hi', { text: 'Hello.' });
		provider.script({ hang: 'We' });
		provider.onRequest = (request) => {
			if (request.toolChoice === 'none') {
				agent.submit('What now?');
				setImmediate(() => {
					agent.stop();
				});
			}
		};
		const returned: unknown[] = [];
		agent.onDidReturnMessages((back) => returned.push(back));
		const sent = provider.requests.length;
		assert.equal(await compactionOf(agent, session).compact(), 'The compaction was stopped; the chat is unchanged.');
		provider.onRequest = undefined;
		assert.deepEqual(returned, [{ sessionId: session.id, texts: ['What now?'] }]);
		assert.equal(provider.requests.length, sent + 1, 'only the summary request went out');
		assert.ok(!session.records.some((record) => record.kind === 'user' && record.text === 'What now?'));
	});

	it('a failed summary request says so, and leaves the chat unchanged', async (t) => {
		const { provider, session, agent, turn } = chat(t);
		await turn('Hi', { text: 'Hello.' });
		const records = [...session.records];
		provider.script({ text: '' });
		assert.equal(await compactionOf(agent, session).compact(), 'The model wrote an empty summary. The chat is unchanged.');
		assert.deepEqual(session.records, records);
	});

	it('an observation delivered before the point is delivered again, once', async (t) => {
		const { provider, session, agent, turn } = chat(t);
		const delivered = registerTestObservation(session);
		await turn('One', { text: 'ok' });
		await turn('Two', { text: 'ok' });
		assert.equal(delivered(), 1, 'unchanged, it stays in history');
		provider.script({ text: 'Summary.' });
		assert.equal(await compactionOf(agent, session).compact(), undefined);
		await turn('Three', { text: 'ok' });
		assert.equal(delivered(), 2, 'absent from the selected history: delivered again');
		await turn('Four', { text: 'ok' });
		assert.equal(delivered(), 2, 'once');
	});
});
