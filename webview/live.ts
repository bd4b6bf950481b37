// What is happening now, below the transcript: the response streaming in and the messages
// waiting for the agent's next step. Plus the one-line status beside the composer.
import type { AgentStatus, AgentView, StreamView } from '../src/protocol/messages';
import { el, icon } from './dom';
import { MarkdownView } from './markdown/view';
import { rowHeader } from './rows/common';

type Stream = { readonly requestId: string; text: string };

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
	private readonly streamText = new MarkdownView('assistant-text');
	private readonly streamRow = el(
		'div',
		{ class: 'row row-streaming', 'data-kind': 'streaming', 'aria-busy': 'true' },
		rowHeader('sparkle', 'Aside', undefined, icon('loading', 'codicon-modifier-spin')),
		this.streamText.element,
	);
	private readonly steering = el('div', { class: 'steering', role: 'list', 'aria-label': 'Messages waiting for the agent' });
	private stream: Stream | null = null;
	/** The request whose recorded response already arrived: a stale repeat of it must not reappear. */
	private finishedRequest: string | undefined;
	private frame: number | undefined;
	private steeringShown: readonly string[] = [];

	/** `pinScroll` runs a DOM change and keeps the view scrolled to the end if it was there. */
	constructor(private readonly pinScroll: (mutate: () => void) => void) {
		this.element.append(this.steering);
	}

	/**
	 * The agent view says whether a response streams; its text comes only from `text.streamed`
	 * deltas, and from `streamed`, the text so far that a snapshot carries.
	 */
	update(agent: AgentView, streamed?: StreamView): void {
		const next = agent.streaming && agent.streaming.requestId !== this.finishedRequest ? agent.streaming : null;
		if (next === null) {
			this.clearStream();
		} else if (this.stream?.requestId !== next.requestId) {
			this.clearStream();
			this.stream = { requestId: next.requestId, text: '' };
		}
		if (this.stream && streamed?.requestId === this.stream.requestId && streamed.text !== this.stream.text) {
			this.stream.text = streamed.text;
			this.schedule();
		}
		this.showSteering(agent.steering);
	}

	/** A `text.streamed` delta; one for another request than the one streaming is stale. */
	appendText(requestId: string, text: string): void {
		if (this.stream?.requestId !== requestId) {
			return;
		}
		this.stream.text += text;
		this.schedule();
	}

	/** The recorded response arrived: it replaces the streaming row. */
	finishStream(): void {
		if (this.stream) {
			this.finishedRequest = this.stream.requestId;
		}
		this.clearStream();
	}

	private clearStream(): void {
		this.stream = null;
		if (this.frame !== undefined) {
			cancelAnimationFrame(this.frame);
			this.frame = undefined;
		}
		this.streamRow.remove();
	}

	// Deltas can arrive many times a frame; the DOM is written at most once per frame.
	private schedule(): void {
		this.frame ??= requestAnimationFrame(() => {
			this.frame = undefined;
			this.flush();
		});
	}

	private flush(): void {
		const stream = this.stream;
		if (stream === null) {
			return;
		}
		this.pinScroll(() => {
			this.streamText.update(stream.text);
			if (!this.streamRow.isConnected) {
				this.element.prepend(this.streamRow);
			}
		});
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
