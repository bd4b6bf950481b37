// The chat's goal through the real Agent and a memory session: goal.budget's thresholds once each
// across turn events and settlement, a budget change, the stop at 100 %, goal.current on change
// and its one "no goal" delivery, sub-agents told at their next WAIT, and a reopened chat that
// tells nothing twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../../base/event';
import type { ChatRequest } from '../../providers/provider';
import { parseReminders } from '../../reminders/envelope';
import { GOAL_BUDGET, GOAL_CURRENT } from './goalReminders';
import { DEFAULT_REMINDER_CONFIG } from '../../reminders/config';
import type { InjectionRecord } from '../../reminders/record';
import { scriptedModels, testPorts } from '../../testing/agentPorts';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { ScriptedProvider } from '../../testing/scriptedProvider';
import { testEnvironment, testSessions } from '../../testing/sessions';
import { TASK_TOOLS } from '../../tools/registry';
import { type AgentRecord, parseTranscriptRecord } from '../../transcript/records';
import { Agent } from '../../agent/agent';
import { ChatGoal } from './chatGoal';
import { GoalError } from './goalFacts';
import { GOAL_STATE } from './feature';
import { TASKS_STATE } from '../tasks/feature';
import { ChatSession } from '../../agent/session';

function setup(provider: ScriptedProvider) {
	const sessions = testSessions(new FakeClock(), new SequentialIds('s'));
	const models = scriptedModels(provider);
	const agent = new Agent(
		{ sessions, models, settings: { current: { maxOutputTokens: 1000, maxSteps: 20, permissionMode: 'plan' }, onDidChange: new Emitter<unknown>().event }, system: () => 'system', features: [GOAL_STATE, TASKS_STATE] },
		testPorts(models, { tools: () => TASK_TOOLS }),
	);
	return { agent, sessions, goal: () => agent.features.stateOf(GOAL_STATE, sessions.current) };
}

/** The blocks of `key` in the request's last message (what this request delivered). */
function delivered(request: ChatRequest | undefined, key: string): string[] {
	const last = request?.messages.at(-1);
	if (last?.role !== 'user') {
		return [];
	}
	return last.content.flatMap((part) => (part.type === 'text' ? parseReminders(part.text).filter((block) => block.key === key).map((block) => block.body) : []));
}

/** Every goal.budget entry the chat's records say were delivered to the root. */
function budgetDeliveries(records: readonly AgentRecord[]): string[] {
	return records
		.filter((record): record is InjectionRecord => record.kind === 'injected-reminders' && record.owner.kind === 'root')
		.flatMap((record) => record.entries.filter((entry) => entry.type === GOAL_BUDGET.type).map((entry) => entry.body));
}

const list = (id: string) => ({ toolCalls: [{ id, name: 'TaskList', input: {} }], usage: [250, 50] as const });

describe('the chat\'s goal', () => {
	it('reports 50 % and 80 % once each as turn events, 100 % passed by the last answer on the FIFO, and stops after the step at 100 %', async () => {
		// Budget 1,000; every answer costs 300 tokens: 300, 600 (50 %), 900 (80 %), 1,200 (100 %).
		const provider = new ScriptedProvider(list('c1'), list('c2'), list('c3'), { text: 'Done for now.', usage: [250, 50] });
		const { agent, sessions, goal } = setup(provider);
		goal().update({ objective: 'Tidy the task list', budget: 1000 });
		assert.equal((await agent.startTurn('Go.')).outcome, 'done');
		assert.equal(provider.requests.length, 4);
		assert.deepEqual(provider.requests.map((request) => delivered(request, GOAL_BUDGET.key).length), [0, 0, 1, 1]);
		assert.match(delivered(provider.requests[2], GOAL_BUDGET.key)[0] ?? '', /^The goal's token budget: 50 % passed — 600 of 1,000 tokens spent/);
		assert.match(delivered(provider.requests[3], GOAL_BUDGET.key)[0] ?? '', /^The goal's token budget: 80 % passed — 900 of 1,000 tokens spent/);
		assert.equal(goal().current()?.spent, 1200);

		// The last answer passed 100 % with no tool result after it: the settlement queues it for the next request, alone.
		provider.script(list('c4'), { text: 'not sent' });
		assert.equal((await agent.startTurn('Go on.')).outcome, 'done');
		assert.equal(provider.requests.length, 5, 'at 100 % the turn stops after its step: no second request');
		const [hundred] = delivered(provider.requests[4], GOAL_BUDGET.key);
		assert.match(hundred ?? '', /^The goal's token budget: 100 % passed — 1,200 of 1,000 tokens spent/);
		assert.match(hundred ?? '', /The budget is spent/);
		const results = sessions.current.records.filter((record) => record.kind === 'tool-result');
		assert.equal(results.length, 4, 'the step\'s tool call ran before the stop');
		const stops = sessions.current.records.filter((record) => record.kind === 'goal' && record.change === 'exhausted');
		assert.equal(stops.length, 1);
		assert.equal(goal().current()?.exhausted, true);
		assert.deepEqual(budgetDeliveries(sessions.current.records).map((body) => /(\d+) % passed/.exec(body)?.[1]), ['50', '80', '100'], 'each threshold once, across turn events and settlement');
		for (const record of sessions.current.allRecords) {
			// What the transcript on disk accepts: the goal records and the entries' subjects.
			assert.doesNotThrow(() => parseTranscriptRecord(JSON.parse(JSON.stringify(record))), JSON.stringify(record));
		}
	});

	it('a budget change is one event with the old and new limits; thresholds are judged against the new limit from then on', async () => {
		const provider = new ScriptedProvider(list('c1'), list('c2'), { text: 'ok', usage: [250, 50] });
		const { agent, sessions, goal } = setup(provider);
		goal().update({ objective: 'Tidy', budget: 1000 });
		await agent.startTurn('Go.');
		// 900 spent: 50 % told in the turn, 80 % passed by the last answer and waiting on the FIFO.
		assert.equal(goal().current()?.spent, 900);
		goal().update({ budget: 5000 });
		goal().update({ budget: 1500 });
		provider.script(list('c3'), list('c4'), { text: 'ok', usage: [250, 50] });
		await agent.startTurn('Go on.');
		const first = provider.requests[3];
		const changes = delivered(first, GOAL_BUDGET.key);
		assert.equal(changes.length, 1, 'two changes before a request: one event; the stale 80 % report was dropped');
		assert.match(changes[0] ?? '', /^The person changed the goal's token budget from 1,000 tokens to 1,500 tokens\. 900 tokens spent so far \(60 % of the new budget\)/);
		// 60 % of 1,500 already passes 50 %: the change said it. 1,200 is 80 %: reported at the tool result.
		assert.deepEqual(delivered(provider.requests[4], GOAL_BUDGET.key).map((body) => /^The goal's token budget: ([\d %, ]+) passed/.exec(body)?.[1]), ['80 %']);
		const budgets = sessions.current.records.filter((record) => record.kind === 'goal' && record.change === 'budget');
		assert.deepEqual(budgets.map((record) => record.kind === 'goal' && [record.previousBudget, record.budget, record.passed]), [[1000, 5000, undefined], [5000, 1500, [50]]]);
	});

	it('goal.current: the facts at the next request after a change, the spend never making it fire, one "no goal" delivery after completion', async () => {
		const provider = new ScriptedProvider(list('c1'), { text: 'ok', usage: [100, 20] });
		const { agent, goal } = setup(provider);
		goal().update({ objective: 'Ship <system-reminder> v2', budget: 200_000 });
		await agent.startTurn('Go.');
		const [facts] = delivered(provider.requests[0], GOAL_CURRENT.key);
		assert.match(facts ?? '', /^The person set this goal for the chat\. It carries their authority/);
		assert.match(facts ?? '', /Objective: Ship ‹system-reminder> v2/);
		assert.match(facts ?? '', /Token budget: 200,000 tokens/);
		assert.match(facts ?? '', /Spent so far: 0 tokens \(0 % of the budget\)\.$/);
		assert.deepEqual(delivered(provider.requests[1], GOAL_CURRENT.key), [], 'more spend alone does not deliver it again');

		provider.script({ text: 'ok', usage: [100, 20] });
		await agent.startTurn('Again.');
		assert.deepEqual(delivered(provider.requests[2], GOAL_CURRENT.key), []);

		goal().update({ objective: 'Ship v3' });
		provider.script({ text: 'ok', usage: [100, 20] });
		await agent.startTurn('Changed.');
		const [changed] = delivered(provider.requests[3], GOAL_CURRENT.key);
		assert.match(changed ?? '', /Objective: Ship v3/);
		assert.match(changed ?? '', /Spent so far: 540 tokens \(0 % of the budget\)/);

		goal().end('completed');
		provider.script({ text: 'ok' }, { text: 'ok' });
		await agent.startTurn('Next.');
		assert.deepEqual(delivered(provider.requests[4], GOAL_CURRENT.key).map((body) => body.split('\n\n')[0]), ['No goal is active now: the person marked the goal complete (Ship v3). Do not keep working toward it unless they ask.']);
		await agent.startTurn('And next.');
		assert.deepEqual(delivered(provider.requests[5], GOAL_CURRENT.key), [], 'then nothing more');
	});

	it('refuses bad input with a message and changes nothing', () => {
		const { goal, sessions } = setup(new ScriptedProvider());
		assert.throws(() => goal().update({ objective: '   ' }), GoalError);
		assert.throws(() => goal().update({ objective: 'x', budget: 0 }), /whole number of tokens/);
		assert.throws(() => goal().update({ objective: 'x', budget: 1.5 }), /whole number of tokens/);
		assert.throws(() => goal().update({ objective: 'x'.repeat(2001) }), /at most 2,000/);
		assert.throws(() => goal().update({ objective: 'x', implementsPlan: true }), /no approved plan/);
		assert.throws(() => { goal().end('completed'); }, /no goal to complete/);
		assert.equal(goal().current(), undefined);
		assert.equal(sessions.current.records.length, 0);
	});
});

describe('the goal of a reopened chat, and its sub-agents', () => {
	function chat(store: MemorySessionStore, plan?: string) {
		const clock = new FakeClock(1_000);
		const ids = new SequentialIds(`id${store.records.length}-`);
		const session = new ChatSession('s1', store, { ...testEnvironment(clock, ids), reminderConfig: DEFAULT_REMINDER_CONFIG }, store.records);
		const goal = new ChatGoal(session, { clock, newId: () => ids.next(), plans: { current: () => (plan === undefined ? undefined : { file: plan, text: '# Plan', approvedAt: 0 }) } });
		return { session, goal, ids };
	}
	let step = 0;
	function spend(session: ChatSession, turnId: string, tokens: number, agent?: string): void {
		const id = `r${++step}`;
		session.append({ kind: 'assistant', id: `a${id}`, turnId, requestId: id, at: 0, text: '', toolCalls: [{ id: `c${id}`, name: 'TaskList', input: {} }], stop: 'tool-use', usage: { inputTokens: tokens, outputTokens: 0 }, ...(agent ? { agent } : {}) });
		session.append({ kind: 'tool-result', id: `t${id}`, turnId, callId: `c${id}`, name: 'TaskList', at: 0, content: 'ok', isError: false, ...(agent ? { agent } : {}) });
	}
	async function deliver(session: ChatSession, owner: { kind: 'root' | 'agent'; id: string }, key = GOAL_BUDGET.key): Promise<string[]> {
		const injection = session.reminders.wait({ requestId: `w${++step}`, owner, phase: 'mid-turn', messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] }, undefined);
		await injection.commit();
		return (injection.record?.entries ?? []).filter((entry) => entry.key === key).map((entry) => entry.body);
	}

	it('a reopened chat keeps what was reported: nothing is told twice', async () => {
		const store = new MemorySessionStore();
		const first = chat(store);
		first.goal.update({ objective: 'Keep going', budget: 1000 });
		const owner = first.session.reminders.beginUserTurn('t1');
		assert.equal((await deliver(first.session, owner, GOAL_CURRENT.key)).length, 1, 'goal.current told');
		spend(first.session, 't1', 600);
		assert.equal((await deliver(first.session, owner)).length, 1, '50 % told');
		first.session.reminders.endUserTurn();

		const second = chat(store);
		assert.equal(second.goal.current()?.spent, 600);
		const again = second.session.reminders.beginUserTurn('t2');
		assert.deepEqual(await deliver(second.session, again, GOAL_CURRENT.key), [], 'goal.current is not told again after the reopen');
		spend(second.session, 't2', 100);
		assert.deepEqual(await deliver(second.session, again), [], '50 % is not told again after the reopen');
		spend(second.session, 't2', 150);
		assert.deepEqual((await deliver(second.session, again)).map((body) => /(\d+) % passed/.exec(body)?.[1]), ['80']);
	});

	it('charges a step its new input and output: cache reads are counted beside the spend, never charged', () => {
		const { session, goal } = chat(new MemorySessionStore());
		goal.update({ objective: 'Work through a long chat', budget: 200_000 });
		// Four steps of a 50k-token chat whose prompt the provider mostly read from its cache.
		for (let n = 1; n <= 4; n++) {
			session.append({ kind: 'assistant', id: `cached${n}`, turnId: 't1', requestId: `q${n}`, at: 0, text: '', toolCalls: [], stop: 'end', usage: { inputTokens: 50_000, outputTokens: 500, cacheReadTokens: 45_000, cacheWriteTokens: 1_000 } });
		}
		// A provider that reports no cache: its whole prompt is new input.
		session.append({ kind: 'assistant', id: 'plain', turnId: 't1', requestId: 'q5', at: 0, text: '', toolCalls: [], stop: 'end', usage: { inputTokens: 3_000, outputTokens: 200 } });
		const current = goal.current();
		assert.ok(current);
		assert.equal(current.spent, 4 * (5_000 + 500) + 3_200);
		assert.equal(current.cacheRead, 4 * 45_000);
		assert.equal(current.exhausted, false);
	});

	it('a goal that implements the approved plan names its file, and says when it no longer does', async () => {
		const { session, goal } = chat(new MemorySessionStore(), '/store/s1.plans/plan-1.md');
		goal.update({ objective: 'Carry out the plan', implementsPlan: true });
		assert.equal(goal.carriedPlan(), '/store/s1.plans/plan-1.md');
		const root = session.reminders.beginUserTurn('t1');
		assert.match((await deliver(session, root, GOAL_CURRENT.key))[0] ?? '', /^Objective: Carry out the plan\nToken budget: none\.\nIt implements the approved plan in \/store\/s1\.plans\/plan-1\.md\.$/m);
		goal.update({ implementsPlan: false });
		assert.equal(goal.carriedPlan(), undefined);
		const [changed] = await deliver(session, root, GOAL_CURRENT.key);
		assert.doesNotMatch(changed ?? '', /approved plan/);
		assert.deepEqual(session.records.filter((record) => record.kind === 'goal').map((record) => [record.change, record.plan]), [['set', '/store/s1.plans/plan-1.md'], ['changed', undefined]]);
	});

	it('a sub-agent is told the highest threshold passed at its next WAIT, once per threshold', async () => {
		const { session, goal } = chat(new MemorySessionStore());
		goal.update({ objective: 'Delegate', budget: 1000 });
		const root = session.reminders.beginUserTurn('t1');
		spend(session, 't1', 850);
		const child = session.reminders.spawnAgent('root/explore#1');
		const told = await deliver(session, child.owner);
		assert.deepEqual(told, ['The chat\'s goal budget of 1,000 tokens, which your work is charged to: 80 % passed. Keep your work to what the task needs.']);
		spend(session, 't1', 50, 'root/explore#1');
		assert.deepEqual(await deliver(session, child.owner), [], 'more spend, same threshold: nothing');
		spend(session, 't1', 200, 'root/explore#1');
		assert.match((await deliver(session, child.owner))[0] ?? '', /is spent\. Finish your task now/);
		// The root hears of them itself, with the sub-agent's spend charged: 50, 80 and 100 % in one report.
		assert.deepEqual((await deliver(session, root)).map((body) => /^The goal's token budget: ([\d %, ]+) passed/.exec(body)?.[1]), ['50 %, 80 %, 100 %']);
	});
});
