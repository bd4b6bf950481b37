// A chat restore rolls the goal back with the turns: the goal is what the records before the
// restore point made it (set, changed, budgeted, completed or cleared there or not at all), live
// and after a reopen, while the spend keeps every answer since the goal's `set` record (the
// rolled-back ones were paid for); goal.current tells the model the goal as the kept history
// does not yet hold it, and nothing when it does. Chats built from records, and the real Agent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatRequest } from '../../providers/provider';
import { GOAL_BUDGET, GOAL_CURRENT } from './goalReminders';
import { DEFAULT_REMINDER_CONFIG } from '../../reminders/config';
import { parseReminders } from '../../reminders/envelope';
import type { Owner } from '../../reminders/definition';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { restoreChat } from '../../testing/restoreChat';
import { testEnvironment } from '../../testing/sessions';
import type { RestoreRecord } from '../../transcript/restoreRecord';
import { ChatGoal } from './chatGoal';
import type { Goal } from './goalFacts';
import { GOAL_STATE } from './feature';
import { ChatSession } from '../../agent/session';

/** A chat over `store` (a reopened one when the store has records) and its goal. */
function chat(store = new MemorySessionStore()) {
	const clock = new FakeClock(1_000);
	const ids = new SequentialIds(`id${store.records.length}-`);
	const session = new ChatSession('s1', store, { ...testEnvironment(clock, ids), reminderConfig: DEFAULT_REMINDER_CONFIG }, store.records);
	const goal = new ChatGoal(session, { clock, newId: () => ids.next(), plans: { current: () => undefined } });
	let step = 0;
	const user = (id: string, turnId: string): void => {
		session.append({ kind: 'user', id, turnId, at: clock.now(), text: `message ${id}` });
	};
	/** One answer that cost `tokens`, and its tool result (a root turn's goal.budget is checked there). */
	const spend = (turnId: string, tokens: number, agent?: string): void => {
		const id = `${ids.next()}-${++step}`;
		session.append({ kind: 'assistant', id: `a${id}`, turnId, requestId: `q${id}`, at: 0, text: '', toolCalls: [{ id: `c${id}`, name: 'TaskList', input: {} }], stop: 'tool-use', usage: { inputTokens: tokens, outputTokens: 0 }, ...(agent ? { agent } : {}) });
		session.append({ kind: 'tool-result', id: `t${id}`, turnId, callId: `c${id}`, name: 'TaskList', at: 0, content: 'ok', isError: false, ...(agent ? { agent } : {}) });
	};
	const restore = (to: string, scope: RestoreRecord['scope'] = 'chat'): void => {
		session.append({ kind: 'restore', id: ids.next(), at: clock.now(), to, scope, turns: [], files: [] });
	};
	/** A root request's WAIT, committed: the goal.budget bodies it carried. */
	const deliver = async (owner: Owner): Promise<string[]> => {
		const injection = session.reminders.wait({ requestId: ids.next(), owner, phase: 'mid-turn', messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] }, undefined);
		await injection.commit();
		return (injection.record?.entries ?? []).filter((entry) => entry.key === GOAL_BUDGET.key).map((entry) => entry.body);
	};
	return { session, goal, user, spend, restore, deliver };
}

const facts = (goal: Goal | undefined) => goal && { objective: goal.objective, budget: goal.budget, spent: goal.spent, exhausted: goal.exhausted };

/** The goal.current blocks a request delivered (in its last message). */
function goalCurrentIn(request: ChatRequest | undefined): string[] {
	const last = request?.messages.at(-1);
	const text = last?.role === 'user' ? last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n') : '';
	return parseReminders(text).filter((block) => block.key === GOAL_CURRENT.key).map((block) => block.body);
}

describe('a chat restore and the goal', () => {
	it('the goal is what the kept records made it (its changes, budget, clear and a new goal rolled back), with every answer since its set charged, live and after a reopen', () => {
		const store = new MemorySessionStore();
		const { goal, user, spend, restore } = chat(store);
		user('u1', 't1');
		spend('t1', 100);
		goal.update({ objective: 'Parse', budget: 1000 });
		user('u2', 't2');
		spend('t2', 400);
		goal.update({ objective: 'Parse and lex', budget: 5000 });
		spend('t2', 300);
		user('u3', 't3');
		spend('t3', 500);
		spend('t3', 100, 'root/explore#1');
		goal.end('cleared');
		goal.update({ objective: 'Something else' });
		user('u4', 't4');
		spend('t4', 50);
		assert.equal(goal.current()?.objective, 'Something else');
		const seen: (string | undefined)[] = [];
		goal.onDidChange((changed) => seen.push(changed?.objective));

		restore('u2');
		const expected = { objective: 'Parse', budget: 1000, spent: 400 + 300 + 500 + 100 + 50, exhausted: true };
		assert.deepEqual(facts(goal.current()), expected, 'the cleared goal is back as it was before u2, the rolled-back requests still charged');
		assert.deepEqual(seen, ['Parse'], 'the goal control is told');
		assert.deepEqual(facts(chat(store).goal.current()), expected, 'a reopened chat');

		restore('u1', 'files');
		assert.deepEqual(facts(goal.current()), expected, 'a files-only restore changes nothing');
		restore('u1');
		assert.equal(goal.current(), undefined, 'set after u1: rolled back');
		assert.deepEqual(seen, ['Parse', undefined]);
		assert.equal(chat(store).goal.current(), undefined, 'a reopened chat');
	});

	it('a goal completed in the rolled-back turns is active again; one set after the restore starts afresh', () => {
		const store = new MemorySessionStore();
		const { goal, user, spend, restore } = chat(store);
		goal.update({ objective: 'Ship' });
		user('u1', 't1');
		spend('t1', 10);
		goal.end('completed');
		restore('u1');
		assert.equal(goal.current()?.objective, 'Ship');
		user('u2', 't2');
		spend('t2', 5);
		goal.end('cleared');
		goal.update({ objective: 'Anew' });
		spend('t2', 7);
		assert.deepEqual(facts(goal.current()), { objective: 'Anew', budget: undefined, spent: 7, exhausted: false });
		assert.deepEqual(facts(chat(store).goal.current()), { objective: 'Anew', budget: undefined, spent: 7, exhausted: false });
	});

	it('a threshold told only in the rolled-back turns is told again: the history the model is sent no longer holds it', async () => {
		const store = new MemorySessionStore();
		const { session, goal, user, spend, restore, deliver } = chat(store);
		goal.update({ objective: 'Parse', budget: 1000 });
		user('u1', 't1');
		const first = session.reminders.beginUserTurn('t1');
		spend('t1', 600);
		assert.equal((await deliver(first)).length, 1, '50 % told');
		session.reminders.endUserTurn();
		restore('u1');
		user('u2', 't2');
		const second = session.reminders.beginUserTurn('t2');
		spend('t2', 10);
		assert.deepEqual((await deliver(second)).map((body) => /(\d+) % passed/.exec(body)?.[1]), ['50']);
		spend('t2', 10);
		assert.deepEqual(await deliver(second), [], 'once');
		session.reminders.endUserTurn();
		const reopened = chat(store);
		const third = reopened.session.reminders.beginUserTurn('t3');
		reopened.spend('t3', 10);
		assert.deepEqual(await reopened.deliver(third), [], 'nor after a reopen');
	});

	it('a budget change rolled back before a request told it is never told', async () => {
		const { session, goal, user, spend, restore, deliver } = chat();
		goal.update({ objective: 'Parse', budget: 1000 });
		user('u1', 't1');
		spend('t1', 100);
		goal.update({ budget: 2000 });
		restore('u1');
		assert.equal(goal.current()?.budget, 1000);
		user('u2', 't2');
		assert.deepEqual(await deliver(session.reminders.beginUserTurn('t2')), []);
	});
});

describe('a chat restore and goal.current', () => {
	it('a goal changed in the rolled-back turns goes back, and goal.current stays silent: the kept history already says it', async (t) => {
		const { provider, sessions, session, agent, turn, users, restorer } = restoreChat(t);
		const goal = () => agent.features.stateOf(GOAL_STATE, sessions.current);
		goal().update({ objective: 'Ship v1' });
		await turn('One', [{ text: 'ok', usage: [100, 20] }]);
		assert.equal(goalCurrentIn(provider.requests.at(-1)).length, 1);
		await turn('Two', [{ text: 'ok', usage: [100, 20] }]);
		goal().update({ objective: 'Ship v2', budget: 50_000 });
		await turn('Three', [{ text: 'ok', usage: [100, 20] }]);
		assert.match(goalCurrentIn(provider.requests.at(-1))[0] ?? '', /Objective: Ship v2/);

		const preview = await restorer.preview(users()[1]?.id ?? '', 'chat');
		assert.ok(preview.ok);
		assert.ok((await restorer.apply(preview.value, false)).ok);
		assert.deepEqual(facts(goal().current()), { objective: 'Ship v1', budget: undefined, spent: 360, exhausted: false });
		await turn('Four', [{ text: 'ok', usage: [100, 20] }]);
		assert.deepEqual(goalCurrentIn(provider.requests.at(-1)), [], 'the kept history holds the delivery of Ship v1');

		const id = session.id;
		sessions.newSession();
		sessions.open(id);
		assert.deepEqual(facts(goal().current()), { objective: 'Ship v1', budget: undefined, spent: 480, exhausted: false }, 'a reopened chat');
		await turn('Five', [{ text: 'ok' }]);
		assert.deepEqual(goalCurrentIn(provider.requests.at(-1)), []);
	});

	it('a goal set in the rolled-back turns is gone, and the model is told nothing of it; one set before them but only told there is told again', async (t) => {
		const { provider, sessions, session, agent, turn, users, restorer } = restoreChat(t);
		const goal = () => agent.features.stateOf(GOAL_STATE, sessions.current);
		await turn('One', [{ text: 'ok' }]);
		await turn('Two', [{ text: 'ok' }]);
		goal().update({ objective: 'Ship it' });
		await turn('Three', [{ text: 'ok' }]);
		goal().update({ objective: 'Ship it all' });
		await turn('Four', [{ text: 'ok' }]);
		assert.match(goalCurrentIn(provider.requests.at(-1))[0] ?? '', /Objective: Ship it all/);

		// Back to before Four: the change made before it was sent stays, its delivery (in Four's request) does not.
		const toFour = await restorer.preview(users()[3]?.id ?? '', 'chat');
		assert.ok(toFour.ok);
		assert.ok((await restorer.apply(toFour.value, false)).ok);
		assert.equal(goal().current()?.objective, 'Ship it all');
		await turn('Four again', [{ text: 'ok' }]);
		assert.match(goalCurrentIn(provider.requests.at(-1))[0] ?? '', /Objective: Ship it all/, 'the goal as it now is, which the kept history does not hold');

		const toTwo = await restorer.preview(users()[1]?.id ?? '', 'chat');
		assert.ok(toTwo.ok);
		assert.ok((await restorer.apply(toTwo.value, false)).ok);
		assert.equal(goal().current(), undefined, 'set after Two: rolled back');
		await turn('Two again', [{ text: 'ok' }]);
		assert.deepEqual(goalCurrentIn(provider.requests.at(-1)), [], 'no goal, and the kept history never had one: nothing to say');

		const id = session.id;
		sessions.newSession();
		sessions.open(id);
		assert.equal(goal().current(), undefined, 'a reopened chat');
		await turn('After reopen', [{ text: 'ok' }]);
		assert.deepEqual(goalCurrentIn(provider.requests.at(-1)), []);
	});
});
