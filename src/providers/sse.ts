// Server-Sent Events as the WHATWG spec parses them (text/event-stream), over a fetch body.
// Both HTTP providers stream this way; the parser is incremental because the network splits
// chunks anywhere: inside a line, between a CR and its LF, inside a UTF-8 character.

export interface SseEvent {
	/** The `event:` field; absent for the default type ("message"). */
	readonly event?: string;
	/** The `data:` lines joined with `\n`. */
	readonly data: string;
	/** The last `id:` seen on the stream, which the spec carries over to later events. */
	readonly id?: string;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * The line-level parser, fed decoded text. An event is dispatched only by a blank line; what
 * is pending when the stream ends is discarded, as the spec says, so a cut event never counts.
 */
export class SseParser {
	private partialLine = '';
	/** The last chunk ended with CR: an LF starting the next one belongs to the same break. */
	private afterCr = false;
	private data: string[] = [];
	private eventType = '';
	private lastId: string | undefined;

	push(text: string): SseEvent[] {
		const events: SseEvent[] = [];
		let start = 0;
		if (this.afterCr && text.length > 0) {
			this.afterCr = false;
			if (text.charCodeAt(0) === LF) {
				start = 1;
			}
		}
		for (let i = start; i < text.length; i++) {
			const code = text.charCodeAt(i);
			if (code !== LF && code !== CR) {
				continue;
			}
			this.line(this.partialLine + text.slice(start, i), events);
			this.partialLine = '';
			if (code === CR) {
				if (i + 1 === text.length) {
					this.afterCr = true;
				} else if (text.charCodeAt(i + 1) === LF) {
					i++;
				}
			}
			start = i + 1;
		}
		this.partialLine += text.slice(start);
		return events;
	}

	private line(line: string, events: SseEvent[]): void {
		if (line === '') {
			this.dispatch(events);
			return;
		}
		if (line.startsWith(':')) {
			return;
		}
		const colon = line.indexOf(':');
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = colon === -1 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) {
			value = value.slice(1);
		}
		switch (field) {
			case 'event':
				this.eventType = value;
				break;
			case 'data':
				this.data.push(value);
				break;
			case 'id':
				if (!value.includes('\0')) {
					this.lastId = value;
				}
				break;
			default:
			// `retry:` only matters to EventSource's reconnection, which fetch callers don't do.
		}
	}

	private dispatch(events: SseEvent[]): void {
		if (this.data.length > 0) {
			events.push({
				data: this.data.join('\n'),
				...(this.eventType === '' ? {} : { event: this.eventType }),
				...(this.lastId === undefined ? {} : { id: this.lastId }),
			});
		}
		this.data = [];
		this.eventType = '';
	}
}

/**
 * Reads the events of a body until it ends. When `signal` fires, the reader is cancelled (which
 * closes the connection) and iteration throws the signal's reason; leaving the loop early
 * cancels it too.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseEvent, void, undefined> {
	const reader = body.getReader();
	const decoder = new TextDecoder();
	const parser = new SseParser();
	const onAbort = (): void => {
		reader.cancel(signal?.reason).catch(() => undefined);
	};
	signal?.addEventListener('abort', onAbort, { once: true });
	let ended = false;
	try {
		for (;;) {
			signal?.throwIfAborted();
			const { done, value } = await reader.read();
			signal?.throwIfAborted();
			if (done) {
				ended = true;
				return;
			}
			for (const event of parser.push(decoder.decode(value, { stream: true }))) {
				signal?.throwIfAborted();
				yield event;
			}
		}
	} finally {
		signal?.removeEventListener('abort', onAbort);
		if (!ended) {
			await reader.cancel().catch(() => undefined);
		}
		reader.releaseLock();
	}
}
