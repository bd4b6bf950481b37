// Sub-agents end to end in the real extension host, on the Anthropic provider and the scripted
// model server (which answers a child's requests by matching its prompt): the parent calls Agent,
// the child's requests carry their own reminder blocks and none of the root's turn events, its
// answer comes back as the tool result, a child's approval card names the agent, and Stop during
// a child stops it. The profiles are the test's own, set through the test hooks.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentProfile } from '../../src/agent/subagents/profile';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, type AgentsReading, driver, hasDriver, lastUserText, type TasksReading, transcriptLines, until, useScriptedServer, workspaceFile } from './support';

const SCRATCH = 'subagents-scratch';
const folder = () => workspaceFile(SCRATCH).fsPath;

const testProfile = (name: string, tools: AgentProfile['tools']): AgentProfile => ({
	name,
	description: `The ${name} test agent.`,
	tools,
	reminders: [],
	canSpawn: false,
	prompt: `You are the ${name} test agent.`,
	source: { kind: 'builtin' },
});
const PROFILES = [testProfile('explore', { kind: 'read-only' }), testProfile('general', { kind: 'inherit' })];

interface AnthropicBody {
	readonly system?: unknown;
	readonly tools?: readonly { readonly name: string }[];
}

const bodyOf = (request: ReceivedRequest | undefined): AnthropicBody => (request?.body ?? {});
const isChildOf = (name: string) => (request: ReceivedRequest) => JSON.stringify(bodyOf(request).system ?? '').includes(`You are the ${name} test agent.`);
const isRoot = (request: ReceivedRequest) => request.path === '/v1/messages' && !JSON.stringify(bodyOf(request).system ?? '').includes('test agent.');
const keysIn = (text: string) => [...text.matchAll(/<system-reminder key="([^"]+)">/g)].map((match) => match[1]);

describe('sub-agents (the Agent tool), with a scripted model server', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		mkdirSync(folder(), { recursive: true });
		writeFileSync(join(folder(), 'greeting.txt'), 'hello from the fixture\n');
		server = await startModelServer({ models: ['claude-scripted'] });
		restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', mode: 'ask', apiKey: 'sk-test-subagents' });
		const { hooks } = await activeAside();
		hooks.setAgentProfiles(PROFILES);
	});

	after(async () => {
		const { hooks } = await activeAside();
		hooks.setAgentProfiles(undefined);
		await restore();
		await server.close();
		rmSync(folder(), { recursive: true, force: true });
	});

	beforeEach(async () => {
		await vscode.commands.executeCommand('aside.newChat');
	});

	it('the parent calls Agent; the child runs with its own prompt, tools and reminders; its answer is the tool result', async () => {
		const { api, hooks } = await activeAside();
		const first = server.requests.length;
		server.script(
			{ toolCalls: [{ id: 'toolu_agent_1', name: 'Agent', input: { agent: 'explore', prompt: 'CHILD-TASK-READ: what does the greeting file say?', description: 'Read the greeting' } }] },
			{
				match: 'CHILD-TASK-READ',
				toolCalls: [
					{ id: 'toolu_child_read', name: 'Read', input: { path: `${SCRATCH}/greeting.txt` } },
					{ id: 'toolu_child_task', name: 'TaskWrite', input: { tasks: [{ id: 'read-greeting', title: 'Read the greeting file', status: 'in_progress' }] } },
				],
			},
			{ match: 'CHILD-TASK-READ', text: 'CHILD-ANSWER: it says hello from the fixture.' },
			{ text: 'The helper read it.' },
		);
		const result = await api.sendMessage('ROOT-MESSAGE: ask a helper what the greeting says.');
		assert.equal(result.outcome, 'done', result.error);

		const requests = server.requests.slice(first);
		const child = requests.filter(isChildOf('explore'));
		const root = requests.filter(isRoot);
		assert.equal(child.length, 2, 'the child sent its own two requests');
		assert.equal(root.length, 2);
		assert.deepEqual(bodyOf(root[0]).tools?.map((tool) => tool.name).at(-1), 'Agent', 'the root is offered Agent');
		const childTools = bodyOf(child[0]).tools?.map((tool) => tool.name) ?? [];
		assert.ok(childTools.includes('Read') && !childTools.includes('Write') && !childTools.includes('Run') && !childTools.includes('Agent'), `explore gets read-only tools: ${childTools.join(', ')}`);
		const childFirst = lastUserText(child[0]);
		assert.match(childFirst, /CHILD-TASK-READ/);
		assert.ok(keysIn(childFirst).includes('mode.constraints'), "the child's first request carries its own roster's blocks");
		assert.ok(!JSON.stringify(child[0]?.body).includes('ROOT-MESSAGE'), "the child sees none of the root's conversation");
		assert.match(lastUserText(child[1]), /hello from the fixture/, 'its Read ran in the workspace');

		const answer = lastUserText(root[1]);
		assert.match(answer, /CHILD-ANSWER: it says hello from the fixture\.\n\n\(Sub-agent root\/explore#1 finished in 2 steps\.\)/);

		const lines = transcriptLines(hooks.sessionsDir, result.sessionId);
		const start = lines.find((line) => line.kind === 'agent-start');
		assert.equal(start?.id, 'root/explore#1');
		assert.equal(start.callId, 'toolu_agent_1');
		const own = lines.filter((line) => line.agent === 'root/explore#1').map((line) => line.kind);
		assert.deepEqual(own, ['user', 'assistant', 'tool-result', 'tool-result', 'assistant', 'turn-end'], "the child's conversation is recorded under its owner path");
		assert.ok(lines.indexOf(start) < lines.findIndex((line) => line.agent === 'root/explore#1'), 'agent-start before the child\'s first record');

		// The child's task row is its own; it answered, so its open row was closed for it.
		const tasks = lines.filter((line) => line.kind === 'tasks');
		assert.deepEqual(tasks.map((line) => [line.by, (line.rows as { id: string; status: string; owner: string }[]).map((row) => `${row.id} ${row.status} ${row.owner}`)]), [
			['root/explore#1', ['read-greeting in_progress root/explore#1']],
			['settled', ['read-greeting completed root/explore#1']],
		]);

		if (hasDriver) {
			// The view: one collapsed row in the parent's turn; expanded, the child's own rows, its own reminders among them.
			await vscode.commands.executeCommand('aside.focusChat');
			const collapsed = await driver<AgentsReading>('readAgents');
			assert.deepEqual(collapsed.agents.map((agent) => [agent.path, agent.label, agent.expanded]), [['root/explore#1', 'Agent explore: Read the greeting · 2 steps · done', false]]);
			assert.ok(collapsed.top.includes('agent:agent-root/explore#1') && !collapsed.top.some((row) => row.startsWith('tool:')), `the Agent call is the child's row, not a tool row: ${collapsed.top.join(', ')}`);
			const opened = await driver<AgentsReading>('readAgents', { expand: ['root/explore#1'], openReminders: true });
			await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/subagent-e2e.png` });
			const row = opened.agents[0];
			assert.deepEqual(row?.rows.map((kind) => kind.split(':')[0]), ['reminders', 'user', 'tool', 'tool', 'assistant'], 'its reminders above its prompt, its two calls, its answer');
			// Its own roster's blocks (the date and the mode reach every roster); the session-only listing of agents does not.
			assert.ok(row.reminderKeys.includes('mode.constraints') && !row.reminderKeys.includes('agents.listing'), `the child's own reminder row: ${row.reminderKeys.join(', ')}`);
			const panel = await driver<TasksReading>('readTasks', { expand: true });
			assert.deepEqual([panel.shown, panel.summary], [true, '1 task, none open']);
			assert.deepEqual(panel.rows, [{ id: 'read-greeting', status: 'completed', title: 'Read the greeting file', owner: 'root/explore#1' }]);
		}
	});

	it("a child's write asks the person, the card names the agent, and each verdict goes to its own queue", async () => {
		const { api, hooks } = await activeAside();
		const first = server.requests.length;
		server.script(
			{ toolCalls: [{ id: 'toolu_root_write', name: 'Write', input: { path: `${SCRATCH}/root.txt`, content: 'root\n' } }] },
			{ toolCalls: [{ id: 'toolu_agent_w', name: 'Agent', input: { agent: 'general', prompt: 'CHILD-TASK-WRITE: create the child file.', description: 'Write the child file' } }] },
			{ match: 'CHILD-TASK-WRITE', toolCalls: [{ id: 'toolu_child_write', name: 'Write', input: { path: `${SCRATCH}/child.txt`, content: 'child\n' } }] },
			{ match: 'CHILD-TASK-WRITE', text: 'CHILD-ANSWER-W: wrote it.' },
			{ text: 'All written.' },
		);
		const sent = api.sendMessage('Write both files.');
		assert.equal(await until(() => hooks.pendingApproval(), (id) => id !== undefined, "the root's approval card"), 'toolu_root_write');
		assert.equal(hooks.pendingApprovalAgent(), undefined, 'the root asks as itself');
		hooks.approve('toolu_root_write', true);
		assert.equal(await until(() => hooks.pendingApproval(), (id) => id === 'toolu_child_write', "the child's approval card"), 'toolu_child_write');
		assert.equal(hooks.pendingApprovalAgent(), 'root/general#1', 'the card says which agent asks');
		assert.deepEqual(hooks.runningAgents(), [{ path: 'root/general#1', profile: 'general', description: 'Write the child file' }]);
		hooks.approve('toolu_child_write', true);
		const result = await sent;
		assert.equal(result.outcome, 'done', result.error);
		assert.equal(readFileSync(join(folder(), 'child.txt'), 'utf8'), 'child\n');

		const requests = server.requests.slice(first);
		const root = requests.filter(isRoot);
		const child = requests.filter(isChildOf('general'));
		assert.equal(child.length, 2);
		assert.ok(keysIn(lastUserText(root[1])).includes('permission.verdict'), "the root's verdict reaches the root's next request");
		for (const request of child) {
			assert.ok(!JSON.stringify(request.body).includes('root.txt'), "the root's verdict never reaches the child");
		}
		assert.ok(keysIn(lastUserText(child[1])).includes('permission.verdict'), "the child's verdict reaches the child's next request");
		const last = lastUserText(root[2]);
		assert.match(last, /CHILD-ANSWER-W: wrote it\./);
		assert.ok(!keysIn(last).includes('permission.verdict'), "the child's verdict never reaches the root");
	});

	it('Stop during a child stops it; the parent\'s tool result says so', async () => {
		const { api, hooks } = await activeAside();
		server.script(
			{ toolCalls: [{ id: 'toolu_agent_stop', name: 'Agent', input: { agent: 'explore', prompt: 'CHILD-TASK-HANG: take your time.', description: 'A long look' } }] },
			{ match: 'CHILD-TASK-HANG', hangAfterAccept: true },
		);
		const disconnects = server.disconnects();
		const sent = api.sendMessage('Start a long helper.');
		await until(() => hooks.runningAgents(), (children) => children.length === 1, 'the child running');
		await until(() => server.requests.filter(isChildOf('explore')).some((request) => JSON.stringify(request.body).includes('CHILD-TASK-HANG')), (found) => found, "the child's request");
		hooks.stop();
		const result = await sent;
		assert.equal(result.outcome, 'interrupted');
		await server.waitForDisconnects(disconnects + 1);
		assert.deepEqual(hooks.runningAgents(), []);
		assert.equal(hooks.agentBusy(), false);
		const lines = transcriptLines(hooks.sessionsDir, result.sessionId);
		const toolResult = lines.find((line) => line.kind === 'tool-result' && line.callId === 'toolu_agent_stop');
		assert.match(String(toolResult?.content), /^Sub-agent root\/explore#1 was stopped after 1 step: the user stopped the turn\./);
		const end = lines.filter((line) => line.agent === 'root/explore#1').at(-1);
		assert.deepEqual([end?.kind, end?.outcome], ['turn-end', 'interrupted']);
	});
});
