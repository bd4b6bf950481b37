import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { Emitter } from '../base/event';
import type { Tool } from '../tools/tool';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { appendUser, testSessions } from '../testing/sessions';
import { itemsOfSession, viewOfAgent } from '../testing/views';
import { testPorts } from '../testing/agentPorts';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { Agent, type AgentSettings } from './agent';
import type { ModelSource, ResolvedModel } from './ports';

const editTool: Tool<{ path: string }> = {
	name: 'Edit',
	description: 'Edits a file.',
	kind: 'write',
	input: z.object({ path: z.string() }),
	confirm: ({ path }) => Promise.resolve({ title: 'Edit a file', target: path }),
	touches: ({ path }) => Promise.resolve({ reads: [], writes: [path] }),
	run: ({ path }) => Promise.resolve({ content: `Edited ${path}.` }),
};

function setup(provider: ScriptedProvider, options: { problem?: string; models?: Partial<ModelSource> } = {}) {
	const sessions = testSessions(new FakeClock(), new SequentialIds('s'));
	const settingsChanged = new Emitter<unknown>();
	let settings: AgentSettings = { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'ask' };
	const models: ModelSource = {
		providerId: 'openai-compatible',
		configuredModel: 'scripted',
		resolve: () => (options.problem ? Promise.reject(new Error(options.problem)) : Promise.resolve({ provider, model: 'scripted' })),
		listModels: () => Promise.resolve(options.problem ? { models: [], problem: options.problem } : { models: [{ id: 'scripted', name: 'Scripted' }] }),
		selectModel: () => Promise.resolve(),
		onDidChange: new Emitter<void>().event,
		...options.models,
	};
	const agent = new Agent(
		{
			sessions,
			models,
			settings: {
				get current() {
					return settings;
				},
				onDidChange: settingsChanged.event,
			},
			system: () => 'system',
		},
		testPorts(models, { tools: (mode) => (mode === 'plan' ? [] : [editTool]) }),
	);
	const views: ReturnType<typeof viewOfAgent>[] = [];
	agent.onDidChange(() => views.push(viewOfAgent(agent)));
	return {
		sessions,
		agent,
		views,
		changeMode: (mode: AgentSettings['permissionMode']) => {
			settings = { ...settings, permissionMode: mode };
			settingsChanged.fire(undefined);
		},
	};
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A model source whose window the test sets, as discovery would learn it in the background. */
function learningWindow() {
	const changed = new Emitter<void>();
	let window: number | undefined;
	const finished: ResolvedModel[] = [];
	const models: Partial<ModelSource> = {
		contextWindow: (model) => (model === 'scripted' ? window : undefined),
		onDidChangeContextWindow: changed.event,
		requestFinished: (resolved) => finished.push(resolved),
	};
	return {
		models,
		finished,
		learn: (tokens: number) => {
			window = tokens;
			changed.fire();
		},
	};
}
const userTexts = (sessions: ReturnType<typeof testSessions>) => itemsOfSession(sessions.current).flatMap((item) => (item.kind === 'user' ? [item.text] : []));

describe('the agent', () => {
	it('typing while it works is pending steering; Stop gives it back to the person instead of dropping it', async () => {
		const provider = new ScriptedProvider({ hang: 'Working' });
		const { agent, sessions, views } = setup(provider);
		const returned: unknown[] = [];
		agent.onDidEndTurn(({ returned: back }) => returned.push(back));
		const turn = agent.startTurn('Install the dependencies.');
		await tick();
		agent.submit('use pnpm, not npm');
		agent.submit('and pin it');
		assert.deepEqual(viewOfAgent(agent).steering, ['use pnpm, not npm', 'and pin it'], 'shown as pending');
		agent.stop();
		await turn;
		assert.deepEqual(userTexts(sessions), ['Install the dependencies.'], 'a stopped turn does not turn steering into a message');
		assert.deepEqual(returned, [{ sessionId: sessions.current.id, texts: ['use pnpm, not npm', 'and pin it'] }], 'both go back, oldest first, to their chat');
		assert.deepEqual(viewOfAgent(agent).steering, [], 'no longer pending');
		assert.ok(views.some((view) => view.status.state === 'running'));
		assert.equal(viewOfAgent(agent).status.state, 'ready');
	});

	it('a Stop with nothing typed gives nothing back; steering the model received is not given back', async () => {
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'a.ts' } }] }, { hang: 'Working' });
		const { agent } = setup(provider);
		const returned: unknown[] = [];
		agent.onDidEndTurn(({ returned: back }) => returned.push(back));
		const turn = agent.startTurn('Edit a.ts');
		for (let i = 0; i < 20 && viewOfAgent(agent).approval === null; i++) {
			await tick();
		}
		agent.submit('carefully');
		const approval = viewOfAgent(agent).approval;
		assert.ok(approval);
		agent.approve(approval.callId, true, undefined);
		for (let i = 0; i < 20 && provider.requests.length < 2; i++) {
			await tick();
		}
		assert.equal(provider.requests.length, 2, 'the second request carried the steering');
		agent.stop();
		await turn;
		assert.deepEqual(returned, [undefined], 'it reached the model, so it is in the transcript, not back in the box');
	});

	it('switching chats stops the turn and gives what was typed back to the chat it was typed in', async () => {
		const provider = new ScriptedProvider({ hang: 'thinking' });
		const { agent, sessions } = setup(provider);
		const returned: unknown[] = [];
		agent.onDidEndTurn(({ returned: back }) => returned.push(back));
		const turn = agent.startTurn('long task');
		const first = sessions.current.id;
		await tick();
		agent.submit('one more thing');
		sessions.newSession();
		await turn;
		assert.notEqual(sessions.current.id, first);
		assert.deepEqual(returned, [{ sessionId: first, texts: ['one more thing'] }]);
	});

	it('steering reaches the model at the next WAIT of the same turn', async () => {
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'a.ts' } }] }, { text: 'Done, with pnpm.' });
		const { agent } = setup(provider);
		const turn = agent.startTurn('Fix a.ts.');
		for (let i = 0; i < 20 && viewOfAgent(agent).approval === null; i++) {
			await tick();
		}
		assert.equal(viewOfAgent(agent).approval?.callId, 'c1');
		agent.submit('and use pnpm');
		agent.approve('c1', true, undefined);
		await turn;
		const last = provider.requests[1]?.messages.at(-1);
		assert.ok(last?.role === 'user' && last.content[0]?.type === 'text');
		const text = last.content[0].text;
		assert.match(text, /<system-reminder key="permission\.verdict">\nPERMISSION GRANTED/);
		assert.match(text, /<system-reminder key="steering\.user">\nThe user sent this message while you were working\. It carries the user's authority[\s\S]*and use pnpm\n<\/system-reminder>$/);
		assert.deepEqual(viewOfAgent(agent).steering, [], 'delivered, so no longer pending');
	});

	it('a message typed when the agent is idle starts the next turn', async () => {
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'a.ts' } }] }, { text: 'ok' });
		const { agent, sessions } = setup(provider);
		const ended: string[] = [];
		agent.onDidEndTurn((outcome) => ended.push(outcome.outcome));
		const turn = agent.startTurn('first');
		for (let i = 0; i < 20 && viewOfAgent(agent).approval === null; i++) {
			await tick();
		}
		agent.approve('c1', false, 'no');
		await turn;
		assert.deepEqual(ended, ['done']);
		agent.submit('second');
		for (let i = 0; i < 20 && agent.isRunning; i++) {
			await tick();
		}
		assert.deepEqual(userTexts(sessions), ['first', 'second']);
	});

	it('steering typed after the agent\'s last step becomes the next message instead of being lost', async () => {
		const provider = new ScriptedProvider({ text: 'All done.' }, { text: 'Sure, pnpm next time.' });
		const { agent, sessions } = setup(provider);
		provider.onRequest = () => {
			if (provider.requests.length === 1) {
				// The request has left: its WAIT is behind us, and it will be the last step.
				agent.submit('use pnpm');
			}
		};
		await agent.startTurn('Install the dependencies.');
		for (let i = 0; i < 20 && (agent.isRunning || userTexts(sessions).length < 2); i++) {
			await tick();
		}
		for (let i = 0; i < 20 && agent.isRunning; i++) {
			await tick();
		}
		assert.deepEqual(userTexts(sessions), ['Install the dependencies.', 'use pnpm']);
		assert.equal(provider.requests.length, 2);
	});

	it('an approval only answers the call that waits for it; Stop denies the waiting call', async () => {
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'a.ts' } }] });
		const { agent, sessions } = setup(provider);
		const turn = agent.startTurn('edit');
		for (let i = 0; i < 20 && viewOfAgent(agent).approval === null; i++) {
			await tick();
		}
		agent.approve('someone-else', true, undefined);
		assert.equal(viewOfAgent(agent).approval?.callId, 'c1', 'still waiting');
		agent.stop();
		const outcome = await turn;
		assert.equal(outcome.outcome, 'interrupted');
		const result = sessions.current.records.find((record) => record.kind === 'tool-result');
		assert.ok(result?.kind === 'tool-result');
		assert.equal(result.verdict, 'denied');
		assert.equal(viewOfAgent(agent).approval, null);
	});

	it('says what to configure when no model is available, and a turn fails with that message', async () => {
		const problem = 'No chat model is available in VS Code. Install one.';
		const { agent, sessions } = setup(new ScriptedProvider(), { problem });
		await tick();
		assert.deepEqual(viewOfAgent(agent).status, { state: 'unavailable', detail: problem });
		const outcome = await agent.startTurn('hello?');
		assert.deepEqual([outcome.outcome, outcome.error], ['failed', problem]);
		assert.deepEqual(itemsOfSession(sessions.current).map((item) => item.kind), ['user', 'turn-end'], 'the message is kept, with why nothing answered');
	});

	it('the mode picked in the view is the chat\'s: the setting is the mode of chats that picked none', () => {
		const { agent, sessions, changeMode } = setup(new ScriptedProvider());
		changeMode('auto-edit');
		assert.equal(viewOfAgent(agent).mode, 'auto-edit', 'a chat that picked nothing follows the setting');
		agent.selectMode('plan');
		assert.equal(viewOfAgent(agent).mode, 'plan');
		changeMode('full-access');
		assert.equal(viewOfAgent(agent).mode, 'plan', 'the chat keeps its own mode when the setting changes');
		appendUser(sessions.current, 'something, so that New Chat makes a new one');
		sessions.newSession();
		assert.equal(viewOfAgent(agent).mode, 'full-access', 'a new chat starts in the setting\'s mode');
	});

	it('a new chat stops the running turn', async () => {
		const provider = new ScriptedProvider({ hang: 'thinking' });
		const { agent, sessions } = setup(provider);
		const turn = agent.startTurn('long task');
		await tick();
		sessions.newSession();
		assert.equal((await turn).outcome, 'interrupted');
		assert.equal(agent.isRunning, false);
	});
});

describe('the agent and the context window', () => {
	it('shows the window the model source learns, when it learns it', async () => {
		const source = learningWindow();
		const { agent, views } = setup(new ScriptedProvider(), { models: source.models });
		await tick();
		assert.equal(viewOfAgent(agent).contextWindow, undefined, 'not known yet');
		source.learn(8192);
		assert.equal(views.at(-1)?.contextWindow, 8192, 'the view is told at once');
	});

	it('a window learned during a turn counts from its next request: context.usage rides it', async () => {
		const source = learningWindow();
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }], usage: [5000, 200] }, { text: 'Done.' });
		provider.onRequest = () => {
			if (provider.requests.length === 1) {
				source.learn(8192);
			}
		};
		const { agent } = setup(provider, { models: source.models });
		await agent.startTurn('Read a.ts');
		const last = provider.requests[1]?.messages.at(-1);
		assert.ok(last?.role === 'user' && last.content[0]?.type === 'text');
		assert.match(last.content[0].text, /<system-reminder key="context\.usage">\nContext window: 5,200 of 8,192 tokens in use \(63%\)/);
	});

	it('tells the model source after every request, which may ask about a guessed window again', async () => {
		const source = learningWindow();
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }] }, { text: 'Done.' });
		const { agent } = setup(provider, { models: source.models });
		await agent.startTurn('Read a.ts');
		assert.deepEqual(source.finished.map((resolved) => resolved.model), ['scripted', 'scripted']);
		assert.equal(source.finished[0]?.provider, provider);
	});
});
