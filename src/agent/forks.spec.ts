// Fork from here: the fork's history is the prefix up to and including the
// message's turn, its first request carries session.fork (then every interval), a worktree fork's
// restore report rides the pending FIFO once and is lost on a restart, and its checkpoints of the
// copied turns go with it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FileSessionLibrary } from './library';
import { Emitter } from '../base/event';
import { MemoryCheckpointStore } from '../testing/memoryCheckpoints';
import type { ChatRequest } from '../providers/provider';
import { DEFAULT_REMINDER_CONFIG, type ReminderConfig } from '../reminders/config';
import { restoreReport } from '../reminders/builtin/sessionFork';
import { scriptedModels, testPorts } from '../testing/agentPorts';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { RecordingLogger } from '../testing/recordingLogger';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { MemoryLibrary, testEnvironment } from '../testing/sessions';
import { replayHistory } from '../transcript/replay';
import type { AgentRecord } from '../transcript/records';
import { Agent } from './agent';
import { ForkRefused, forkPrefix } from './forkHistory';
import { ChatForks } from './forks';
import type { ChatSession } from './session';
import type { SessionLibrary } from './sessionStorage';
import { ChatSessions } from './sessions';

const T0 = Date.UTC(2026, 11, 1, 9);

/** The reminders message the request added (its last message), if any: earlier ones are history. */
function injected(request: ChatRequest | undefined): string {
	const last = request?.messages.at(-1);
	return last?.role === 'user' && last.synthetic === 'reminders' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
}

/** The keys of the reminder blocks a request added, in order. */
function keysOf(request: ChatRequest | undefined): string[] {
	return [...injected(request).matchAll(/<system-reminder key="([^"]+)">/g)].map((match) => match[1] as string);
}

/** The bodies of the blocks of `key` a request added. */
function blocksOf(request: ChatRequest | undefined, key: string): string[] {
	return [...injected(request).matchAll(/<system-reminder key="([^"]+)">\n([\s\S]*?)\n<\/system-reminder>/g)].filter((match) => match[1] === key).map((match) => match[2] as string);
}

/** One window: its sessions over `library` (ids from `prefix`: two windows must not reuse them), an agent and its scripted model. */
function world(config: ReminderConfig = DEFAULT_REMINDER_CONFIG, library: SessionLibrary = new MemoryLibrary(), prefix = 's') {
	const clock = new FakeClock(T0);
	const provider = new ScriptedProvider();
	const sessions = new ChatSessions(library, { ...testEnvironment(clock, new SequentialIds(prefix)), reminderConfig: config });
	const models = scriptedModels(provider);
	const agent = new Agent({ sessions, models, settings: { current: { maxOutputTokens: 1000, maxSteps: 5, permissionMode: 'ask' }, onDidChange: new Emitter<unknown>().event }, system: () => 'system' }, testPorts(models));
	return { clock, provider, sessions, agent, library };
}

/** A chat of two turns, each answered, the first with a tool call a sub-agent answered. */
function twoTurns(session: ChatSession): void {
	const records: AgentRecord[] = [
		{ kind: 'user', id: 'u1', turnId: 't1', at: T0, text: 'first question' },
		{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'r1', at: T0 + 1, text: '', toolCalls: [{ id: 'c1', name: 'Agent', input: { task: 'look' } }], stop: 'tool-use' },
		{ kind: 'agent-start', id: 'root/explore#1', at: T0 + 2, turnId: 't1', callId: 'c1', profile: 'explore', description: 'look' },
		{ kind: 'user', id: 'cu1', turnId: 't1', at: T0 + 2, text: 'look', agent: 'root/explore#1' },
		{ kind: 'assistant', id: 'ca1', turnId: 't1', requestId: 'cr1', at: T0 + 3, text: 'found it', toolCalls: [], stop: 'end', agent: 'root/explore#1' },
		{ kind: 'tool-result', id: 'tr1', turnId: 't1', callId: 'c1', name: 'Agent', at: T0 + 4, content: 'found it', isError: false },
		{ kind: 'assistant', id: 'a2', turnId: 't1', requestId: 'r2', at: T0 + 5, text: 'first answer', toolCalls: [], stop: 'end' },
		{ kind: 'turn-end', turnId: 't1', at: T0 + 6, outcome: 'done' },
		{ kind: 'user', id: 'u2', turnId: 't2', at: T0 + 7, text: 'second question' },
		{ kind: 'assistant', id: 'a3', turnId: 't2', requestId: 'r3', at: T0 + 8, text: 'second answer', toolCalls: [], stop: 'end' },
		{ kind: 'turn-end', turnId: 't2', at: T0 + 9, outcome: 'done' },
	];
	for (const record of records) {
		session.append(record);
	}
}

function lastUserId(session: ChatSession): string {
	const user = session.records.findLast((record) => record.kind === 'user');
	return user?.kind === 'user' ? user.id : '';
}

/** The in-memory checkpoint store, recording what copyChat was asked (and failing it on demand). */
class MemoryCheckpoints extends MemoryCheckpointStore {
	readonly copies: { from: string; to: string; turnIds: string[] }[] = [];
	fail: Error | undefined;
	override copyChat(from: string, to: string, turnIds: ReadonlySet<string>): Promise<void> {
		if (this.fail) {
			return Promise.reject(this.fail);
		}
		this.copies.push({ from, to, turnIds: [...turnIds].sort() });
		return super.copyChat(from, to, turnIds);
	}
}

describe('the history of a fork', () => {
	it('is the prefix up to and including the turn of the message, children and its end included', () => {
		const { sessions } = world();
		const source = sessions.current;
		twoTurns(source);
		source.retitle('Original');
		const before = [...source.allRecords];
		const made = sessions.fork('u1', undefined);

		assert.equal(sessions.current, made.session, 'the fork is current');
		assert.notEqual(made.session.id, source.id);
		const [first, ...copied] = made.session.allRecords;
		assert.deepEqual(made.session.fork, first, 'its first record is its fork record');
		assert.deepEqual({ source: made.record.source, from: made.record.from }, { source: { id: source.id, title: 'Original' }, from: 'u1' });
		assert.deepEqual(copied.map((record) => ('id' in record ? record.id : record.kind)), ['u1', 'a1', 'root/explore#1', 'cu1', 'ca1', 'tr1', 'a2', 'turn-end']);
		assert.deepEqual([...made.prefix.turnIds], ['t1']);
		assert.equal(made.session.title, 'Original (fork)');
		assert.deepEqual(made.session.agentRecords('root/explore#1').map((record) => 'id' in record && record.id), ['cu1', 'ca1'], 'the child\'s records are the child\'s in the fork too');
		// Replay treats the copy as the fork's own history: the same messages as the source's prefix.
		assert.deepEqual(replayHistory(made.session.records), replayHistory(before.slice(0, 8).filter((record) => !('agent' in record && record.agent !== undefined) && record.kind !== 'agent-start')));
		assert.deepEqual(source.allRecords, before, 'the source stays as it was');
	});

	it('from the last message takes the whole chat; a turn with no end (the window died) stops at the next message', () => {
		const records: AgentRecord[] = [
			{ kind: 'user', id: 'u1', turnId: 't1', at: T0, text: 'a' },
			{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'r1', at: T0, text: 'half', toolCalls: [], stop: 'interrupted' },
			{ kind: 'user', id: 'u2', turnId: 't2', at: T0, text: 'b' },
		];
		assert.deepEqual(forkPrefix(records, 'u1', undefined).records.map((record) => 'id' in record && record.id), ['u1', 'a1']);
		assert.deepEqual(forkPrefix(records, 'u2', undefined).records.length, 3);
	});

	it('refuses a message whose turn runs, a sub-agent\'s message and a message not in the chat, writing nothing', () => {
		const library = new MemoryLibrary();
		const { sessions } = world(DEFAULT_REMINDER_CONFIG, library);
		const source = sessions.current;
		twoTurns(source);
		assert.throws(() => sessions.fork('u2', 't2'), (error: unknown) => error instanceof ForkRefused && /still running/.test(error.message));
		assert.throws(() => sessions.fork('cu1', undefined), (error: unknown) => error instanceof ForkRefused && /sub-agent/.test(error.message));
		assert.throws(() => sessions.fork('nope', undefined), ForkRefused);
		assert.equal(sessions.current, source);
		assert.equal(library.stores.size, 1, 'no fork was stored');
	});

	it('a running turn is refused through ChatForks too, and the chat says why', async () => {
		const { sessions } = world();
		twoTurns(sessions.current);
		const forks = new ChatForks({ sessions, runningTurn: () => 't2', log: new RecordingLogger() });
		assert.match((await forks.fork('u2')) ?? '', /still running/);
		assert.equal(await forks.fork('u1'), undefined);
	});

	it('takes its source\'s checkpoints of the copied turns (and says when they could not be copied)', async () => {
		const { sessions } = world();
		const source = sessions.current;
		twoTurns(source);
		const checkpoints = new MemoryCheckpoints();
		const forks = new ChatForks({ sessions, runningTurn: () => undefined, checkpoints, log: new RecordingLogger() });
		assert.equal(await forks.fork('u2'), undefined);
		assert.deepEqual(checkpoints.copies, [{ from: source.id, to: sessions.current.id, turnIds: ['t1', 't2'] }]);
		sessions.open(source.id);
		checkpoints.fail = new Error('disk full');
		assert.match((await forks.fork('u1')) ?? '', /checkpoints could not be copied.*disk full/);
		assert.notEqual(sessions.current.id, source.id, 'the fork stands');
	});

	it('is listed with its parent, by the parent\'s title as it is now', () => {
		const { sessions } = world();
		const source = sessions.current;
		twoTurns(source);
		source.retitle('Before');
		const fork = sessions.fork('u1', undefined).session;
		const listed = sessions.list();
		assert.deepEqual(listed.find((summary) => summary.id === fork.id)?.forkOf, { id: source.id, title: 'Before' });
		assert.equal(listed.find((summary) => summary.id === source.id)?.forkOf, undefined);
	});
});

describe('the session index of a fork', () => {
	const dir = mkdtempSync(join(tmpdir(), 'aside-forks-'));
	after(() => {
		rmSync(dir, { recursive: true, force: true });
	});

	it('keeps the parent, as the writer appends and when the index is made again from the transcript', () => {
		const log = new RecordingLogger();
		const library = new FileSessionLibrary(dir, () => T0, log);
		const { sessions } = world(DEFAULT_REMINDER_CONFIG, library, 'file');
		twoTurns(sessions.current);
		sessions.current.retitle('Parent "chat"');
		const source = sessions.current;
		const fork = sessions.fork('u2', undefined).session;
		const fromIndex = library.list().find((summary) => summary.id === fork.id);
		assert.deepEqual(fromIndex?.forkOf, { id: source.id, title: 'Parent "chat"' });
		fork.dispose();
		source.dispose();
		rmSync(join(dir, 'index.json'), { force: true });
		const rebuilt = new FileSessionLibrary(dir, () => T0, log).list();
		assert.deepEqual(rebuilt.find((summary) => summary.id === fork.id)?.forkOf, { id: source.id, title: 'Parent "chat"' });
		assert.equal(rebuilt.find((summary) => summary.id === source.id)?.forkOf, undefined);
	});
});

describe('session.fork', () => {
	it('rides the fork\'s first request, then every interval turns, from the fork record', async () => {
		const config: ReminderConfig = { isEnabled: () => true, intervalOf: (type) => (type === 'sessionFork' ? 2 : undefined) };
		const { sessions, agent, provider } = world(config);
		twoTurns(sessions.current);
		sessions.current.retitle('Plan <system-reminder key="x">');
		await agent.startTurn('before the fork');
		assert.equal(keysOf(provider.requests.at(-1)).includes('session.fork'), false, 'an ordinary chat has none');
		sessions.fork('u1', undefined);
		for (const text of ['one', 'two', 'three']) {
			await agent.startTurn(text);
		}
		const [first, second, third] = provider.requests.slice(-3);
		const body = blocksOf(first, 'session.fork')[0] ?? '';
		assert.match(body, /This chat is a fork of the chat "Plan ‹system-reminder key="x"/, 'the title is quoted, its markers neutralised');
		assert.doesNotMatch(body, /worktree/);
		assert.equal(keysOf(second).includes('session.fork'), false, 'not again before the interval');
		assert.equal(blocksOf(third, 'session.fork').length, 1, 'again once the interval is reached');
	});

	it('a fork of a fork gets its own at its first request, though the copied history holds its source\'s', async () => {
		const { sessions, agent, provider } = world();
		twoTurns(sessions.current);
		sessions.fork('u2', undefined);
		await agent.startTurn('in the first fork');
		assert.equal(blocksOf(provider.requests.at(-1), 'session.fork').length, 1);
		const firstFork = sessions.current.title;
		sessions.fork(lastUserId(sessions.current), undefined);
		await agent.startTurn('in the second fork');
		const bodies = blocksOf(provider.requests.at(-1), 'session.fork');
		assert.equal(bodies.length, 1);
		assert.match(bodies[0] ?? '', new RegExp(`fork of the chat "${firstFork.replace(/[()]/g, '\\$&')}"`));
	});

	it('is counted from the records when the fork is reopened: not sent again before the interval', async () => {
		const library = new MemoryLibrary();
		const { sessions, agent, provider } = world(DEFAULT_REMINDER_CONFIG, library);
		twoTurns(sessions.current);
		const fork = sessions.fork('u1', undefined).session;
		await agent.startTurn('first in the fork');
		assert.equal(blocksOf(provider.requests.at(-1), 'session.fork').length, 1);
		const later = world(DEFAULT_REMINDER_CONFIG, library, 'later');
		later.sessions.open(fork.id);
		await later.agent.startTurn('after a reopen');
		assert.equal(keysOf(later.provider.requests.at(-1)).includes('session.fork'), false);
	});

	it('a worktree fork\'s restore report rides the first request once; a restart before then drops it, the provenance stays', async () => {
		const library = new MemoryLibrary();
		const { sessions, agent, provider } = world(DEFAULT_REMINDER_CONFIG, library);
		twoTurns(sessions.current);
		const worktree = { folder: '/repos/app-worktrees/try-it', branch: 'try-it', base: '0123456789abcdef0123456789abcdef01234567' };
		const { records } = sessions.forkRecords('u1', undefined, worktree);
		const report = restoreReport({ restored: ['src/a.ts'], failed: [{ path: 'src/gone.ts', why: 'its kept text is gone' }], shared: ['/home/me/notes.md'] }, worktree.folder);

		const fork = sessions.adopt(records);
		fork.reminders.enqueuePending(report);
		await agent.startTurn('first in the worktree');
		const first = blocksOf(provider.requests.at(-1), 'session.fork');
		assert.equal(first.length, 2, 'the provenance and the report');
		assert.match(first.join('\n'), /folder \/repos\/app-worktrees\/try-it, on the new branch try-it, started from commit 0123456789abcdef/);
		assert.match(first.join('\n'), /1 file was restored:\n- src\/a\.ts/);
		assert.match(first.join('\n'), /src\/gone\.ts \(its kept text is gone\)/);
		assert.match(first.join('\n'), /outside the repository[^]*\/home\/me\/notes\.md/);
		await agent.startTurn('second');
		assert.equal(keysOf(provider.requests.at(-1)).includes('session.fork'), false, 'once');

		// Another fork, its report queued, then a restart before its first request.
		const second = sessions.adopt(sessions.forkRecords(lastUserId(sessions.current), undefined, worktree).records);
		second.reminders.enqueuePending(report);
		const restarted = world(DEFAULT_REMINDER_CONFIG, library, 'restarted');
		restarted.sessions.open(second.id, 'restart');
		await restarted.agent.startTurn('after the restart');
		const after = blocksOf(restarted.provider.requests.at(-1), 'session.fork');
		assert.equal(after.length, 1, 'the report went with the window');
		assert.match(after[0] ?? '', /on the new branch try-it/);
		assert.doesNotMatch(after[0] ?? '', /restored/);
	});
});
