// The goal control's host side: the goal after `ready` and on every change, `/goal` in the
// composer, the control's messages, and refusals said in the chat.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../../base/event';
import { ChatGoal } from './chatGoal';
import type { ChatSession } from '../../agent/session';
import { type HostMessage, PROTOCOL_VERSION } from '../../protocol/messages';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { testConnection } from '../../testing/viewConnection';
import { GoalPresenter } from './goalView';
import '../../testing/chatFeatures';

function setup(plan?: string) {
	const goals = new WeakMap<ChatSession, ChatGoal>();
	const ids = new SequentialIds('g');
	const clock = new FakeClock(1_000);
	const agentChanged = new Emitter<unknown>();
	const approvedPlans = { current: () => (plan === undefined ? undefined : { file: plan, text: '# Plan', approvedAt: 0 }) };
	const goalOf = (session: ChatSession): ChatGoal => {
		let goal = goals.get(session);
		if (!goal) {
			goal = new ChatGoal(session, { clock, newId: () => ids.next(), plans: approvedPlans });
			goals.set(session, goal);
		}
		return goal;
	};
	const view = testConnection({ features: (sessions) => [new GoalPresenter({ sessions, goalOf, approvedPlans, onDidChange: agentChanged.event })] });
	view.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
	return { ...view, goalOf };
}

const goalsIn = (posted: readonly HostMessage[]) => posted.flatMap((message) => (message.type === 'goal.changed' ? [message.goal] : []));
const noticesIn = (posted: readonly HostMessage[]) => posted.flatMap((message) => (message.type === 'notice' ? [message.text] : []));

describe('the goal control (host side)', () => {
	it('sends the goal after ready, and again on every change', () => {
		const { posted, connection, sessions, goalOf } = setup('/s/plan-1.md');
		assert.deepEqual(goalsIn(posted), [{ active: null, approvedPlan: '/s/plan-1.md' }]);
		connection.receive({ type: 'goal.set', objective: 'Ship <b>it</b>', budget: 10_000, implementsPlan: true });
		assert.deepEqual(goalsIn(posted).at(-1), { active: { objective: 'Ship <b>it</b>', budget: 10_000, spent: 0, plan: '/s/plan-1.md', exhausted: false }, approvedPlan: '/s/plan-1.md' });
		sessions.current.append({ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'r1', at: 0, text: 'x', toolCalls: [], stop: 'end', usage: { inputTokens: 9_000, outputTokens: 1_000 } });
		assert.deepEqual(goalsIn(posted).at(-1)?.active, { objective: 'Ship <b>it</b>', budget: 10_000, spent: 10_000, plan: '/s/plan-1.md', exhausted: true });
		assert.equal(goalOf(sessions.current).stopAfterStep('t1'), true);
		assert.equal(goalOf(sessions.current).stopAfterStep('t1'), true);
		assert.deepEqual(noticesIn(posted), ['The goal\'s token budget is spent (10,000 of 10,000 tokens), so the agent stopped after this step. Raise the budget in the goal line (or with /goal budget …) to let it go on.'], 'the chat says why, once per turn');
		connection.receive({ type: 'goal.set', budget: 20_000 });
		assert.equal(goalOf(sessions.current).stopAfterStep('t2'), false);
		assert.equal(goalsIn(posted).at(-1)?.active?.exhausted, false, 'raising the budget lets the agent go on');
		connection.receive({ type: 'goal.end', how: 'completed' });
		assert.equal(goalsIn(posted).at(-1)?.active, null);
		assert.equal(goalOf(sessions.current).current(), undefined);
	});

	it('/goal in the composer: never sent to the model; sets, budgets, completes, clears, opens the control', () => {
		const { posted, connection, agent, sessions, goalOf, settings } = setup();
		(settings.current as { maxMessageLength: number }).maxMessageLength = 1000;
		connection.receive({ type: 'submit', text: '/goal Make the build green' });
		connection.receive({ type: 'submit', text: '/goal budget 50k' });
		assert.deepEqual(goalOf(sessions.current).current()?.objective, 'Make the build green');
		assert.equal(goalOf(sessions.current).current()?.budget, 50_000);
		connection.receive({ type: 'submit', text: '/goal budget plenty' });
		assert.match(noticesIn(posted).at(-1) ?? '', /takes a number of tokens/);
		connection.receive({ type: 'submit', text: '/goal' });
		assert.equal(posted.at(-1)?.type, 'goal.open');
		connection.receive({ type: 'submit', text: '/goal clear' });
		assert.equal(goalOf(sessions.current).current(), undefined);
		connection.receive({ type: 'submit', text: '/goal done' });
		assert.match(noticesIn(posted).at(-1) ?? '', /no goal to complete/);
		assert.deepEqual(agent.calls.filter((call) => call.startsWith('submit')), [], 'no /goal reached the agent');
	});

	it('says why a change was refused, and changes nothing', () => {
		const { posted, connection, sessions, goalOf } = setup();
		connection.receive({ type: 'goal.set', objective: 'Do it', implementsPlan: true });
		assert.match(noticesIn(posted).at(-1) ?? '', /no approved plan/);
		connection.receive({ type: 'goal.set', objective: '  ' });
		assert.match(noticesIn(posted).at(-1) ?? '', /objective is empty/);
		assert.equal(goalOf(sessions.current).current(), undefined);
		connection.receive({ type: 'goal.set', objective: 'x', budget: 0 });
		assert.equal(goalOf(sessions.current).current(), undefined, 'a budget of 0 is refused at the door');
	});
});
