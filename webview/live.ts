// What is happening now, below the transcript: the response streaming in and the messages
// waiting for the agent's next step. Plus the one-line status beside the composer.
import type { AgentStatus, AgentView, StreamView } from '../src/protocol/messages';
import { el, icon } from './dom';
import { rowHeader } from './rows/common';
import { StreamingRow } from './streamingRow';
import { ToolProgressRows } from './toolProgress';

function steeringRow(text: string): HTMLElement {
	return el(
		'div',
		{ class: 'row row-steering', 'data-kind': 'steering' },
		rowHeader('clock', 'You', undefined, el('span', { class: 'pending-label' }, 'pending')),
		el('div', { class: 'user-text' }, text),
		el('div', { class: 'pending-note' }, "Will be delivered at the agent's next step."),
	);
}

export class LiveView {
	readonly element = el('div', { class: 'live' });
	private readonly stream = new StreamingRow((write, row) => {
		this.pinScroll(() => {
			write();
			if (!row.isConnected) {
				this.element.prepend(row);
			}
		});
	});
	private readonly steering = el('div', { class: 'steering', role: 'list', 'aria-label': 'Messages waiting for the agent' });
	private steeringShown: readonly string[] = [];
	private readonly progress: ToolProgressRows;

	/** `pinScroll` runs a DOM change and keeps the view scrolled to the end if it was there. */
	constructor(private readonly pinScroll: (mutate: () => void) => void) {
		this.progress = new ToolProgressRows(pinScroll);
		this.element.append(this.progress.element, this.steering);
	}

	/**
	 * The agent view says whether a response streams; its text comes only from `text.streamed`
	 * deltas, and from `streamed`, the text so far that a snapshot carries.
	 */
	update(agent: AgentView, streamed?: StreamView): void {
		this.stream.follow(agent.streaming, streamed);
		this.progress.show(agent.toolProgress ?? []);
		this.showSteering(agent.steering);
	}

	/** A `text.streamed` delta; one for another request than the one streaming is stale. */
	appendText(requestId: string, text: string): void {
		this.stream.append(requestId, text);
	}

	/** The recorded response arrived: it replaces the streaming row. */
	finishStream(): void {
		this.stream.finish();
	}

	private showSteering(messages: readonly string[]): void {
		if (messages.length === this.steeringShown.length && messages.every((text, i) => text === this.steeringShown[i])) {
			return;
		}
		this.steeringShown = [...messages];
		this.pinScroll(() => {
			this.steering.replaceChildren(...messages.map((text) => el('div', { role: 'listitem' }, steeringRow(text))));
		});
	}
}

/** The line beside the composer: hidden when there is nothing to say. */
export function renderStatus(element: HTMLElement, status: AgentStatus, transcriptEmpty: boolean): void {
	// An unavailable agent is explained by the empty state until the chat has turns.
	element.hidden = status.state === 'ready' || (status.state === 'unavailable' && transcriptEmpty);
	const text = element.querySelector('.agent-status-text')?.textContent;
	if (element.dataset.state === status.state && text === status.detail) {
		return; // unchanged: a live region re-announces whatever is written into it
	}
	element.dataset.state = status.state;
	const iconView = status.state === 'running' ? icon('loading', 'codicon-modifier-spin') : icon('info');
	element.replaceChildren(iconView, el('span', { class: 'agent-status-text' }, status.detail));
}
