// The current chat's running background processes, above the composer (docs/tools.md, "Run in the
// background"): each row the command, since when, the last line of output, Show terminal (when it has
// one) and Stop ("stopping…" until it ended). Absent while nothing runs; an ended process leaves.
// Rows are kept by id and updated in place, so output updates never move the keyboard focus.
// Commands and output are anything: they only go in as text.
import type { HostMessage, ViewMessage, ViewState } from '../src/protocol/messages';
import type { ProcessesView, ProcessView } from '../src/protocol/processes';
import type { ViewFeaturePart } from './featurePart';
import { el, icon } from './dom';
import { plural } from './format';

type ProcessMessage = Extract<ViewMessage, { type: 'processes.stop' | 'processes.show' }>;

/** A snapshot from a host without background processes says nothing of them. */
const NONE: ProcessesView = { rows: [] };

interface Row {
	readonly element: HTMLLIElement;
	readonly tag: HTMLElement;
	readonly command: HTMLElement;
	readonly since: HTMLElement;
	readonly line: HTMLElement;
	readonly show: HTMLButtonElement;
	readonly stop: HTMLButtonElement;
}

export class ProcessesPanel implements ViewFeaturePart {
	readonly id = 'processes';
	private readonly title = el('span', { class: 'processes-title' });
	private readonly list = el('ul', { class: 'processes-list' });
	readonly element = el('section', { class: 'processes-panel', 'aria-label': 'Background processes', hidden: true },
		el('div', { class: 'processes-head' }, icon('server-process'), this.title), this.list);
	private readonly rows = new Map<string, Row>();
	/** Stop pressed here: the row says so before the host's `stopping` comes back. */
	private readonly stopped = new Set<string>();

	constructor(private readonly post: (message: ProcessMessage) => void) {}

	get bottom(): HTMLElement {
		return this.element;
	}

	receive(message: HostMessage): void {
		if (message.type === 'processes.changed') {
			this.update(message.processes);
		}
	}

	snapshot(state: ViewState): void {
		// Another chat's p1 is not this one's: after a snapshot only the host says what is stopping.
		this.stopped.clear();
		this.update(state.processes ?? NONE);
	}

	private update(view: ProcessesView): void {
		const ids = new Set(view.rows.map((process) => process.id));
		const focus = this.focusAfter(ids);
		for (const [id, row] of this.rows) {
			if (!ids.has(id)) {
				row.element.remove();
				this.rows.delete(id);
				this.stopped.delete(id);
			}
		}
		view.rows.forEach((process, index) => {
			const row = this.rows.get(process.id) ?? this.row(process.id);
			this.fill(row, process);
			if (this.list.children[index] !== row.element) {
				this.list.insertBefore(row.element, this.list.children[index] ?? null);
			}
		});
		this.title.textContent = plural(view.rows.length, 'background process', 'background processes');
		this.element.hidden = view.rows.length === 0;
		focus?.focus();
	}

	/**
	 * Where the focus goes when the row it is in leaves: the same button of the next row, else of the
	 * one before; when none stays, the message box below the panel (never the page).
	 */
	private focusAfter(ids: ReadonlySet<string>): HTMLElement | undefined {
		const active = document.activeElement;
		const rows = [...this.rows.values()];
		const at = rows.findIndex((row) => row.element.contains(active));
		const left = rows[at];
		if (!left || ids.has(left.element.dataset.id ?? '')) {
			return undefined;
		}
		const staying = rows.filter((row) => ids.has(row.element.dataset.id ?? ''));
		const next = rows.slice(at + 1).find((row) => staying.includes(row)) ?? staying.filter((row) => rows.indexOf(row) < at).at(-1);
		if (!next) {
			return document.querySelector<HTMLElement>('.composer-input') ?? undefined;
		}
		return active === left.show && !next.show.hidden ? next.show : next.stop;
	}

	private row(id: string): Row {
		const tag = el('span', { class: 'process-id' });
		const command = el('code', { class: 'process-command' });
		const since = el('span', { class: 'process-since' });
		const line = el('span', { class: 'process-line' });
		const show = el('button', { type: 'button', class: 'icon-button process-show', 'data-action': 'show' }, icon('terminal'));
		const stop = el('button', { type: 'button', class: 'icon-button process-stop', 'data-action': 'stop' }, icon('debug-stop'));
		show.addEventListener('click', () => {
			this.post({ type: 'processes.show', id });
		});
		stop.addEventListener('click', () => {
			if (stop.getAttribute('aria-disabled') === 'true') {
				return;
			}
			this.stopped.add(id);
			this.post({ type: 'processes.stop', id });
			const row = this.rows.get(id);
			if (row) {
				this.setStopping(row, true);
			}
		});
		const element = el('li', { class: 'process-row', 'data-id': id },
			el('div', { class: 'process-head' }, tag, command, el('span', { class: 'process-actions' }, show, stop)),
			el('div', { class: 'process-detail' }, since, line));
		const row = { element, tag, command, since, line, show, stop };
		this.rows.set(id, row);
		return row;
	}

	private fill(row: Row, process: ProcessView): void {
		// The id the model and its reminders use: "stop p2" means this row.
		row.tag.textContent = process.id;
		row.command.textContent = process.command;
		row.command.title = process.command;
		row.since.textContent = `since ${process.startedAt}`;
		row.line.textContent = process.lastLine;
		row.line.title = process.lastLine;
		row.line.hidden = process.lastLine === '';
		row.show.hidden = !process.hasTerminal;
		const name = `${process.id} (${process.command.length > 60 ? `${process.command.slice(0, 59)}…` : process.command})`;
		row.show.setAttribute('aria-label', `Show the terminal of ${name}`);
		row.show.title = 'Show terminal';
		row.stop.dataset.name = name;
		this.setStopping(row, process.stopping || this.stopped.has(process.id));
	}

	private setStopping(row: Row, stopping: boolean): void {
		row.element.classList.toggle('process-stopping', stopping);
		if (stopping) {
			// Still focusable, so the focus stays where the person pressed it.
			row.stop.setAttribute('aria-disabled', 'true');
			row.since.textContent = 'stopping…';
		} else {
			row.stop.removeAttribute('aria-disabled');
		}
		row.stop.setAttribute('aria-label', `${stopping ? 'Stopping' : 'Stop'} ${row.stop.dataset.name ?? ''}`);
		row.stop.title = stopping ? 'Stopping…' : 'Stop';
	}
}
