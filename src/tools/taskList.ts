// TaskList: the chat's task list in the shape tasks.nudge uses (taskText.ts): the open
// and closed counts, then one line a row with its full owner path. A read tool like TaskWrite.
import * as z from 'zod';
import { isOpenStatus } from '../vocabulary/tasks';
import { taskListText } from './taskText';
import { taskAccessOf } from './taskWrite';
import { type Tool, touchesNothing } from './tool';

const input = z.object({
	status: z.enum(['open', 'closed', 'all']).optional().describe('Which rows to list: open (pending, in_progress), closed (completed, cancelled) or all (the default).'),
});

export const taskListTool: Tool<z.infer<typeof input>> = {
	name: 'TaskList',
	description:
		'Lists this chat\'s task rows: how many are open and closed, then one line a row — `- <id> [<status>] <title> (owner <path>)` with its notes indented below — in the order they were created. ' +
		'The owner path says who created the row: root (the main conversation) or an agent it started, e.g. root/explore#2. Change rows with TaskWrite.',
	kind: 'read',
	input,
	touches: touchesNothing,
	run({ status = 'all' }, context) {
		const all = taskAccessOf(context, 'TaskList').list();
		const shown = status === 'all' ? all : all.filter((row) => isOpenStatus(row.status) === (status === 'open'));
		return Promise.resolve({ content: taskListText(all, shown) });
	},
};
