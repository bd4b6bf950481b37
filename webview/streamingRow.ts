// The row of a response streaming in, not yet recorded: the root's (below the transcript) and a
// running child's (inside its block). Its text comes from `text.streamed` deltas and the text so
// far a snapshot carries; the DOM is written at most once a frame, however many deltas came.
import type { StreamView } from '../src/protocol/messages';
import { el, icon } from './dom';
import { MarkdownView } from './markdown/view';
import { rowHeader } from './rows/common';

export class StreamingRow {
	private readonly text = new MarkdownView('assistant-text');
	readonly element = el('div', { class: 'row row-streaming', 'data-kind': 'streaming', 'aria-busy': 'true' }, rowHeader('sparkle', 'Aside', undefined, icon('loading', 'codicon-modifier-spin')), this.text.element);
	private stream: { readonly requestId: string; text: string } | null = null;
	/** The request whose recorded response already arrived: a stale repeat of it must not reappear. */
	private finished: string | undefined;
	private frame: number | undefined;

	/** `show` writes the text (the callback) and puts the row where it goes, once a frame. */
	constructor(private readonly show: (write: () => void, row: HTMLElement) => void) {}

	get requestId(): string | undefined {
		return this.stream?.requestId;
	}

	/** What the agent view says streams now (or nothing), and the text so far when a snapshot has it. */
	follow(streaming: { readonly requestId: string } | null | undefined, streamed: StreamView | undefined): void {
		const next = streaming && streaming.requestId !== this.finished ? streaming : null;
		if (next === null) {
			this.clear();
		} else if (this.stream?.requestId !== next.requestId) {
			this.clear();
			this.stream = { requestId: next.requestId, text: '' };
		}
		if (this.stream && streamed?.requestId === this.stream.requestId && streamed.text !== this.stream.text) {
			this.stream.text = streamed.text;
			this.schedule();
		}
	}

	/** A `text.streamed` delta: false (and ignored) when it is for another request than the one streaming. */
	append(requestId: string, text: string): boolean {
		if (this.stream?.requestId !== requestId) {
			return false;
		}
		this.stream.text += text;
		this.schedule();
		return true;
	}

	/** The recorded response arrived: it replaces the streamed text. */
	finish(): void {
		if (this.stream) {
			this.finished = this.stream.requestId;
		}
		this.clear();
	}

	private clear(): void {
		this.stream = null;
		if (this.frame !== undefined) {
			cancelAnimationFrame(this.frame);
			this.frame = undefined;
		}
		this.element.remove();
	}

	private schedule(): void {
		this.frame ??= requestAnimationFrame(() => {
			this.frame = undefined;
			const stream = this.stream;
			if (stream) {
				this.show(() => {
					this.text.update(stream.text);
				}, this.element);
			}
		});
	}
}
