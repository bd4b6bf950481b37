// Children running side by side: the concurrency limit, results in call order, Stop, approvals
// from several children, queue isolation between the root and its children, and the state the
// view shows while they run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChildState } from '../agentState';
import { reminderKeys, subagentSetup, textOf, when } from '../../testing/subagents';
import type { ToolResultRecord } from '../../transcript/toolResultRecord';

const agentCall = (id: string, agent: string, prompt: string) => ({ id, name: 'Agent', input: { agent, prompt, description: `${agent}: ${prompt}` } });

function results(records: readonly { readonly kind: string }[]): ToolResultRecord[] {
	return records.filter((record): record is ToolResultRecord => record.kind === 'tool-result');
}

// A guard, not a timing: a wait for an event that never comes fails the suite instead of hanging it.
const HANG_GUARD = { timeout: 30_000 };

describe('children side by side', HANG_GUARD, () => {
	it('runs five Agent calls at most two at a time, and records their results in call order', async () => {
		const { provider, agent, sessions } = subagentSetup({ settings: { agentsMaxConcurrent: 2 } });
		const tasks = [1, 2, 3, 4, 5];
		provider.script(
			{ toolCalls: tasks.map((task) => agentCall(`c${task}`, 'explore', `TASK-${task}`)) },
			...tasks.map((task) => ({ match: `TASK-${task}`, text: `answer ${task}`, hold: true })),
			{ text: 'all done' },
		);
		let most = 0;
		const subscription = agent.onDidChange((state) => {
			most = Math.max(most, state.children?.length ?? 0);
		});
		const turn = agent.startTurn('Go.');
		for (const batch of [2, 2, 1]) {
			await when(provider.onDidChange, () => provider.held.length === batch);
			assert.equal(agent.state.children?.length, batch, 'exactly the running children are in the state');
			assert.deepEqual(agent.state.activity, { kind: 'running-tool', tool: 'Agent' }, 'the root says it is running Agent');
			provider.releaseAll();
		}
		assert.equal((await turn).outcome, 'done');
		subscription.dispose();
		assert.equal(most, 2);
		assert.equal(provider.maxRunning, 2, 'never more than two requests at once');
		const recorded = results(sessions.current.records);
		assert.deepEqual(recorded.map((record) => record.callId), ['c1', 'c2', 'c3', 'c4', 'c5']);
		assert.deepEqual(recorded.map((record) => record.content?.split('\n')[0]), ['answer 1', 'answer 2', 'answer 3', 'answer 4', 'answer 5'], 'each result is its own child\'s answer');
		assert.deepEqual(agent.state.children, []);
	});

	it('runs the other calls of the answer in order beside the children, and records everything in call order', async () => {
		const { provider, agent, sessions, ran } = subagentSetup();
		provider.script(
			{
				toolCalls: [
					{ id: 'l1', name: 'Lookup', input: { name: 'first' } },
					agentCall('c1', 'explore', 'TASK-SLOW'),
					{ id: 'l2', name: 'Lookup', input: { name: 'second' } },
				],
			},
			{ match: 'TASK-SLOW', text: 'slow answer', hold: true },
			{ text: 'done' },
		);
		const turn = agent.startTurn('Go.');
		await when(provider.onDidChange, () => provider.held.length === 1);
		await when(agent.onDidChange, () => ran.length === 2 && agent.state.activity?.kind === 'running-tool' && agent.state.activity.tool === 'Agent');
		assert.deepEqual(ran, ['Lookup first', 'Lookup second'], 'the Lookups ran while the child was still working');
		assert.deepEqual(agent.state.activity, { kind: 'running-tool', tool: 'Agent' }, 'once they are done, the root says it runs Agent again');
		provider.releaseAll();
		await turn;
		assert.deepEqual(results(sessions.current.records).map((record) => record.callId), ['l1', 'c1', 'l2']);
	});

	it('Stop stops every child and its request; the results say so; nothing runs after', async () => {
		const { provider, agent, sessions, settled } = subagentSetup();
		provider.script(
			{ toolCalls: [agentCall('c1', 'explore', 'TASK-ONE'), agentCall('c2', 'explore', 'TASK-TWO')] },
			{ match: 'TASK-ONE', text: 'partial one', hang: true },
			{ match: 'TASK-TWO', text: 'partial two', hang: true },
		);
		const streamed: string[] = [];
		agent.onDidStream(({ text }) => streamed.push(text));
		const turn = agent.startTurn('Go.');
		const streaming = (children: readonly ChildState[] | undefined) => children?.length === 2 && children.every((child) => child.streaming?.text.startsWith('partial') === true);
		await when(agent.onDidChange, () => streaming(agent.state.children));
		assert.deepEqual(agent.state.children?.map((child) => [child.path, child.profile, child.description, child.activity.kind]), [
			['root/explore#1', 'explore', 'explore: TASK-ONE', 'streaming'],
			['root/explore#2', 'explore', 'explore: TASK-TWO', 'streaming'],
		]);
		assert.deepEqual(streamed.sort(), ['partial one', 'partial two'], "the children's text streams through onDidStream");
		const sent = provider.requests.length;

		agent.stop();
		assert.equal((await turn).outcome, 'interrupted');
		const session = sessions.current;
		const recorded = results(session.records);
		assert.deepEqual(recorded.map((record) => [record.callId, record.isError]), [['c1', true], ['c2', true]]);
		assert.match(recorded[0]?.content ?? '', /^Sub-agent root\/explore#1 was stopped after 1 step: the user stopped the turn\. Its work is incomplete\.\n\nIts last answer before that:\npartial one$/);
		assert.match(recorded[1]?.content ?? '', /^Sub-agent root\/explore#2 was stopped after 1 step/);
		for (const path of ['root/explore#1', 'root/explore#2']) {
			const end = session.agentRecords(path).at(-1);
			assert.ok(end?.kind === 'turn-end' && end.outcome === 'interrupted', path);
			assert.equal(session.reminders.queueTurnEvent({ kind: 'agent', id: path }, { type: 'editedFiles', key: 'files.edited', body: 'late' }), false, 'events for a finished child are dropped');
		}
		assert.deepEqual(settled, [['root/explore#1', 'interrupted'], ['root/explore#2', 'interrupted']]);
		assert.equal(provider.requests.length, sent, 'no request after Stop');
		assert.deepEqual(agent.state.children, []);
	});

	it('Stop before a waiting child got its slot: it never starts, and its result says so', async () => {
		const { provider, agent, sessions } = subagentSetup({ settings: { agentsMaxConcurrent: 1 } });
		provider.script({ toolCalls: [agentCall('c1', 'explore', 'TASK-ONE'), agentCall('c2', 'explore', 'TASK-TWO')] }, { match: 'TASK-ONE', text: 'working', hang: true });
		const turn = agent.startTurn('Go.');
		await when(agent.onDidChange, () => agent.state.children?.[0]?.streaming !== null && agent.state.children?.length === 1);
		agent.stop();
		await turn;
		const recorded = results(sessions.current.records);
		assert.deepEqual(recorded.map((record) => record.callId), ['c1', 'c2']);
		assert.equal(recorded[1]?.content, 'Not run: the turn was stopped before this sub-agent started.');
		assert.equal(sessions.current.allRecords.filter((record) => record.kind === 'agent-start').length, 1);
	});
});

describe('approvals from children', HANG_GUARD, () => {
	it("a child's write asks the person like the parent's, the card names the agent, several wait in order, and each verdict goes to its own child's queue", async () => {
		const { provider, agent, settings } = subagentSetup();
		settings.current = { ...settings.current, permissionMode: 'ask' };
		provider.script(
			{ toolCalls: [agentCall('c1', 'general', 'TASK-A'), agentCall('c2', 'general', 'TASK-B')] },
			{ match: 'TASK-A', toolCalls: [{ id: 'wa', name: 'Change', input: { file: 'a.ts' } }] },
			{ match: 'TASK-B', toolCalls: [{ id: 'wb', name: 'Change', input: { file: 'b.ts' } }] },
			{ match: 'Changed a.ts.', text: 'A done' },
			{ match: 'The user denied this call', text: 'B gave up' },
			{ text: 'root done' },
		);
		const turn = agent.startTurn('Go.');
		await when(agent.onDidChange, () => agent.state.children?.length === 2 && agent.state.children.every((child) => child.activity.kind === 'asking'));
		const first = agent.state.approval;
		assert.ok(first);
		const owners: Record<string, string> = { wa: 'root/general#1', wb: 'root/general#2' };
		assert.equal(first.agent, owners[first.callId], 'the card says which agent asks');
		agent.approve(first.callId, first.callId === 'wa', first.callId === 'wa' ? undefined : 'not b');
		const approvalNow = () => agent.state.approval;
		const second = approvalNow();
		assert.ok(second);
		assert.notEqual(second.callId, first.callId, 'the second waiting call is shown once the first is answered');
		assert.equal(second.agent, owners[second.callId]);
		agent.approve(second.callId, second.callId === 'wa', second.callId === 'wa' ? undefined : 'not b');
		assert.equal((await turn).outcome, 'done');

		const requestOf = (match: string) => provider.requests.find((request) => textOf(request).includes(match) && request.system !== 'You are Aside.');
		const childA = requestOf('Changed a.ts.');
		const childB = requestOf('The user denied this call');
		assert.ok(reminderKeys(childA).includes('permission.verdict'));
		assert.match(textOf(childA), /granted[\s\S]*a\.ts/i);
		assert.ok(reminderKeys(childB).includes('permission.verdict'));
		assert.match(textOf(childB), /not b/);
		const rootLast = provider.requests.at(-1);
		assert.equal(rootLast?.system, 'You are Aside.');
		assert.ok(!reminderKeys(rootLast).includes('permission.verdict'), "a child's verdict never reaches the root's request");
	});

	it('Stop while two children wait for the person: both are denied and stopped', async () => {
		const { provider, agent, sessions, ran, settings } = subagentSetup();
		settings.current = { ...settings.current, permissionMode: 'ask' };
		provider.script(
			{ toolCalls: [agentCall('c1', 'general', 'TASK-A'), agentCall('c2', 'general', 'TASK-B')] },
			{ match: 'TASK-A', toolCalls: [{ id: 'wa', name: 'Change', input: { file: 'a.ts' } }] },
			{ match: 'TASK-B', toolCalls: [{ id: 'wb', name: 'Change', input: { file: 'b.ts' } }] },
		);
		const turn = agent.startTurn('Go.');
		await when(agent.onDidChange, () => agent.state.children?.length === 2 && agent.state.children.every((child) => child.activity.kind === 'asking'));
		agent.stop();
		assert.equal((await turn).outcome, 'interrupted');
		assert.equal(agent.state.approval, null);
		assert.deepEqual(ran, []);
		assert.deepEqual(results(sessions.current.records).map((record) => record.content?.split(':')[0]), ['Sub-agent root/general#1 was stopped after 1 step', 'Sub-agent root/general#2 was stopped after 1 step']);
	});
});

describe('queue isolation', HANG_GUARD, () => {
	it("the root's turn events never reach a child's request, and the child's never reach the root's", async () => {
		const { provider, agent, sessions } = subagentSetup();
		provider.script(
			{ toolCalls: [agentCall('c1', 'explore', 'TASK-ISOLATED')] },
			{ match: 'TASK-ISOLATED', toolCalls: [{ id: 'k1', name: 'Lookup', input: { name: 'x' } }], hold: true },
			{ match: 'x is in src/x.ts.', text: 'child answer' },
			{ text: 'root answer' },
		);
		const turn = agent.startTurn('Go.');
		await when(provider.onDidChange, () => provider.held.length === 1);
		// Typed while the child works: steering for the root turn; and an observation for the child.
		agent.submit('ROOT-STEERING-TEXT');
		assert.equal(sessions.current.reminders.queueTurnEvent({ kind: 'agent', id: 'root/explore#1' }, { type: 'editedFiles', key: 'files.edited', body: 'CHILD-EVENT-TEXT' }), true);
		provider.releaseAll();
		await turn;
		const childRequests = provider.requests.filter((request) => request.system !== 'You are Aside.');
		assert.equal(childRequests.length, 2);
		for (const request of childRequests) {
			assert.ok(!textOf(request).includes('ROOT-STEERING-TEXT'), 'the steering is the root\'s');
			assert.ok(!reminderKeys(request).includes('steering.user'));
		}
		const rootLast = provider.requests.at(-1);
		assert.ok(reminderKeys(rootLast).includes('steering.user'));
		assert.match(textOf(rootLast), /ROOT-STEERING-TEXT/);
		assert.ok(reminderKeys(childRequests[1]).includes('files.edited'), "the child's observation reaches the child");
		assert.match(textOf(childRequests[1]), /CHILD-EVENT-TEXT/);
		for (const request of provider.requests.filter((candidate) => candidate.system === 'You are Aside.')) {
			assert.ok(!textOf(request).includes('CHILD-EVENT-TEXT'), "the child's observation never reaches the root");
		}
	});
});
