// aside.run.wakeOnExit: when a background process that ended by itself starts a turn in its idle
// chat. First a chat's processes with a recording stand-in for the agent (when it is asked, and
// what with), then a real Agent over the scripted model: the request of a turn Aside started
// carries its run.background.wake block where a person's message would be, and nothing of a
// person's; replay sends that block again as it was sent; a Retry sends it again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../../testing/chatFeatures';
import { Agent } from '../../agent/agent';
import { ChatSession } from '../../agent/session';
import { ChatSessions } from '../../agent/sessions';
import { Emitter } from '../../base/event';
import type { ChatMessage } from '../../providers/messages';
import { ProviderError } from '../../providers/provider';
import { DEFAULT_REMINDER_CONFIG, type ReminderConfig } from '../../reminders/config';
import { ChatProcessList, type ProcessHost } from '../../terminal/processHost';
import { scriptedModels, testPorts } from '../../testing/agentPorts';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { FakeTimers } from '../../testing/fakeTimers';
import { userText } from '../../testing/history';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { ScriptedLauncher } from '../../testing/scriptedLauncher';
import { ScriptedProvider } from '../../testing/scriptedProvider';
import { MemoryLibrary, testEnvironment } from '../../testing/sessions';
import { BUILTIN_TOOLS } from '../../tools/registry';
import type { TranscriptEntry } from '../../transcript/records';
import type { StartedBy } from '../../transcript/startedBy';
import { ChatProcesses } from './chatProcesses';
import { PROCESSES_STATE } from './feature';
import { MAX_WAKES_IN_A_ROW, WAKE_SETTLE_MS } from './processWake';

const NO_RUNNER = { run: () => Promise.reject(new Error('not run here')), dispose: () => undefined };

function host(launcher: ScriptedLauncher, timers: FakeTimers, wake: { on: boolean }): ProcessHost {
	return { launcher, outputPath: (stem) => `/kept/${stem}.txt`, file: () => undefined, foreground: () => NO_RUNNER, chats: new ChatProcessList(), wakeOnExit: () => wake.on, timers };
}

/** A chat's processes whose agent is a recorder: `idle` says whether it would start the turn. */
function chat(options: { records?: readonly TranscriptEntry[]; config?: ReminderConfig; on?: boolean } = {}) {
	const timers = new FakeTimers(new FakeClock(Date.UTC(2026, 11, 7, 14, 2, 11)));
	const store = new MemorySessionStore();
	store.records.push(...(options.records ?? []));
	const ids = new SequentialIds('id');
	const session = new ChatSession('s1', store, { ...testEnvironment(timers.clock, ids), reminderConfig: options.config ?? DEFAULT_REMINDER_CONFIG }, store.records);
	const launcher = new ScriptedLauncher();
	const wake = { on: options.on ?? true };
	const agent = { idle: true, started: [] as StartedBy[] };
	const between = {
		startUnasked: (started: StartedBy) => {
			if (agent.idle) {
				agent.started.push(started);
			}
			return agent.idle;
		},
	};
	const state = new ChatProcesses({ session, clock: timers.clock, newId: () => ids.next(), between }, host(launcher, timers, wake));
	/** One request that went out: what it carried, committed. */
	const request = async () => {
		const owner = session.reminders.beginUserTurn(`t${ids.next()}`);
		const injection = session.reminders.wait({ requestId: ids.next(), owner, phase: 'turn-start', messages: [userText('go')] }, undefined);
		await injection.commit();
		return new Map((injection.record?.entries ?? []).map((entry) => [entry.key, entry.body]));
	};
	return { timers, launcher, wake, agent, state, request, store };
}

describe('aside.run.wakeOnExit', () => {
	it('a process that exits by itself starts one turn a moment later, with a message that says no person wrote it', async () => {
		const { timers, launcher, agent, state } = chat();
		await state.processes.start('npm test', '/work', { kind: 'exit' });
		await state.processes.start('npm run lint', '/work', { kind: 'exit' });
		launcher.launched[0]?.exit.fire({ code: 1 });
		timers.advance(WAKE_SETTLE_MS / 2);
		launcher.launched[1]?.exit.fire({ code: undefined });
		timers.advance(WAKE_SETTLE_MS - 1);
		assert.equal(agent.started.length, 0, 'exits that come together wait for each other');
		timers.advance(1);
		assert.equal(agent.started.length, 1, 'and wake the chat once');
		const [started] = agent.started;
		assert.equal(started?.key, 'run.background.wake');
		assert.equal(started.label, 'Aside started this turn');
		assert.equal(started.why, 'p1 `npm test` exited: exit code 1; p2 `npm run lint` exited: exit code unknown (the shell reported none)');
		assert.match(started.body, /^No person wrote this message\. Aside started this turn by itself/);
		assert.match(started.body, /\n- p1 `npm test` exited: exit code 1\n- p2 `npm run lint` exited/);
		assert.match(started.body, /Do not start work the person did not ask for/);
		timers.advance(10 * WAKE_SETTLE_MS);
		state.afterTurn('done');
		timers.advance(WAKE_SETTLE_MS);
		assert.equal(agent.started.length, 1, 'one wake per process, whatever became of that turn');
	});

	it('does nothing with the setting off, for a process that was stopped, or with run.background.exit switched off', async () => {
		const off = chat({ on: false });
		await off.state.processes.start('make', '/work', { kind: 'exit' });
		off.launcher.last.exit.fire({ code: 0 });
		off.timers.advance(WAKE_SETTLE_MS);
		assert.deepEqual(off.agent.started, []);

		const stopped = chat();
		await stopped.state.processes.start('npm run dev', '/work', { kind: 'exit' });
		await stopped.state.processes.stop('p1');
		stopped.timers.advance(WAKE_SETTLE_MS);
		assert.deepEqual(stopped.agent.started, [], 'RunStop or the person ended it: nothing to look at unasked');

		const silent = chat({ config: { isEnabled: (type) => type !== 'runBackgroundExit', intervalOf: () => undefined } });
		await silent.state.processes.start('make', '/work', { kind: 'exit' });
		silent.launcher.last.exit.fire({ code: 0 });
		silent.timers.advance(WAKE_SETTLE_MS);
		assert.deepEqual(silent.agent.started, []);
	});

	it('a process stopped at the output bound wakes it, and says so', async () => {
		const { timers, launcher, agent, state } = chat();
		await state.processes.start('yes', '/work', { kind: 'exit' });
		await state.processes.stop('p1', 'bound');
		assert.equal(launcher.last.interrupted, true);
		timers.advance(WAKE_SETTLE_MS);
		assert.match(agent.started[0]?.why ?? '', /^p1 `yes` was stopped because its output passed the bound \(exit code 130\)$/);
	});

	it('an exit the model was already told of wakes nothing', async () => {
		const { timers, launcher, agent, state, request } = chat();
		await state.processes.start('npm test', '/work', { kind: 'exit' });
		launcher.last.exit.fire({ code: 0 });
		assert.match((await request()).get('run.background.exit') ?? '', /p1 `npm test` exited: exit code 0/);
		timers.advance(WAKE_SETTLE_MS);
		assert.deepEqual(agent.started, []);
	});

	it('a busy chat is not woken; when its turn is done and the exit still untold, it is — never after a Stop or a failure', async () => {
		const { timers, launcher, agent, state } = chat();
		agent.idle = false;
		await state.processes.start('npm test', '/work', { kind: 'exit' });
		launcher.last.exit.fire({ code: 2 });
		timers.advance(WAKE_SETTLE_MS);
		assert.deepEqual(agent.started, []);
		agent.idle = true;
		for (const outcome of ['interrupted', 'failed', 'step-limit'] as const) {
			state.afterTurn(outcome);
			timers.advance(WAKE_SETTLE_MS);
		}
		assert.deepEqual(agent.started, [], 'the person has something to look at: theirs to go on');
		state.afterTurn('done');
		timers.advance(WAKE_SETTLE_MS);
		assert.equal(agent.started.length, 1);
	});

	it(`after ${MAX_WAKES_IN_A_ROW} turns Aside started with no message of the person's between them, exits only wait for the next request`, async () => {
		const user = (n: number, startedBy?: StartedBy): TranscriptEntry => ({ kind: 'user', id: `u${n}`, turnId: `t${n}`, at: n, text: startedBy ? '' : 'Run the tests.', ...(startedBy ? { startedBy } : {}) });
		const woke: StartedBy = { why: 'p1 `make` exited: exit code 0', key: 'run.background.wake', label: 'Aside started this turn', body: 'No person wrote this message.' };
		const asleep = chat({ records: [user(1), user(2, woke), user(3, woke), user(4, woke)] });
		await asleep.state.processes.start('make', '/work', { kind: 'exit' });
		asleep.launcher.last.exit.fire({ code: 0 });
		asleep.timers.advance(WAKE_SETTLE_MS);
		assert.deepEqual(asleep.agent.started, []);

		const awake = chat({ records: [user(1, woke), user(2, woke), user(3, woke), user(4), user(5, woke)] });
		await awake.state.processes.start('make', '/work', { kind: 'exit' });
		awake.launcher.last.exit.fire({ code: 0 });
		awake.timers.advance(WAKE_SETTLE_MS);
		assert.equal(awake.agent.started.length, 1, 'the person\'s message counts them again from nothing');
	});
});

/** The user-role messages a request ends with (the turn's message, then its reminders), their texts joined by a blank line. */
function lastUserText(messages: readonly ChatMessage[]): string {
	const texts: string[] = [];
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index];
		if (message?.role !== 'user') {
			break;
		}
		texts.unshift(message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
	}
	return texts.join('\n\n');
}

function agentSetup(...steps: ConstructorParameters<typeof ScriptedProvider>) {
	const provider = new ScriptedProvider(...steps);
	const sessions = new ChatSessions(new MemoryLibrary(), testEnvironment(new FakeClock(), new SequentialIds('s')));
	const models = scriptedModels(provider);
	const launcher = new ScriptedLauncher();
	const timers = new FakeTimers();
	const agent = new Agent(
		{
			sessions,
			models,
			settings: { current: { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'full-access' }, onDidChange: new Emitter<unknown>().event },
			system: () => 'system',
			features: [PROCESSES_STATE],
			featureServices: { processes: host(launcher, timers, { on: true }) },
		},
		testPorts(models, { tools: () => BUILTIN_TOOLS.filter((tool) => tool.name.startsWith('Run')) }),
	);
	const settled = async () => {
		for (let i = 0; i < 500 && agent.isRunning; i++) {
			await new Promise((resolve) => setImmediate(resolve));
		}
		assert.equal(agent.isRunning, false);
	};
	const users = () => sessions.current.records.flatMap((record) => (record.kind === 'user' ? [record] : []));
	return { provider, sessions, launcher, timers, agent, settled, users };
}

describe('a turn Aside started, through the agent', () => {
	it('sends its reminder where a person\'s message would be, records it, and replays it as sent', async () => {
		const { provider, launcher, timers, agent, settled, users } = agentSetup(
			{ toolCalls: [{ id: 'c1', name: 'Run', input: { command: 'npm test', background: true } }] },
			{ text: 'Started the tests in the background.' },
			{ text: 'The tests failed in parser.spec.ts.' },
			{ text: 'Fixed.' },
		);
		assert.equal((await agent.startTurn('Run the tests in the background.')).outcome, 'done');
		launcher.last.data.fire('1 failing\r\n');
		launcher.last.exit.fire({ code: 1 });
		timers.advance(WAKE_SETTLE_MS);
		assert.equal(agent.isRunning, true, 'the exit started a turn');
		await settled();
		const woke = users().at(-1);
		assert.equal(woke?.text, '');
		assert.equal(woke.startedBy?.key, 'run.background.wake');
		const sent = lastUserText(provider.requests[2]?.messages ?? []);
		assert.match(sent, /^<system-reminder key="run\.background\.wake">\nNo person wrote this message\./);
		assert.match(sent, /<system-reminder key="run\.background\.exit">\np1 `npm test` exited: exit code 1/);
		assert.doesNotMatch(sent, /Run the tests/, 'nothing of a person\'s');
		assert.equal((await agent.startTurn('Fix it.')).outcome, 'done');
		const replayed = (provider.requests[3]?.messages ?? []).map((message) => (message.role === 'user' ? message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : ''));
		assert.equal(replayed.filter((text) => text.includes('key="run.background.wake"')).length, 1, 'replayed once, as sent');
		assert.ok(replayed.some((text) => text.startsWith(`<system-reminder key="run.background.wake">\n${woke.startedBy?.body ?? '?'}`)));
		assert.doesNotMatch(lastUserText(provider.requests[3]?.messages ?? []), /run\.background\.exit/, 'the exit was told once');
	});

	it('is not started in a chat the person has left', async () => {
		const { provider, launcher, timers, agent, sessions } = agentSetup(
			{ toolCalls: [{ id: 'c1', name: 'Run', input: { command: 'make', background: true } }] },
			{ text: 'Building.' },
		);
		await agent.startTurn('Build it.');
		const built = sessions.current;
		sessions.newSession();
		assert.notEqual(sessions.current, built);
		launcher.last.exit.fire({ code: 0 });
		timers.advance(WAKE_SETTLE_MS);
		assert.equal(agent.isRunning, false);
		assert.equal(provider.requests.length, 2);
	});

	it('a failed one is not tried again by itself; Retry sends the same message again', async () => {
		const { provider, launcher, timers, agent, sessions, settled, users } = agentSetup(
			{ toolCalls: [{ id: 'c1', name: 'Run', input: { command: 'make', background: true } }] },
			{ text: 'Building.' },
			{ failBefore: new ProviderError('network', 'The connection was refused.') },
			{ text: 'The build passed.' },
		);
		await agent.startTurn('Build it.');
		launcher.last.exit.fire({ code: 0 });
		timers.advance(WAKE_SETTLE_MS);
		await settled();
		const failed = users().at(-1);
		assert.ok(failed?.startedBy);
		const end = sessions.current.records.at(-1);
		assert.equal(end?.kind === 'turn-end' ? end.outcome : undefined, 'failed');
		timers.advance(10 * WAKE_SETTLE_MS);
		assert.equal(agent.isRunning, false, 'not tried again by itself');
		assert.equal(agent.retry(failed.turnId), undefined);
		await settled();
		const retried = users().at(-1);
		assert.deepEqual(retried?.startedBy, failed.startedBy);
		assert.equal(retried.retryOf, failed.turnId);
		assert.match(lastUserText(provider.requests[3]?.messages ?? []), /^<system-reminder key="run\.background\.wake">[\s\S]*key="run\.background\.exit"/);
		assert.equal(provider.requests.length, 4);
	});
});
