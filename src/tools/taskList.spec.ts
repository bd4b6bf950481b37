import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taskBoard, taskContext } from '../testing/taskBoard';
import { invokeTool, toolsFor } from './registry';
import { taskListTool } from './taskList';

describe('TaskList', () => {
	it('lists the rows with full owner paths and the open and closed counts, in the order they were created', async () => {
		const { tasks } = taskBoard();
		tasks.write('root', [{ id: '1', title: 'Plan it', status: 'completed' }, { id: '2', title: 'Build it', status: 'in_progress', notes: 'parser done\nlexer next' }]);
		tasks.write('root/general#1/explore#2', [{ id: 'e1', title: 'Find the callers' }]);
		tasks.write('root', [{ id: '3', title: 'Drop the old API', status: 'cancelled' }]);
		const context = taskContext(tasks.access('root/general#1/explore#2'));
		assert.equal(
			(await invokeTool(taskListTool, {}, context)).content,
			[
				'Tasks: 2 open, 2 closed.',
				'- 1 [completed] Plan it (owner root)',
				'- 2 [in_progress] Build it (owner root)',
				'  notes:',
				'    parser done',
				'    lexer next',
				'- e1 [pending] Find the callers (owner root/general#1/explore#2)',
				'- 3 [cancelled] Drop the old API (owner root)',
			].join('\n'),
		);
		assert.equal((await invokeTool(taskListTool, { status: 'open' }, context)).content.split('\n').filter((line) => line.startsWith('- ')).length, 2);
		assert.equal((await invokeTool(taskListTool, { status: 'closed' }, context)).content, 'Tasks: 2 open, 2 closed.\n- 1 [completed] Plan it (owner root)\n- 3 [cancelled] Drop the old API (owner root)');
	});

	it('says so when there are no rows, or none matches', async () => {
		const { tasks } = taskBoard();
		const context = taskContext(tasks.access('root'));
		assert.equal((await invokeTool(taskListTool, {}, context)).content, 'Tasks: 0 open, 0 closed. There are no task rows in this chat yet; create them with TaskWrite.');
		tasks.write('root', [{ id: 'a', title: 'A' }]);
		assert.equal((await invokeTool(taskListTool, { status: 'closed' }, context)).content, 'Tasks: 1 open, 0 closed. No row matches.');
	});

	it('checks its input, and without a task list answers with a clear error', async () => {
		const { tasks } = taskBoard();
		assert.match((await invokeTool(taskListTool, { status: 'done' }, taskContext(tasks.access('root')))).content, /^Invalid input for TaskList: status: Invalid option/);
		assert.deepEqual(await invokeTool(taskListTool, {}, taskContext(undefined)), { isError: true, content: 'TaskList is not available here: this chat has no task list for this call.' });
		assert.equal(taskListTool.kind, 'read');
		assert.ok(toolsFor('plan', false).includes(taskListTool));
	});
});
