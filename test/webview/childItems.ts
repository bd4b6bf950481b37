// Child agents and task rows for the webview tests (the subagents tests, the themes' picture).
import type { TranscriptItem } from '../../src/protocol/messages';
import type { TasksView, TaskView } from '../../src/protocol/tasks';
import { agentRow, assistant, entry, inChild, reminders, tool, user } from './items';

export const G = 'root/general#1';
export const N = 'root/general#1/explore#2';

/** A chat whose root turn ran a general child, which ran an explore child of its own; in record order. */
export function nestedChildren(): TranscriptItem[] {
	return [
		user('u1', 'Find where the config is read'),
		agentRow(G, { description: 'Survey the config code', steps: 3, status: 'done', result: 'It is read in src/config.ts.' }),
		inChild(G, user('gU', 'Survey the config code')),
		inChild(G, reminders('gR', [entry('session.date', 'date', 'Today is 2026-12-01.')])),
		agentRow(N, { description: 'Grep for loadConfig', steps: 2, status: 'done', result: 'src/config.ts:12' }),
		inChild(N, user('nU', 'Grep for loadConfig')),
		inChild(N, reminders('nR', [entry('agent.max-turns', 'step budget', 'You have 1 step left: wrap up.'), entry('mode.constraints', 'mode', 'Read-only.')])),
		inChild(N, tool('nT', { name: 'Grep', input: JSON.stringify({ pattern: 'loadConfig' }, null, 2), result: 'src/config.ts:12: export function loadConfig()' })),
		inChild(N, assistant('nA', 'Found it in `src/config.ts`.')),
		inChild(G, assistant('gA', 'It is read in **src/config.ts**.')),
		assistant('a1', 'The config is read in src/config.ts.'),
	];
}

export const task = (id: string, title: string, status: TaskView['status'], owner = 'root', notes?: string): TaskView => ({ id, title, status, owner, ...(notes === undefined ? {} : { notes }) });

/** The panel's view of these rows, as the host makes it (src/features/tasks/tasksView.ts). */
export function taskList(rows: TaskView[]): TasksView {
	const current = rows.find((row) => row.status === 'in_progress') ?? rows.find((row) => row.status === 'pending');
	return { rows, open: rows.filter((row) => row.status === 'pending' || row.status === 'in_progress').length, ...(current ? { current: current.id } : {}) };
}
