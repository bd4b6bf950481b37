// A child's own reminders through the real Agent and engine: agent.max-turns at its share of the
// budget inside a tool loop and not again, the final-step nudge still at the last step, a profile's
// reminders (found, or named wrongly and skipped with a diagnostic), and the producer itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentMaxTurns, warningStep } from '../../reminders/builtin/agentMaxTurns';
import { everyTurn } from '../../reminders/policy';
import { setup } from '../../testing/engineSetup';
import { profile, reminderKeys, subagentSetup, textOf } from '../../testing/subagents';

const agentCall = (id: string, agent: string, prompt: string) => ({ id, name: 'Agent', input: { agent, prompt, description: prompt } });
const lookup = (id: string) => ({ id, name: 'Lookup', input: { name: id } });

describe('agent.max-turns', () => {
	it('fires once at 80 % of a child\'s budget inside its tool loop, says how many steps are left, and the final-step nudge still comes at the last step', async () => {
		const worker = profile('worker', { kind: 'read-only' }, { maxSteps: 5 });
		const { provider, agent } = subagentSetup({ profiles: [worker] });
		provider.script(
			{ toolCalls: [agentCall('c1', 'worker', 'TASK-LOOP')] },
			...[1, 2, 3, 4].map((step) => ({ match: 'TASK-LOOP', toolCalls: [lookup(`k${step}`)] })),
			{ match: 'TASK-LOOP', text: 'finished' },
			{ text: 'root done' },
		);
		await agent.startTurn('Go.');
		const child = provider.requests.filter((request) => request.system.startsWith('You are the worker agent.'));
		assert.equal(child.length, 5);
		const delivered = child.map((request) => reminderKeys(request).filter((key) => key === 'agent.max-turns' || key === 'agent.nudge'));
		// Each request carries the whole history: a block delivered at step 4 is in steps 4 and 5.
		assert.deepEqual(delivered, [[], [], [], ['agent.max-turns'], ['agent.max-turns', 'agent.nudge']], 'step 4 of 5 (80 %), then the final-step nudge at step 5');
		assert.match(textOf(child[3]), /<system-reminder key="agent\.max-turns">\nThis is step 4 of your budget of 5: 1 step is left after this one\. Wrap up:/);
		assert.equal(textOf(child[4]).split('<system-reminder key="agent.max-turns">').length, 2, 'not again at the last step');
		for (const request of provider.requests.filter((candidate) => candidate.system === 'You are Aside.')) {
			assert.ok(!reminderKeys(request).includes('agent.max-turns'), 'never the root');
		}
	});

	it('fires at the configured share, once per invocation: each child has its own', async () => {
		const worker = profile('worker', { kind: 'read-only' }, { maxSteps: 10 });
		const { provider, agent, sessions } = subagentSetup({ profiles: [worker], settings: { agentsMaxTurnsWarningAt: 0.5 } });
		provider.script(
			{ toolCalls: [agentCall('c1', 'worker', 'TASK-A'), agentCall('c2', 'worker', 'TASK-B')] },
			...[1, 2, 3, 4, 5, 6].map((step) => ({ match: 'TASK-A', toolCalls: [lookup(`a${step}`)] })),
			{ match: 'TASK-A', text: 'a done' },
			...[1, 2, 3, 4, 5].map((step) => ({ match: 'TASK-B', toolCalls: [lookup(`b${step}`)] })),
			{ match: 'TASK-B', text: 'b done' },
			{ text: 'root done' },
		);
		await agent.startTurn('Go.');
		const session = sessions.current;
		for (const path of ['root/worker#1', 'root/worker#2']) {
			const warned = session.agentRecords(path).flatMap((record) => (record.kind === 'injected-reminders' ? record.entries.filter((entry) => entry.key === 'agent.max-turns').map((entry) => [record.turn, entry.body]) : []));
			assert.deepEqual(warned, [[5, 'This is step 5 of your budget of 10: 5 steps are left after this one. Wrap up: finish only what the task needs, stop exploring, and give your final answer (what you found or did, what is left) within the steps left.']], path);
		}
	});

	it('a failed request leaves it to fire at the next sample; never at or past the last step', () => {
		const { engine, request } = setup({});
		const child = engine.spawnAgent('root/explore#1', [agentMaxTurns(() => 0.8)]);
		const wait = () => engine.wait(request(child.owner, 'mid-turn'), undefined, { step: child.roster.turn, stepLimit: 10 });
		const keys = () => wait().record?.entries.map((entry) => entry.key) ?? [];
		for (let sample = 1; sample < 8; sample++) {
			child.beginSample();
			assert.deepEqual(keys(), [], `step ${sample}`);
		}
		child.beginSample();
		assert.deepEqual(keys(), ['agent.max-turns'], 'step 8 of 10; its request failed before dispatch (never committed)');
		child.beginSample();
		const ninth = wait();
		assert.deepEqual(ninth.record?.entries.map((entry) => entry.key), ['agent.max-turns'], 'offered again at step 9');
		assert.match(ninth.record.entries[0]?.body ?? '', /step 9 of your budget of 10: 1 step is left/);
		const late = engine.spawnAgent('root/explore#2', [agentMaxTurns(() => 0.8)]);
		for (let sample = 1; sample <= 10; sample++) {
			late.beginSample();
		}
		assert.equal(engine.wait(request(late.owner, 'mid-turn'), undefined, { step: 10, stepLimit: 10 }).record, null, 'the last step is the final-step nudge\'s');
	});

	it('warningStep: at least the first step, never past the budget', () => {
		assert.deepEqual([warningStep(5, 0.8), warningStep(10, 0.8), warningStep(1, 0.8), warningStep(3, 0.1), warningStep(7, 1)], [4, 8, 1, 1, 7]);
	});
});

describe("a profile's reminders", () => {
	it('joins a registered agent-scope definition named by type or key to the child\'s roster; an unknown or root-only one is logged and skipped', async () => {
		const hint = { type: 'childHint', key: 'session.date', label: 'hint', scope: 'agent' as const, policy: everyTurn, trigger: () => true, content: () => 'CHILD-HINT-BODY' };
		const rootOnly = { ...hint, type: 'rootHint', scope: 'session' as const, content: () => 'ROOT-HINT-BODY' };
		const hinted = profile('hinted', { kind: 'read-only' }, { reminders: ['childHint', 'no.such-key', 'rootHint'] });
		const plain = profile('plain', { kind: 'read-only' });
		const { provider, agent, log } = subagentSetup({ profiles: [hinted, plain], reminders: [hint, rootOnly] });
		provider.script(
			{ toolCalls: [agentCall('c1', 'hinted', 'TASK-H'), agentCall('c2', 'plain', 'TASK-P')] },
			{ match: 'TASK-H', text: 'h' },
			{ match: 'TASK-P', text: 'p' },
			{ text: 'root' },
		);
		await agent.startTurn('Go.');
		const requestOf = (name: string) => provider.requests.find((request) => request.system.startsWith(`You are the ${name} agent.`));
		assert.match(textOf(requestOf('hinted')), /CHILD-HINT-BODY/);
		assert.doesNotMatch(textOf(requestOf('hinted')), /ROOT-HINT-BODY/);
		assert.doesNotMatch(textOf(requestOf('plain')), /CHILD-HINT-BODY/, 'only the profile that names it');
		assert.doesNotMatch(textOf(provider.requests[0]), /CHILD-HINT-BODY/, 'an agent-scope default never reaches the root');
		assert.deepEqual(log.at('warn').filter((line) => line.includes('agent profile')), [
			'Aside: the agent profile "hinted" names the reminder "no.such-key", which is not registered; its sub-agents run without it.',
			'Aside: the agent profile "hinted" names the reminder "rootHint", which is for the main conversation only; its sub-agents run without it.',
		]);
	});
});
