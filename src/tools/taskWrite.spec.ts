import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ROWS_PER_WRITE, MAX_TASK_NOTES_CHARS } from './taskAccess';
import { taskBoard, taskContext } from '../testing/taskBoard';
import { invokeTool, toolsFor } from './registry';
import { taskWriteTool } from './taskWrite';

describe('TaskWrite', () => {
	it('creates rows owned by the caller and answers with the rows it wrote and the counts', async () => {
		const { tasks, store } = taskBoard();
		const result = await invokeTool(taskWriteTool, { tasks: [{ id: '1', title: 'Read the parser', status: 'in_progress' }, { id: '2', title: 'Fix the bug', notes: 'after 1' }] }, taskContext(tasks.access('root/explore#2')));
		assert.equal(result.isError, undefined, result.content);
		assert.equal(
			result.content,
			['Wrote 2 rows. Tasks: 2 open, 0 closed.', '- 1 [in_progress] Read the parser (owner root/explore#2)', '- 2 [pending] Fix the bug (owner root/explore#2)', '  notes:', '    after 1'].join('\n'),
		);
		assert.equal(store.records.filter((record) => record.kind === 'tasks').length, 1);
	});

	it('says when nothing changed', async () => {
		const { tasks } = taskBoard();
		const context = taskContext(tasks.access('root'));
		await invokeTool(taskWriteTool, { tasks: [{ id: 'a', title: 'A' }] }, context);
		assert.equal((await invokeTool(taskWriteTool, { tasks: [{ id: 'a', status: 'pending' }] }, context)).content, 'Nothing changed: the rows already say that. Tasks: 1 open, 0 closed.');
		assert.equal((await invokeTool(taskWriteTool, { tasks: [{ id: 'a', status: 'completed' }] }, context)).content, 'Wrote 1 row. Tasks: 0 open, 1 closed.\n- a [completed] A (owner root)');
	});

	it('checks its input with clear errors, and writes nothing', async () => {
		const { tasks, store } = taskBoard();
		const context = taskContext(tasks.access('root'));
		const error = async (input: unknown) => {
			const result = await invokeTool(taskWriteTool, input, context);
			assert.equal(result.isError, true, JSON.stringify(input));
			return result.content;
		};
		assert.match(await error({}), /^Invalid input for TaskWrite: tasks: Invalid input: expected array/);
		assert.match(await error({ tasks: [] }), /^Invalid input for TaskWrite: tasks: Too small: expected array to have >=1 items/);
		assert.match(await error({ tasks: [{ id: 'a', title: 'A', status: 'done' }] }), /^Invalid input for TaskWrite: tasks\.0\.status: Invalid option: expected one of "pending"\|"in_progress"\|"completed"\|"cancelled"/);
		assert.match(await error({ tasks: [{ id: '', title: 'A' }] }), /^Invalid input for TaskWrite: tasks\.0\.id: Too small/);
		assert.match(await error({ tasks: [{ id: 'a', title: 'A', notes: 'n'.repeat(MAX_TASK_NOTES_CHARS + 1) }] }), /tasks\.0\.notes: Too big: expected string to have <=2000 characters/);
		assert.match(await error({ tasks: Array.from({ length: MAX_ROWS_PER_WRITE + 1 }, (_, i) => ({ id: `r${i}`, title: 'T' })) }), /tasks: Too big: expected array to have <=200 items/);
		assert.equal(await error({ tasks: [{ id: 'a', status: 'pending' }] }), 'a is a new task: give it a title (and a status; it starts as pending).');
		assert.equal(store.records.length, 0);
	});

	it('refuses a row owned outside the caller\'s subtree, naming the owner', async () => {
		const { tasks } = taskBoard();
		await invokeTool(taskWriteTool, { tasks: [{ id: 'plan', title: 'The plan' }] }, taskContext(tasks.access('root')));
		const result = await invokeTool(taskWriteTool, { tasks: [{ id: 'plan', status: 'completed' }] }, taskContext(tasks.access('root/explore#1')));
		assert.equal(result.isError, true);
		assert.match(result.content, /^plan belongs to root; root\/explore#1 may change only its own rows and those of the agents it started\. Nothing was written\./);
		assert.equal(tasks.all[0]?.status, 'pending');
	});

	it('without a task list answers with a clear error', async () => {
		const result = await invokeTool(taskWriteTool, { tasks: [{ id: 'a', title: 'A' }] }, taskContext(undefined));
		assert.deepEqual(result, { isError: true, content: 'TaskWrite is not available here: this chat has no task list for this call.' });
	});

	it('is a read tool, offered in plan mode too; its contract carries the fields and the statuses', () => {
		assert.equal(taskWriteTool.kind, 'read');
		assert.ok(toolsFor('plan', true).includes(taskWriteTool));
		for (const word of ['id', 'title', 'status', 'notes', 'pending', 'in_progress', 'completed', 'cancelled', 'owner path']) {
			assert.match(taskWriteTool.description, new RegExp(`\\b${word}\\b`), word);
		}
	});
});
