// The task list from a child invocation's loop: the tool calls of a loop owned by an agent
// invocation reach the list under the invocation's owner path (ToolCallRunner passes owner.id to
// TurnScope.toolAccess), so its rows are its own, another's rows are refused, and a successful
// settlement closes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../../base/event';
import { scriptedModels, testPorts } from '../../testing/agentPorts';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { ScriptedProvider } from '../../testing/scriptedProvider';
import { testSessions } from '../../testing/sessions';
import { TASK_TOOLS } from '../../tools/registry';
import type { AgentRecord } from '../../transcript/records';
import type { ToolResultRecord } from '../../transcript/toolResultRecord';
import { Agent } from '../../agent/agent';
import { invocationLoop } from '../../agent/loopOwner';
import { Turn } from '../../agent/turn';
import { TASKS_STATE } from './feature';

describe('the task list from a child invocation', () => {
	it('owns what the child writes by its owner path, refuses the root\'s rows, and settles on success', async () => {
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'w0', name: 'TaskWrite', input: { tasks: [{ id: 'plan', title: 'The root\'s plan' }] } }] }, { text: 'Planned.' });
		const models = scriptedModels(provider);
		const sessions = testSessions(new FakeClock(), new SequentialIds('s'));
		const ports = testPorts(models, { tools: () => TASK_TOOLS });
		const agent = new Agent(
			{ sessions, models, settings: { current: { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'ask' }, onDidChange: new Emitter<unknown>().event }, system: () => 'system', features: [TASKS_STATE] },
			ports,
		);
		await agent.startTurn('Plan it.');
		const session = sessions.current;
		const tasks = agent.features.stateOf(TASKS_STATE, session);

		const path = 'root/explore#1';
		const records: AgentRecord[] = [];
		const loop = new Turn(
			ports,
			{
				engine: session.reminders,
				transcript: { records, append: (record) => void records.push(record) },
				permissions: { ask: () => Promise.resolve({ granted: true }) },
				settings: () => ({ maxOutputTokens: 500, maxSteps: 5, permissionMode: 'plan' }),
				system: () => 'You explore.',
				toolAccess: (owner) => tasks.toolAccess(owner),
			},
			'inv-1',
			invocationLoop(session.reminders.spawnAgent(path)),
		);
		provider.script(
			{ toolCalls: [{ id: 'w1', name: 'TaskWrite', input: { tasks: [{ id: 'scan', title: 'Scan the callers', status: 'in_progress' }] } }] },
			{ toolCalls: [{ id: 'w2', name: 'TaskWrite', input: { tasks: [{ id: 'plan', status: 'completed' }] } }] },
			{ text: 'Scanned.' },
		);
		assert.equal((await loop.run('Scan the callers.', new AbortController().signal)).outcome, 'done');
		const results = records.filter((record): record is ToolResultRecord => record.kind === 'tool-result');
		assert.deepEqual(results.map((result) => result.isError), [false, true]);
		assert.match(results[0]?.content ?? '', /^Wrote 1 row\. Tasks: 2 open, 0 closed\.\n- scan \[in_progress\] Scan the callers \(owner root\/explore#1\)$/);
		assert.match(results[1]?.content ?? '', /^plan belongs to root; root\/explore#1 may change only its own rows/);
		assert.deepEqual(tasks.all.map((row) => [row.id, row.status, row.owner]), [['plan', 'pending', 'root'], ['scan', 'in_progress', path]]);

		tasks.settle(path, 'done');
		assert.deepEqual(tasks.all.map((row) => [row.id, row.status]), [['plan', 'pending'], ['scan', 'completed']]);
		const settled = session.records.filter((record) => record.kind === 'tasks').at(-1);
		assert.equal(settled?.kind === 'tasks' ? settled.by : '', 'settled');
	});
});
