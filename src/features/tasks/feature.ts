// The task list (docs/tools.md, TaskWrite and TaskList): each chat's rows, folded from its `tasks`
// records, the tasks.nudge reminder, the rows the tools reach as their caller, and the task panel
// above the composer (`tasks.*` messages).
import type { AgentFeature } from '../../agent/chatFeature';
import type { ChatFeature } from '../feature';
import { ChatTasks } from './chatTasks';
import { TasksPresenter } from './tasksPresenter';

/** Each chat's task list, restored from its records, its tasks.nudge installed. */
export const TASKS_STATE: AgentFeature<ChatTasks> = {
	id: 'tasks',
	open: (chat) => new ChatTasks(chat.session, { clock: chat.clock, newId: chat.newId, isRunning: chat.isChildRunning, log: chat.log }),
};

export const TASKS: ChatFeature = {
	id: 'tasks',
	agent: TASKS_STATE,
	view: (window) => new TasksPresenter(window.sessions),
};
