// The chat's task list, above the composer: collapsed, the open count and the current task;
// expanded, every row with its status, who owns it (when not the root) and its notes. A real
// <button aria-expanded> opens it; the list is one Tab stop; Escape closes it again.
import type { HostMessage, ViewState } from '../src/protocol/messages';
import type { TasksView, TaskView } from '../src/protocol/tasks';
import type { ViewFeaturePart } from './featurePart';
import { el, icon, uniqueId } from './dom';
import { plural } from './format';

const STATUS: Record<TaskView['status'], { readonly icon: string; readonly text: string }> = {
	pending: { icon: 'circle-large-outline', text: 'pending' },
	in_progress: { icon: 'arrow-circle-right', text: 'in progress' },
	completed: { icon: 'pass', text: 'completed' },
	cancelled: { icon: 'circle-slash', text: 'cancelled' },
};

const ROOT = 'root';

function taskRow(task: TaskView, current: boolean): HTMLLIElement {
	return el(
		'li',
		{ class: `task task-${task.status}${current ? ' task-current' : ''}`, 'data-id': task.id },
		el('span', { class: 'task-status', title: STATUS[task.status].text }, icon(STATUS[task.status].icon), el('span', { class: 'sr-only' }, `${STATUS[task.status].text}: `)),
		el(
			'div',
			{ class: 'task-body' },
			el('span', { class: 'task-title' }, task.title),
			task.owner === ROOT ? null : el('code', { class: 'task-owner', title: 'The agent that owns this task' }, task.owner),
			task.notes === undefined || task.notes === '' ? null : el('div', { class: 'task-notes' }, task.notes),
		),
	);
}

/** A snapshot from a host without the task list says nothing of it. */
const NO_TASKS: TasksView = { rows: [], open: 0 };

export class TaskPanel implements ViewFeaturePart {
	readonly id = 'tasks';
	private readonly chevron = icon('chevron-right', 'disclosure-chevron');
	private readonly summary = el('span', { class: 'task-summary' });
	private readonly listId = uniqueId('tasks');
	private readonly toggle = el('button', { type: 'button', class: 'line-button disclosure task-toggle', 'aria-expanded': 'false', 'aria-controls': this.listId }, this.chevron, icon('checklist'), this.summary);
	private readonly list = el('ol', { class: 'task-list', id: this.listId, hidden: true, tabindex: '0', 'aria-label': 'Tasks' });
	readonly element = el('section', { class: 'task-panel', 'aria-label': 'Tasks', hidden: true }, this.toggle, this.list);
	private tasks: TasksView = { rows: [], open: 0 };
	private hasRows = false;

	constructor() {
		this.toggle.addEventListener('click', () => {
			this.expand(this.toggle.getAttribute('aria-expanded') !== 'true');
		});
		this.element.addEventListener('keydown', (event) => {
			if (event.key === 'Escape' && this.toggle.getAttribute('aria-expanded') === 'true') {
				event.preventDefault();
				event.stopPropagation();
				this.expand(false);
				this.toggle.focus();
			}
		});
	}

	get bottom(): HTMLElement {
		return this.element;
	}

	receive(message: HostMessage): void {
		if (message.type === 'tasks.changed') {
			this.update(message.tasks);
		}
	}

	snapshot(state: ViewState): void {
		this.update(state.tasks ?? NO_TASKS);
	}

	update(tasks: TasksView): void {
		this.tasks = tasks;
		this.show();
	}

	/** Hidden while the chat has no rows: a new chat starts clean. */
	chatHasRows(hasRows: boolean): void {
		if (hasRows !== this.hasRows) {
			this.hasRows = hasRows;
			this.show();
		}
	}

	private show(): void {
		const { rows, open, current } = this.tasks;
		this.element.hidden = !this.hasRows || rows.length === 0;
		const currentTask = rows.find((row) => row.id === current);
		const count = open === 0 ? `${plural(rows.length, 'task', 'tasks')}, none open` : `${plural(open, 'open task', 'open tasks')} of ${rows.length}`;
		this.summary.replaceChildren(el('span', { class: 'task-count' }, count), ...(currentTask ? [el('span', { class: 'task-current-title' }, ` · ${currentTask.title}`)] : []));
		this.toggle.title = currentTask ? `${count}; current: ${currentTask.title}` : count;
		this.list.replaceChildren(...rows.map((row) => taskRow(row, row.id === current)));
	}

	private expand(expand: boolean): void {
		this.toggle.setAttribute('aria-expanded', String(expand));
		this.chevron.classList.toggle('codicon-chevron-right', !expand);
		this.chevron.classList.toggle('codicon-chevron-down', expand);
		this.list.hidden = !expand;
	}
}
