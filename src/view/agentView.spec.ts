import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentState } from '../agent/agentState';
import { Emitter } from '../base/event';
import { scriptedModels, testAgent } from '../testing/agentPorts';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { AgentPresenter, agentStatus, agentView, READY_DETAIL } from './agentView';

const idle: AgentState = {
	activity: undefined,
	problem: undefined,
	provider: 'anthropic',
	model: 'claude-sonnet-4-5',
	models: [{ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', contextWindow: 200_000 }],
	mode: 'ask',
	approval: null,
	streaming: null,
	steering: [],
	contextWindow: undefined,
};

describe('the agent as the chat shows it', () => {
	it('says in one sentence what a running turn does, why nothing answers, or that it is ready', () => {
		const detail = (activity: AgentState['activity']): string => agentStatus({ ...idle, activity }).detail;
		assert.equal(detail({ kind: 'choosing-model' }), 'Choosing the model…');
		assert.equal(detail({ kind: 'waiting' }), 'Waiting for the model…');
		assert.equal(detail({ kind: 'streaming' }), 'Answering…');
		assert.equal(detail({ kind: 'running-tool', tool: 'Read' }), 'Running Read…');
		assert.equal(detail({ kind: 'running-tool' }), 'Running a tool…');
		assert.equal(detail({ kind: 'asking', tool: 'Edit' }), 'Waiting for you to allow or deny Edit.');
		assert.equal(detail({ kind: 'asking' }), 'Waiting for you to allow or deny a tool call.');
		assert.equal(detail({ kind: 'retrying', attempt: 1, delayMs: 2500, reason: 'HTTP 529' }), 'The provider did not take the request (HTTP 529); trying again in 3 s (attempt 2).');
		assert.equal(detail({ kind: 'stopping' }), 'Stopping…');
		assert.equal(detail({ kind: 'compacting', cause: 'manual' }), 'Compacting the chat: the model is writing a summary…');
		assert.match(detail({ kind: 'compacting', cause: 'auto' }), /^The context is nearly full: compacting the chat/);
		assert.match(detail({ kind: 'compacting', cause: 'overflow' }), /^The provider refused the request as too long: compacting the chat, then trying again/);
		assert.equal(agentStatus({ ...idle, activity: { kind: 'compacting', cause: 'manual' } }).state, 'running', 'a compaction runs: Send is Stop');
		assert.equal(agentStatus({ ...idle, activity: { kind: 'waiting' } }).state, 'running');
		assert.deepEqual(agentStatus({ ...idle, problem: 'Store a key.' }), { state: 'unavailable', detail: 'Store a key.' });
		assert.deepEqual(agentStatus(idle), { state: 'ready', detail: READY_DETAIL });
		assert.equal(agentStatus({ ...idle, activity: { kind: 'waiting' }, problem: 'Store a key.' }).state, 'running', 'a running turn says what it does');
	});

	it('shows the approval card\'s content, announces a stream without its text, and the window when known', () => {
		const confirmation = { title: 'Edit a.ts?', target: 'src/a.ts', diff: '-a\n+b', alwaysAsk: 'two hard links' };
		const view = agentView({
			...idle,
			approval: { callId: 'c1', tool: 'Edit', kind: 'write', confirmation },
			streaming: { requestId: 'q1', text: 'Hel' },
			steering: ['use pnpm'],
			contextWindow: 200_000,
		});
		assert.deepEqual(view.approval, { callId: 'c1', tool: 'Edit', kind: 'write', title: 'Edit a.ts?', target: 'src/a.ts', diff: '-a\n+b' });
		assert.deepEqual(view.streaming, { requestId: 'q1' });
		assert.deepEqual(view.models, [{ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5' }]);
		assert.deepEqual([view.steering, view.contextWindow, view.mode, view.provider, view.model], [['use pnpm'], 200_000, 'ask', 'anthropic', 'claude-sonnet-4-5']);
		assert.equal('contextWindow' in agentView(idle), false);
		assert.equal(agentView(idle).approval, null);
	});

	it('a change set under review lists its files, each with what happens to it', () => {
		const changes = [
			{ path: '/w/a.ts', shown: 'a.ts', before: 'a', after: 'b' },
			{ path: '/w/n.ts', shown: 'n.ts', before: null, after: 'n' },
			{ path: '/w/d.ts', shown: 'd.ts', before: 'd', after: null },
		];
		const view = agentView({ ...idle, approval: { callId: 'c2', tool: 'ApplyPatch', kind: 'write', confirmation: { title: 'Apply a patch to 3 files', target: 'a.ts, n.ts, d.ts', changes } } });
		assert.deepEqual(view.approval?.review, { files: [{ path: 'a.ts', change: 'modify' }, { path: 'n.ts', change: 'create' }, { path: 'd.ts', change: 'delete' }] });
	});

	it('streams on one channel: the view hears of a response, then every delta from the first, and a snapshot gets the text so far', async () => {
		const agent = testAgent(scriptedModels(new ScriptedProvider({ hang: 'Hello' })));
		const presenter = new AgentPresenter(agent);
		const heard: string[] = [];
		presenter.onDidChange((view) => {
			if (view.streaming && !heard.includes(`stream ${view.streaming.requestId}`)) {
				heard.push(`stream ${view.streaming.requestId}`);
			}
		});
		presenter.onDidStream(({ requestId, text }) => heard.push(`${requestId}: ${text}`));
		const turn = agent.startTurn('Say hello.');
		for (let i = 0; i < 20 && presenter.streamed()?.text !== 'Hello'; i++) {
			await new Promise((resolve) => setImmediate(resolve));
		}
		const streamed = presenter.streamed();
		assert.ok(streamed);
		assert.deepEqual(heard, [`stream ${streamed.requestId}`, `${streamed.requestId}: Hello`]);
		assert.deepEqual(presenter.view().streaming, { requestId: streamed.requestId });
		agent.stop();
		await turn;
		assert.equal(presenter.streamed(), undefined);
		assert.equal(presenter.view().status.state, 'ready');
	});

	it('passes the person\'s commands on to the agent', () => {
		const calls: string[] = [];
		const changed = new Emitter<AgentState>();
		const ended = new Emitter<{ blocked?: { text: string; reason: string }; returned?: { sessionId: string; texts: string[] } }>();
		const held = new Emitter<{ sessionId: string; texts: string[] }>();
		const presenter = new AgentPresenter({
			state: idle,
			onDidChange: changed.event,
			onDidStream: new Emitter<{ requestId: string; text: string }>().event,
			onDidEndTurn: ended.event,
			onDidReturnMessages: held.event,
			submit: (text) => calls.push(`submit ${text}`),
			stop: () => calls.push('stop'),
			approve: (callId, granted, note) => calls.push(`approve ${callId} ${granted} ${note ?? ''}`.trim()),
			showReview: (callId, path) => calls.push(`review ${callId} ${path ?? ''}`.trim()),
			selectModel: (model) => calls.push(`model ${model}`),
		});
		presenter.submit('hi');
		presenter.stop();
		presenter.approve('c1', false, 'no');
		presenter.showReview('c1', 'src/a.ts');
		presenter.selectModel('m2');
		assert.deepEqual(calls, ['submit hi', 'stop', 'approve c1 false no', 'review c1 src/a.ts', 'model m2']);
		const views: string[] = [];
		presenter.onDidChange((view) => views.push(view.status.detail));
		changed.fire({ ...idle, activity: { kind: 'streaming' } });
		assert.deepEqual(views, ['Answering…']);
		const returned: string[] = [];
		presenter.onDidReturnMessage(({ texts, reason, cause, sessionId }) => returned.push(`${cause} ${sessionId ?? '-'} ${texts.join('|')}: ${reason}`));
		ended.fire({});
		ended.fire({ blocked: { text: 'deploy', reason: 'not on Friday' } });
		ended.fire({ returned: { sessionId: 's1', texts: ['also docs', 'and tests'] } });
		// What waited for a compaction or a restore that was stopped, or whose chat was left.
		held.fire({ sessionId: 's2', texts: ['after the compaction'] });
		const stopped = 'The agent was stopped before your message reached it.';
		assert.deepEqual(
			returned,
			['hook - deploy: not on Friday', `stopped s1 also docs|and tests: ${stopped}`, `stopped s2 after the compaction: ${stopped}`],
			'only a blocked message or one a Stop caught goes back',
		);
	});
});

describe('child agents as the chat shows them', () => {
	it('says what each running child does and whether it streams; the approval card says which agent asks', () => {
		const child = { path: 'root/explore#1', profile: 'explore', description: 'Look', activity: { kind: 'running-tool', tool: 'Read' } as const, streaming: null };
		const streaming = { ...child, path: 'root/explore#2', activity: { kind: 'streaming' } as const, streaming: { requestId: 'q9', text: 'Hel' } };
		const view = agentView({ ...idle, children: [child, streaming] });
		assert.deepEqual(view.children, [
			{ path: 'root/explore#1', detail: 'Running Read…', streaming: null },
			{ path: 'root/explore#2', detail: 'Answering…', streaming: { requestId: 'q9' } },
		]);
		assert.deepEqual(agentView(idle).children, [], 'none while none runs');
		const asking = agentView({ ...idle, approval: { callId: 'c1', tool: 'Write', kind: 'write', confirmation: { title: 'Create b.ts?', target: 'b.ts' }, agent: 'root/general#1' } });
		assert.equal(asking.approval?.agent, 'root/general#1');
		assert.equal('agent' in (agentView({ ...idle, approval: { callId: 'c1', tool: 'Write', kind: 'write', confirmation: { title: 'Create b.ts?', target: 'b.ts' } } }).approval ?? {}), false);
		const none = (): undefined => undefined;
		const presenter = new AgentPresenter({
			state: { ...idle, children: [child, streaming] },
			onDidChange: new Emitter<AgentState>().event,
			onDidStream: new Emitter<{ requestId: string; text: string }>().event,
			onDidEndTurn: new Emitter<{ blocked?: { text: string; reason: string } }>().event,
			submit: none,
			stop: none,
			approve: none,
			showReview: none,
			selectModel: none,
		});
		assert.deepEqual(presenter.childStreams(), [{ requestId: 'q9', text: 'Hel' }]);
	});
});
