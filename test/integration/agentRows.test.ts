// A chat with child agents and tasks in the real workbench: the records a turn writes (a child
// that runs a child of its own, their reminders, a task list) appended to the chat as the runtime
// appends them, then the view read through the browser driver — the nested rows opened, each
// child's own ◇ reminders rows, the task panel — and the same after the chat is reopened from
// disk (the transcript's agent-start and tasks records load back).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TranscriptItem } from '../../src/protocol/messages';
import type { AgentRecord } from '../../src/transcript/records';
import { activeAside, type AgentsReading, driver, hasDriver, type TasksReading } from './support';

const G = 'root/general#1';
const N = 'root/general#1/explore#2';
const TITLE = `Where is the config read? ${Date.now()}`;

function records(): AgentRecord[] {
	const at = Date.now();
	const turnId = `turn-${at}`;
	const entry = (key: string, label: string, body: string) => ({ type: 'builtin', key, label, body, reason: 'first delivery' });
	const injection = (requestId: string, owner: string | undefined, key: string, body: string): AgentRecord => ({
		kind: 'injected-reminders',
		v: 1,
		phase: 'turn-start',
		owner: owner === undefined ? { kind: 'root', id: turnId } : { kind: 'agent', id: owner },
		requestId,
		at,
		turn: 1,
		entries: [entry(key, key === 'session.date' ? 'date' : 'mode', body)],
	});
	const callAgent = (id: string, callId: string, agent: string | undefined, input: object): AgentRecord => ({
		kind: 'assistant',
		id,
		turnId,
		requestId: `q-${id}`,
		at,
		text: '',
		toolCalls: [{ id: callId, name: 'Agent', input }],
		stop: 'tool-use',
		...(agent ? { agent } : {}),
	});
	return [
		{ kind: 'user', id: `u-${at}`, turnId, at, text: TITLE },
		injection(`q-root-${at}`, undefined, 'session.date', 'Today is a test day.'),
		callAgent('a0', 'call-g', undefined, { agent: 'general', prompt: 'Survey the config code', description: 'Survey the config code' }),
		{ kind: 'agent-start', id: G, at, turnId, callId: 'call-g', profile: 'general', description: 'Survey the config code' },
		{ kind: 'user', id: 'g-u', turnId, at, text: 'Survey the config code', agent: G },
		injection('q-g1', G, 'mode.constraints', 'You may read and change files.'),
		callAgent('g-a1', 'call-n', G, { agent: 'explore', prompt: 'Grep for loadConfig', description: 'Grep for loadConfig' }),
		{ kind: 'agent-start', id: N, at, turnId, callId: 'call-n', profile: 'explore', description: 'Grep for loadConfig', agent: G },
		{ kind: 'user', id: 'n-u', turnId, at, text: 'Grep for loadConfig', agent: N },
		injection('q-n1', N, 'mode.constraints', 'Read-only: you may not change files.'),
		{ kind: 'assistant', id: 'n-a1', turnId, requestId: 'q-n2', at, text: 'It is in src/config.ts.', toolCalls: [], stop: 'end', agent: N },
		{ kind: 'turn-end', turnId, at, outcome: 'done', agent: N },
		{ kind: 'tool-result', id: 'g-r1', turnId, callId: 'call-n', name: 'Agent', at, content: 'It is in src/config.ts.', isError: false, agent: G },
		{ kind: 'tasks', id: `k-${at}`, at, by: G, turn: 1, rows: [{ id: 't1', title: 'Find the config reader', status: 'completed', owner: G }, { id: 't2', title: 'Fix the default port', status: 'pending', owner: G }] },
		{ kind: 'assistant', id: 'g-a2', turnId, requestId: 'q-g3', at, text: 'The config is read in src/config.ts.', toolCalls: [], stop: 'end', agent: G },
		{ kind: 'turn-end', turnId, at, outcome: 'done', agent: G },
		{ kind: 'tool-result', id: 'r-g', turnId, callId: 'call-g', name: 'Agent', at, content: 'The config is read in src/config.ts.', isError: false },
		{ kind: 'assistant', id: 'a1', turnId, requestId: 'q-a1', at, text: 'It is read in src/config.ts.', toolCalls: [], stop: 'end' },
		{ kind: 'turn-end', turnId, at, outcome: 'done' },
	];
}

describe('child agents and tasks in the real workbench', function () {
	before(async function () {
		if (!hasDriver) {
			this.skip();
		}
		await vscode.commands.executeCommand('aside.newChat');
	});

	it('shows a child (and its child) as collapsed rows that open to their own rows and reminders, and the task panel', async () => {
		const { hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.focusChat');
		hooks.appendRecords(records());
		const header = hooks.currentSessionItems().find((item): item is Extract<TranscriptItem, { kind: 'agent' }> => item.kind === 'agent' && item.path === G);
		assert.deepEqual([header?.steps, header?.status, header?.result], [2, 'done', 'The config is read in src/config.ts.']);
		assert.equal(hooks.currentSessionItems().some((item) => item.kind === 'tool'), false, 'the Agent calls show as their children, not as tool rows');

		const collapsed = await driver<AgentsReading>('readAgents');
		assert.deepEqual(collapsed.top.map((row) => row.split(':')[0]), ['reminders', 'user', 'agent', 'assistant']);
		assert.deepEqual(collapsed.agents.map((agent) => [agent.path, agent.label, agent.expanded]), [[G, 'Agent general: Survey the config code · 2 steps · done', false]]);

		const opened = await driver<AgentsReading>('readAgents', { expand: [G, N], openReminders: true });
		const outer = opened.agents.find((agent) => agent.path === G);
		const inner = opened.agents.find((agent) => agent.path === N);
		assert.ok(outer && inner, 'both children are shown');
		assert.deepEqual(outer.rows, ['reminders:reminders-q-g1', 'user:g-u', `agent:agent-${N}`, 'assistant:g-a2']);
		assert.deepEqual(inner.rows, ['reminders:reminders-q-n1', 'user:n-u', 'assistant:n-a1']);
		assert.equal(inner.label, 'Agent explore: Grep for loadConfig · 1 step · done');
		assert.deepEqual(inner.reminderKeys, ['mode.constraints'], "the child's own reminders, not the root's");
		await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/agent-rows.png` });

		const tasks = await driver<TasksReading>('readTasks', { expand: true });
		assert.equal(tasks.shown, true);
		assert.equal(tasks.summary, '1 open task of 2 · Fix the default port');
		assert.deepEqual(tasks.rows, [
			{ id: 't1', status: 'completed', title: 'Find the config reader', owner: G },
			{ id: 't2', status: 'pending', title: 'Fix the default port', owner: G },
		]);
	});

	it('shows them again when the chat is reopened from disk; a new chat has no task panel', async () => {
		await vscode.commands.executeCommand('aside.newChat');
		assert.equal((await driver<TasksReading>('readTasks')).shown, false, 'a new chat has no tasks');
		await driver('openFromChatList', { title: TITLE });
		const tasks = await driver<TasksReading>('readTasks', { waitFor: '1 open task' });
		assert.equal(tasks.summary, '1 open task of 2 · Fix the default port');
		const reopened = await driver<AgentsReading>('readAgents', { expand: [G, N] });
		assert.deepEqual(reopened.agents.map((agent) => [agent.path, agent.status, agent.rows.length]), [[G, 'done', 4], [N, 'done', 3]]);
	});
});
