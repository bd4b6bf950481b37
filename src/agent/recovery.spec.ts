// session.recovery through a real Agent: a Stop that catches a tool call (or an answer) running
// queues one warning for the next request, naming the call; a Stop while nothing ran queues
// none; a chat reopened after its last turn broke off gets one, and session.resume no longer
// speaks of interruptions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { Emitter } from '../base/event';
import { cutOffInRecords, sessionRecovery } from '../reminders/builtin/sessionRecovery';
import { scriptedModels, testPorts } from '../testing/agentPorts';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { MemoryLibrary, testEnvironment } from '../testing/sessions';
import { type Tool, touchesNothing } from '../tools/tool';
import type { ChatRequest } from '../providers/provider';
import type { AgentRecord } from '../transcript/records';
import { Agent } from './agent';
import type { AgentFeature } from './chatFeature';
import { ChatSessions } from './sessions';

const tick = () => new Promise((resolve) => setImmediate(resolve));

let started = 0;
/** A command that runs until the turn is stopped. */
const slowRun: Tool<{ command: string }> = {
	name: 'Run',
	description: 'Runs a command.',
	kind: 'run',
	input: z.object({ command: z.string() }),
	touches: touchesNothing,
	run: (_input, context) => {
		started++;
		return new Promise((resolve) => {
			context.signal.addEventListener('abort', () => {
				resolve({ isError: true, content: 'The command was stopped.' });
			}, { once: true });
		});
	},
};

function setup(provider: ScriptedProvider, library = new MemoryLibrary(), window = 'w1', features: readonly AgentFeature[] = []) {
	const models = scriptedModels(provider);
	const sessions = new ChatSessions(library, testEnvironment(new FakeClock(), new SequentialIds(window)));
	const agent = new Agent(
		{ sessions, models, settings: { current: { maxOutputTokens: 1000, maxSteps: 5, permissionMode: 'full-access' }, onDidChange: new Emitter<unknown>().event }, system: () => 'system', features },
		testPorts(models, { tools: () => [slowRun] }),
	);
	return { agent, sessions, library };
}

const recoveries = (request: ChatRequest | undefined): string[] =>
	(request?.messages ?? []).flatMap((message) => (message.role === 'user' ? message.content.flatMap((part) => (part.type === 'text' ? [...part.text.matchAll(/<system-reminder key="session\.recovery">\n([\s\S]*?)\n<\/system-reminder>/g)].map((match) => match[1] ?? '') : [])) : []));

describe('session.recovery', () => {
	it('a Stop while a command runs: the next request carries one warning naming it, and the one after none', async () => {
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Run', input: { command: 'npm run build -- --watch' } }] }, { text: 'I will check.' }, { text: 'Fine.' });
		const { agent, sessions } = setup(provider);
		const before = started;
		const turn = agent.startTurn('Build it.');
		for (let i = 0; i < 50 && started === before; i++) {
			await tick();
		}
		agent.stop();
		assert.equal((await turn).outcome, 'interrupted');
		const result = sessions.current.records.find((record) => record.kind === 'tool-result');
		assert.equal(result?.kind === 'tool-result' ? result.cutOff : undefined, true, 'the result says the Stop caught it');

		assert.equal((await agent.startTurn('What state is it in?')).outcome, 'done');
		const sent = recoveries(provider.requests[1]);
		assert.equal(sent.length, 1);
		assert.match(sent[0] ?? '', /^The user stopped the previous turn while work was still running\.\nThese tool calls were running and may have partial effects:\n- Run: npm run build -- --watch\nProcesses a command started may still be running\./);
		assert.equal((await agent.startTurn('And now?')).outcome, 'done');
		assert.deepEqual(recoveries(provider.requests[2]), sent, 'delivered once: it stays in history, no second one');
	});

	it('a Stop that cut work off also says what the chat\'s features go on running (its background processes)', async () => {
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Run', input: { command: 'make' } }] }, { text: 'Checking.' });
		const running: AgentFeature = { id: 'processes', open: () => ({ recoveryNotes: () => ['Background processes of this chat keep running after a Stop:', '- p1 `npm run dev`'] }) };
		const { agent } = setup(provider, new MemoryLibrary(), 'w1', [running]);
		const before = started;
		const turn = agent.startTurn('Build it.');
		for (let i = 0; i < 50 && started === before; i++) {
			await tick();
		}
		agent.stop();
		await turn;
		await agent.startTurn('Where are we?');
		assert.match(recoveries(provider.requests[1])[0] ?? '', /- Run: make\n[\s\S]*Background processes of this chat keep running after a Stop:\n- p1 `npm run dev`\nCheck the state/);
	});

	it('a Stop while nothing runs (waiting for the model) queues nothing', async () => {
		const provider = new ScriptedProvider({ hang: '' }, { text: 'Hello.' });
		const { agent } = setup(provider);
		const turn = agent.startTurn('Hi.');
		await tick();
		agent.stop();
		await turn;
		await agent.startTurn('Again.');
		assert.deepEqual(recoveries(provider.requests.at(-1)), []);
	});

	it('a Stop while the answer streams: the warning says it was cut off', async () => {
		const provider = new ScriptedProvider({ hang: 'Let me start by' }, { text: 'Starting over.' });
		const { agent } = setup(provider);
		const turn = agent.startTurn('Explain.');
		for (let i = 0; i < 50 && agent.state.activity?.kind !== 'streaming'; i++) {
			await tick();
		}
		agent.stop();
		await turn;
		await agent.startTurn('Go on.');
		const [sent] = recoveries(provider.requests.at(-1));
		assert.match(sent ?? '', /Your last answer was cut off while it streamed; tool calls it was making did not run\./);
		assert.doesNotMatch(sent ?? '', /These tool calls/);
	});
});

describe('what a cut-off last turn left, from its records', () => {
	const user = (turnId: string): AgentRecord => ({ kind: 'user', id: `u-${turnId}`, turnId, at: 1, text: 'go' });
	const calls = (turnId: string, ...names: string[]): AgentRecord => ({
		kind: 'assistant',
		id: `a-${turnId}`,
		turnId,
		requestId: `r-${turnId}`,
		at: 2,
		text: '',
		toolCalls: names.map((name, index) => ({ id: `${turnId}-${index}`, name, input: name === 'Run' ? { command: 'make test' } : { path: 'src/a.ts' } })),
		stop: 'tool-use',
	});
	const result = (turnId: string, index: number, cutOff = false): AgentRecord => ({ kind: 'tool-result', id: `t-${turnId}-${index}`, turnId, callId: `${turnId}-${index}`, name: 'x', at: 3, content: '', isError: false, ...(cutOff ? { cutOff: true as const } : {}) });
	const end = (turnId: string, outcome: 'done' | 'interrupted' | 'failed'): AgentRecord => ({ kind: 'turn-end', turnId, at: 4, outcome });

	it('names the calls with no result when the host went away mid-turn, and the ones a Stop caught', () => {
		assert.deepEqual(cutOffInRecords([user('t1'), calls('t1', 'Edit', 'Run'), result('t1', 0)], 'reopened'), { cause: 'reopened', calls: [{ name: 'Run', target: 'make test' }], answerCut: false });
		assert.deepEqual(cutOffInRecords([user('t1'), calls('t1', 'Edit', 'Run'), result('t1', 0), result('t1', 1, true), end('t1', 'interrupted')], 'reopened')?.calls, [{ name: 'Run', target: 'make test' }]);
	});

	it('nothing when the last turn ended on its own, nothing ran, or there is no turn; an earlier turn\'s end does not end the last', () => {
		assert.equal(cutOffInRecords([], 'reopened'), undefined);
		assert.equal(cutOffInRecords([user('t1'), calls('t1', 'Run'), result('t1', 0), end('t1', 'done')], 'reopened'), undefined);
		assert.equal(cutOffInRecords([user('t1'), calls('t1', 'Run'), result('t1', 0), end('t1', 'failed')], 'reopened'), undefined);
		const waited = cutOffInRecords([user('t1'), end('t1', 'interrupted')], 'reopened');
		assert.ok(waited && sessionRecovery(waited) === undefined, 'stopped while waiting for the model: nothing was running');
		const denied = cutOffInRecords([user('t1'), calls('t1', 'Run'), result('t1', 0), end('t1', 'interrupted')], 'reopened');
		assert.ok(denied && sessionRecovery(denied) === undefined, 'a call that ended before the Stop (or was denied by it) is not partial');
		assert.deepEqual(cutOffInRecords([user('t0'), user('t1'), calls('t1', 'Run'), end('t0', 'done')], 'reopened')?.calls, [{ name: 'Run', target: 'make test' }]);
	});

	it('a reopened chat whose last turn broke off: session.resume, then one session.recovery, in the first request', async () => {
		const library = new MemoryLibrary();
		const first = setup(new ScriptedProvider(), library);
		const session = first.sessions.current;
		for (const record of [user('t1'), calls('t1', 'Run')]) {
			session.append(record);
		}
		const provider = new ScriptedProvider({ text: 'Checking.' });
		const second = setup(provider, library, 'w2');
		second.sessions.open(session.id);
		assert.equal((await second.agent.startTurn('Where were we?')).outcome, 'done');
		const text = JSON.stringify(provider.requests[0]?.messages);
		assert.equal(recoveries(provider.requests[0]).length, 1);
		assert.match(recoveries(provider.requests[0])[0] ?? '', /^The previous turn was cut off before it finished[^\n]*\nThese tool calls were running and may have partial effects:\n- Run: make test\n/);
		assert.ok(text.indexOf('session.resume') < text.indexOf('session.recovery'), 'how it was reopened first, then what may be partial');
		assert.doesNotMatch(text.match(/session\.resume[^<]*/)?.[0] ?? '', /interrupted/);
	});
});
