// The task list through the real Agent: the model calls TaskWrite and TaskList over user turns,
// the rows are the chat's (recorded, restored when it is reopened, announced to the view), and
// the request of the ninth turn after the last write carries exactly one tasks.nudge.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../../base/event';
import type { ChatRequest } from '../../providers/provider';
import { parseReminders } from '../../reminders/envelope';
import { TASKS_NUDGE } from '../../reminders/builtin/catalog/agents';
import { scriptedModels, testPorts } from '../../testing/agentPorts';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { ScriptedProvider } from '../../testing/scriptedProvider';
import { testSessions } from '../../testing/sessions';
import { TASK_TOOLS } from '../../tools/registry';
import type { ToolResultRecord } from '../../transcript/toolResultRecord';
import { Agent } from '../../agent/agent';
import { TASKS_STATE } from './feature';

function setup(provider: ScriptedProvider) {
	const sessions = testSessions(new FakeClock(), new SequentialIds('s'));
	const models = scriptedModels(provider);
	const agent = new Agent(
		{ sessions, models, settings: { current: { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'plan' }, onDidChange: new Emitter<unknown>().event }, system: () => 'system', features: [TASKS_STATE] },
		testPorts(models, { tools: () => TASK_TOOLS }),
	);
	return { agent, sessions, tasks: () => agent.features.stateOf(TASKS_STATE, sessions.current).all };
}

/** Every tasks.nudge block anywhere in the request (history included). */
function nudgesIn(request: ChatRequest | undefined): string[] {
	return (request?.messages ?? []).flatMap((message) =>
		message.role === 'user' ? message.content.flatMap((part) => (part.type === 'text' ? parseReminders(part.text).filter((block) => block.key === TASKS_NUDGE.key).map((block) => block.body) : [])) : [],
	);
}

const write = (id: string, tasks: unknown) => ({ toolCalls: [{ id, name: 'TaskWrite', input: { tasks } }] });

describe('the agent\'s task list', () => {
	it('TaskWrite over several user turns; the ninth turn\'s requests carry exactly one tasks.nudge, and a write resets it', async () => {
		const provider = new ScriptedProvider(
			// Turn 1: two rows, then one of them started, over two steps.
			write('c1', [{ id: 'parse', title: 'Write the parser' }, { id: 'test', title: 'Test it' }]),
			write('c2', [{ id: 'parse', status: 'in_progress' }]),
			{ text: 'Started.' },
		);
		const { agent, sessions, tasks } = setup(provider);
		assert.equal((await agent.startTurn('Build a parser.')).outcome, 'done');
		assert.deepEqual(tasks().map((row) => [row.id, row.status, row.owner]), [['parse', 'in_progress', 'root'], ['test', 'pending', 'root']]);
		const results = sessions.current.records.filter((record): record is ToolResultRecord => record.kind === 'tool-result');
		assert.deepEqual(results.map((record) => record.isError), [false, false]);
		assert.equal(sessions.current.records.filter((record) => record.kind === 'tasks').length, 2);

		// Turns 2 to 8: talk, and a TaskList (which writes nothing) in turn 3.
		for (let turn = 2; turn <= 8; turn++) {
			provider.script(...(turn === 3 ? [{ toolCalls: [{ id: 'l1', name: 'TaskList', input: {} }] }] : []), { text: `Answer ${turn}.` });
			const before = provider.requests.length;
			await agent.startTurn(`Message ${turn}.`);
			for (const request of provider.requests.slice(before)) {
				assert.deepEqual(nudgesIn(request), [], `turn ${turn} carries no tasks.nudge`);
			}
		}
		const listed = sessions.current.records.find((record) => record.kind === 'tool-result' && record.name === 'TaskList');
		assert.equal(listed?.kind === 'tool-result' ? listed.content : '', 'Tasks: 2 open, 0 closed.\n- parse [in_progress] Write the parser (owner root)\n- test [pending] Test it (owner root)');

		// Turn 9: eight turns since the last write. Its steps (a TaskList, then the reconciling write) follow.
		provider.script({ toolCalls: [{ id: 'l2', name: 'TaskList', input: { status: 'open' } }] }, write('c3', [{ id: 'parse', status: 'completed' }]), { text: 'Reconciled.' });
		const before = provider.requests.length;
		await agent.startTurn('Message 9.');
		const ninth = provider.requests.slice(before);
		assert.equal(ninth.length, 3);
		const [first] = nudgesIn(ninth[0]);
		assert.deepEqual(nudgesIn(ninth[0]).length, 1, 'the first request of turn 9 carries one tasks.nudge');
		assert.match(first ?? '', /No task was written for 8 turns \(the last task write was in turn 1; this is turn 9\), and 2 rows are still open:/);
		assert.match(first ?? '', /^- parse \[in_progress\] Write the parser \(owner root\)$/m);
		for (const request of ninth.slice(1)) {
			assert.deepEqual(nudgesIn(request), [first], 'later requests of turn 9 only replay it');
		}
		assert.deepEqual(tasks().map((row) => row.status), ['completed', 'pending']);

		// The write in turn 9 counts: nothing new before turn 17.
		for (let turn = 10; turn <= 16; turn++) {
			const count = provider.requests.length;
			await agent.startTurn(`Message ${turn}.`);
			assert.equal(nudgesIn(provider.requests[count]).length, 1, `turn ${turn}: only turn 9's, replayed`);
		}
		const count = provider.requests.length;
		await agent.startTurn('Message 17.');
		assert.equal(nudgesIn(provider.requests[count]).length, 2, 'turn 17: a new one');
	});

	it('a reopened chat has its rows again (the view shows them from its records: src/features/tasks/tasksView.ts)', async () => {
		const provider = new ScriptedProvider(write('c1', [{ id: 'a', title: 'First' }]), { text: 'Done.' });
		const { agent, sessions, tasks } = setup(provider);
		await agent.startTurn('Plan it.');
		const id = sessions.current.id;
		sessions.newSession();
		assert.equal(tasks().length, 0, 'a new chat has no rows');
		sessions.open(id);
		assert.deepEqual(tasks().map((row) => [row.id, row.title, row.owner]), [['a', 'First', 'root']]);
	});

	it('a refused write is the tool\'s error result, and the rows stay as they were', async () => {
		const provider = new ScriptedProvider(write('c1', [{ id: 'a' }]), { text: 'Oops.' });
		const { agent, sessions, tasks } = setup(provider);
		await agent.startTurn('Go.');
		const result = sessions.current.records.find((record) => record.kind === 'tool-result');
		assert.equal(result?.kind === 'tool-result' && result.isError, true);
		assert.equal(result?.kind === 'tool-result' ? result.content : '', 'a is a new task: give it a title (and a status; it starts as pending).');
		assert.deepEqual(tasks(), []);
	});
});
