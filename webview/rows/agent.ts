// A child agent invocation inside its parent's turn: one row, collapsed, that says
// `Agent explore: <description> · N steps · status`; expanded, the child's own rows (rendered by
// the same row functions, so its tool calls and its ◇ reminder rows behave as the root's do),
// what streams into it while it runs, and an error the parent got back. The whole block is one
// row of the transcript's virtual list: its height changes when it opens, and the list measures
// it like any row, so nothing below has to know about collapsed rows.
import type { AgentItem, ChildAgentView, StreamView } from '../../src/protocol/messages';
import { el, icon, uniqueId } from '../dom';
import { plural } from '../format';
import { StreamingRow } from '../streamingRow';

const STATUS: Record<AgentItem['status'], { readonly text: string; readonly icon: string }> = {
	running: { text: 'running', icon: 'loading' },
	done: { text: 'done', icon: 'check' },
	failed: { text: 'failed', icon: 'error' },
	interrupted: { text: 'stopped', icon: 'debug-stop' },
	'step-limit': { text: 'step limit', icon: 'warning' },
};

/** The short name of a child, as a person reads it: `explore#1` of `root/general#1/explore#1`. */
export function agentName(path: string): string {
	return path.slice(path.lastIndexOf('/') + 1);
}

/** The header's words, also its accessible name. */
export function agentLabel(item: AgentItem): string {
	return `Agent ${item.profile}: ${item.description} · ${plural(item.steps, 'step', 'steps')} · ${STATUS[item.status].text}`;
}

/** What streams into a running child, below its rows while its block is open. */
class ChildLive {
	readonly element = el('div', { class: 'agent-live', hidden: true });
	private readonly detail = el('div', { class: 'agent-activity' });
	private readonly stream = new StreamingRow((write, row) => {
		write();
		if (!row.isConnected) {
			this.element.append(row);
		}
	});

	constructor() {
		this.element.append(this.detail);
	}

	get requestId(): string | undefined {
		return this.stream.requestId;
	}

	update(child: ChildAgentView | undefined, streamed: StreamView | undefined): void {
		this.element.hidden = child === undefined;
		if (this.detail.textContent !== (child?.detail ?? '')) {
			this.detail.textContent = child?.detail ?? '';
		}
		this.stream.follow(child?.streaming, streamed);
	}

	append(requestId: string, text: string): boolean {
		return this.stream.append(requestId, text);
	}

	/** Its recorded answer arrived: it replaces the streamed text. */
	finish(): void {
		this.stream.finish();
	}
}

export class AgentBlock {
	readonly element: HTMLLIElement;
	private readonly button: HTMLButtonElement;
	private readonly chevron = icon('chevron-right', 'disclosure-chevron');
	private readonly label = el('span', { class: 'agent-label' });
	private readonly panel: HTMLDivElement;
	private readonly list = el('ol', { class: 'agent-rows', 'aria-label': 'The agent\'s rows' });
	private readonly problem = el('div', { class: 'agent-result-error', hidden: true });
	private readonly live = new ChildLive();
	/** Its own rows' ids, in display order; mounted only once the block has been opened. */
	private readonly rows: string[] = [];
	private readonly mounted = new Map<string, HTMLElement>();
	private built = false;

	/** `render` makes the element of one of its rows (a nested child's is that child's block). */
	constructor(
		private item: AgentItem,
		private readonly render: (id: string) => HTMLElement,
	) {
		const panelId = uniqueId('panel');
		this.button = el('button', { type: 'button', class: 'line-button disclosure agent-toggle', 'aria-expanded': 'false', 'aria-controls': panelId }, this.chevron, icon('hubot'), this.label);
		this.panel = el('div', { class: 'disclosure-panel agent-panel', id: panelId, hidden: true, 'aria-live': 'off' }, this.list, this.live.element, this.problem);
		this.element = el('li', { class: 'row row-agent', 'data-kind': 'agent', 'data-id': item.id, 'data-path': item.path }, this.button, this.panel);
		this.button.addEventListener('click', () => {
			this.toggle();
		});
		this.show();
	}

	get path(): string {
		return this.item.path;
	}

	get requestId(): string | undefined {
		return this.live.requestId;
	}

	update(item: AgentItem): void {
		this.item = item;
		this.show();
	}

	/** Its rows, at its end or just before its row `before`. */
	add(ids: readonly string[], before?: string): void {
		const at = before === undefined ? -1 : this.rows.indexOf(before);
		if (at === -1) {
			this.rows.push(...ids);
		} else {
			this.rows.splice(at, 0, ...ids);
		}
		if (this.built) {
			const next = at === -1 ? null : (this.mounted.get(before ?? '') ?? null);
			for (const id of ids) {
				this.list.insertBefore(this.mount(id), next);
			}
		}
	}

	child(child: ChildAgentView | undefined, streamed: StreamView | undefined): void {
		this.live.update(child, streamed);
	}

	streamText(requestId: string, text: string): boolean {
		return this.live.append(requestId, text);
	}

	finishStream(): void {
		this.live.finish();
	}

	/** One of its rows, if it was mounted (the block was opened once). */
	mountedRow(id: string): HTMLElement | undefined {
		return this.mounted.get(id);
	}

	private toggle(): void {
		const expand = this.button.getAttribute('aria-expanded') !== 'true';
		if (expand && !this.built) {
			this.built = true;
			this.list.append(...this.rows.map((id) => this.mount(id)));
		}
		this.button.setAttribute('aria-expanded', String(expand));
		this.chevron.classList.toggle('codicon-chevron-right', !expand);
		this.chevron.classList.toggle('codicon-chevron-down', expand);
		this.panel.hidden = !expand;
	}

	private mount(id: string): HTMLElement {
		const element = this.render(id);
		this.mounted.set(id, element);
		return element;
	}

	private show(): void {
		const { item } = this;
		const status = STATUS[item.status];
		this.element.dataset.status = item.status;
		this.label.replaceChildren(
			el('span', { class: 'agent-title' }, `Agent ${item.profile}:`),
			' ',
			el('span', { class: 'agent-description' }, item.description),
			el('span', { class: 'agent-steps' }, ` · ${plural(item.steps, 'step', 'steps')} · `),
			el('span', { class: `agent-run-status agent-run-status-${item.status}` }, icon(status.icon, item.status === 'running' ? 'codicon-modifier-spin' : ''), status.text),
		);
		this.button.title = `${agentLabel(item)} (${item.path})`;
		this.problem.hidden = item.isError !== true;
		this.problem.replaceChildren(...(item.isError ? [icon('error'), el('span', {}, `The parent got back: ${item.result ?? ''}`)] : []));
	}
}
