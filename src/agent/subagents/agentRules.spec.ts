// aside.permissions.rules may name Agent: a deny rule turns sub-agents off, an ask rule puts each
// one on the approval card first. Without a rule naming it, starting one asks nobody (its own
// calls are decided one by one).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reminderKeys, subagentSetup, textOf, when } from '../../testing/subagents';
import { OPEN_CONTEXT } from '../permissions/policy';
import { parsePermissionRules } from '../permissions/rules';

const agentCall = { id: 'a1', name: 'Agent', input: { agent: 'explore', prompt: 'Find greet.', description: 'Find greet' } };
const withRules = (value: unknown) => {
	const parsed = parsePermissionRules(value);
	assert.deepEqual(parsed.problems, [], 'the rule is accepted: Agent is a tool rules may name');
	return () => ({ ...OPEN_CONTEXT, rules: parsed.rules });
};

describe('permission rules naming Agent', () => {
	it('a deny rule refuses the call: no child starts, and the result says which rule', async () => {
		const { provider, agent, sessions } = subagentSetup({ permissions: withRules({ deny: ['Agent'] }) });
		provider.script({ toolCalls: [agentCall] }, { text: 'I will look myself.' });
		assert.equal((await agent.startTurn('Where is greet?')).outcome, 'done');
		assert.equal(provider.requests.length, 2, 'no child request');
		assert.match(textOf(provider.requests[1]), /Not run: the rule Agent in aside\.permissions\.rules "deny" refuses it\. Agent did not run/);
		assert.equal(sessions.current.allRecords.some((record) => record.kind === 'agent-start'), false);
	});

	it('an ask rule shows the card first; denied, nothing starts and the verdict reaches the next request', async () => {
		const { provider, agent } = subagentSetup({ permissions: withRules({ ask: ['Agent'] }) });
		provider.script({ toolCalls: [agentCall] }, { text: 'Understood.' });
		const turn = agent.startTurn('Where is greet?');
		await when(agent.onDidChange, () => agent.state.approval !== null);
		const asked = agent.state.approval;
		assert.deepEqual([asked?.tool, asked?.callId], ['Agent', 'a1']);
		assert.match(asked?.confirmation.title ?? '', /^Start a sub-agent\? \(the rule Agent in aside\.permissions\.rules "ask" asks for it\)$/);
		assert.equal(asked?.confirmation.target, 'explore: Find greet\n\nFind greet.');
		agent.approve('a1', false, 'not now');
		assert.equal((await turn).outcome, 'done');
		assert.equal(provider.requests.length, 2);
		assert.match(textOf(provider.requests[1]), /The user denied this call; it did not run\. The user said: not now/);
		assert.ok(reminderKeys(provider.requests[1]).includes('permission.verdict'));
	});

	it('an ask rule granted: the child runs as without the rule', async () => {
		const { provider, agent } = subagentSetup({ permissions: withRules({ ask: ['Agent'] }) });
		provider.script({ toolCalls: [agentCall] }, { match: 'Find greet.', text: 'In src/greet.ts.' }, { text: 'Found.' });
		const turn = agent.startTurn('Where is greet?');
		await when(agent.onDidChange, () => agent.state.approval !== null);
		agent.approve('a1', true, undefined);
		assert.equal((await turn).outcome, 'done');
		assert.equal(provider.requests.length, 3, 'the child asked once');
		assert.match(textOf(provider.requests[2]), /In src\/greet\.ts\.\n\n\(Sub-agent root\/explore#1 finished in 1 step\.\)/);
	});
});
