// Where the agent keeps checkpoints: each root turn's write calls go to a recorder for the chat
// and that turn, and a sub-agent's writes count to its root turn (so a restore of the message
// puts them back too). Through a real Agent, its turn loops and the Agent tool.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCheckpointStore } from '../testing/memoryCheckpoints';
import { subagentSetup } from '../testing/subagents';

const agentCall = (id: string, agent: string, prompt: string) => ({ id, name: 'Agent', input: { agent, prompt, description: `${agent} task` } });

describe('checkpoints in the agent', () => {
	it("keeps a root turn's writes, and a sub-agent's, under the chat and the root turn's id", async () => {
		const checkpoints = new MemoryCheckpointStore();
		const { provider, agent, sessions, ran } = subagentSetup({ checkpoints });
		provider.script(
			{ toolCalls: [{ id: 'w1', name: 'Change', input: { file: 'root.ts' } }] },
			{ toolCalls: [agentCall('c1', 'general', 'TASK-CHILD')] },
			{ match: 'TASK-CHILD', toolCalls: [{ id: 'w2', name: 'Change', input: { file: 'child.ts' } }] },
			{ match: 'TASK-CHILD', text: 'Changed it.' },
			{ text: 'Both done.' },
		);
		assert.equal((await agent.startTurn('Change both.')).outcome, 'done');
		assert.deepEqual(ran, ['Change root.ts', 'Change child.ts']);
		const session = sessions.current;
		const user = session.records.find((record) => record.kind === 'user');
		assert.ok(user?.kind === 'user');
		const entries = checkpoints.chat(session.id).entries();
		assert.deepEqual(
			entries.map((entry) => [entry.shown, entry.turnId]),
			[
				['root.ts', user.turnId],
				['child.ts', user.turnId],
			],
		);
		assert.deepEqual(checkpoints.recorders, [{ sessionId: session.id, turnId: user.turnId }], 'one recorder per root turn, the child uses it');

		provider.script({ toolCalls: [{ id: 'w3', name: 'Change', input: { file: 'again.ts' } }] }, { text: 'Again.' });
		await agent.startTurn('Once more.');
		const second = sessions.current.records.filter((record) => record.kind === 'user')[1];
		assert.ok(second?.kind === 'user');
		assert.equal(checkpoints.chat(session.id).entries()[2]?.turnId, second.turnId, 'the next turn groups its own writes');
	});

	it('without a store, a write runs and nothing is kept', async () => {
		const { provider, agent, ran } = subagentSetup();
		provider.script({ toolCalls: [{ id: 'w1', name: 'Change', input: { file: 'a.ts' } }] }, { text: 'Done.' });
		assert.equal((await agent.startTurn('Go.')).outcome, 'done');
		assert.deepEqual(ran, ['Change a.ts']);
	});
});
