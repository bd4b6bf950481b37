// The live row of a running tool call that reports progress (an MCP server's notifications, sent
// by the host at most ten times a second): the tool's name, a bar — determinate with a known total,
// indeterminate without — and the server's message as plain text. It goes when the call ends (the
// recorded tool row takes its place); nothing of it is recorded.
import type { ToolProgressView } from '../src/protocol/toolProgress';
import { el, icon } from './dom';
import { toolIcon } from './rows/tool';

class ToolProgressRow {
	private readonly fill = el('span', { class: 'tool-progress-fill' });
	private readonly bar: HTMLElement;
	private readonly message = el('span', { class: 'tool-progress-message' });
	readonly element: HTMLElement;

	constructor(tool: string) {
		this.bar = el('span', { class: 'tool-progress-bar', role: 'progressbar', 'aria-label': `${tool} progress` }, this.fill);
		this.element = el(
			'div',
			{ class: 'row row-tool row-tool-progress', 'data-kind': 'tool-progress', 'aria-busy': 'true' },
			el('div', { class: 'tool-progress-line' }, icon(toolIcon(tool)), el('span', { class: 'tool-name' }, tool), this.bar),
			this.message,
		);
	}

	update(progress: ToolProgressView): void {
		const { fraction } = progress;
		const determinate = fraction !== undefined;
		this.bar.classList.toggle('tool-progress-indeterminate', !determinate);
		if (determinate) {
			const percent = Math.round(fraction * 100);
			this.bar.setAttribute('aria-valuemin', '0');
			this.bar.setAttribute('aria-valuemax', '100');
			this.bar.setAttribute('aria-valuenow', String(percent));
			this.fill.style.width = `${(fraction * 100).toFixed(1)}%`;
		} else {
			// An indeterminate progressbar has no value at all (ARIA): a screen reader says it is busy.
			for (const name of ['aria-valuemin', 'aria-valuemax', 'aria-valuenow']) {
				this.bar.removeAttribute(name);
			}
			this.fill.style.width = '';
		}
		this.message.textContent = progress.message ?? '';
		this.message.hidden = progress.message === undefined;
	}
}

export class ToolProgressRows {
	readonly element = el('div', { class: 'tool-progress-rows' });
	private readonly rows = new Map<string, ToolProgressRow>();

	/** `pinScroll` runs a DOM change and keeps the view scrolled to the end if it was there. */
	constructor(private readonly pinScroll: (mutate: () => void) => void) {}

	/** The running calls' progress as the agent view says it now: a row each, in order; the others go. */
	show(progress: readonly ToolProgressView[]): void {
		if (progress.length === 0 && this.rows.size === 0) {
			return;
		}
		this.pinScroll(() => {
			const current = new Set(progress.map((update) => update.callId));
			for (const [callId, row] of this.rows) {
				if (!current.has(callId)) {
					row.element.remove();
					this.rows.delete(callId);
				}
			}
			for (const update of progress) {
				let row = this.rows.get(update.callId);
				if (!row) {
					row = new ToolProgressRow(update.tool);
					row.element.dataset.callId = update.callId;
					this.rows.set(update.callId, row);
					this.element.append(row.element);
				}
				row.update(update);
			}
		});
	}
}
