// Server-Sent Events as the WHATWG spec parses them (text/event-stream), over a fetch body.
// Both HTTP providers stream this way; the parser is incremental because the network splits
// chunks anywhere: inside a line, between a CR and its LF, inside a UTF-8 character. Three
// departures from the spec, for the servers as they are: the last event of a body that ends
// cleanly without its blank line still counts (gateways close right after the last data line,
// and both official SDKs accept that), llama.cpp's non-standard `error:` field is kept, and one
// event may not grow without bound.

export interface SseEvent {
	/** The `event:` field; absent for the default type ("message"). */
	readonly event?: string;
	/** The `data:` lines joined with `\n`. */
	readonly data: string;
	/** The last `id:` seen on the stream, which the spec carries over to later events. */
	readonly id?: string;
	/** The `error:` lines joined with `\n`: how llama.cpp's server (before late 2025) reports a failure after HTTP 200. */
	readonly error?: string;
	/** The body ended before the blank line that ends this event; its last line may be cut short. */
	readonly unterminated?: true;
}

/** More than this many characters in one event (or one line) is not a stream worth buffering. */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/** One event (or one line) outgrew the cap before it ended. */
export class SseEventTooLarge extends Error {
	override readonly name = 'SseEventTooLarge';

	/** The cap in words: "16 million characters". */
	readonly size: string;

	constructor(readonly limit: number) {
		const size = limit >= 1024 * 1024 ? `${Math.round(limit / (1024 * 1024))} million characters` : `${limit} characters`;
		super(`The event stream sent more than ${size} in one event without ending it.`);
		this.size = size;
	}
}

const LF = 0x0a;
const CR = 0x0d;

export interface SseParserOptions {
	readonly maxEventChars?: number;
}

/**
 * The line-level parser, fed decoded text. An event is dispatched by a blank line, or by `end()`
 * when the body ends cleanly; what is pending when the body breaks is never dispatched.
 */
export class SseParser {
	private partialLine = '';
	/** The last chunk ended with CR: an LF starting the next one belongs to the same break. */
	private afterCr = false;
	private data: string[] = [];
	private errors: string[] = [];
	/** Characters held for the pending event: its data and error lines so far. */
	private held = 0;
	private eventType = '';
	private lastId: string | undefined;
	private readonly maxEventChars: number;
	/** Complete lines seen so far, blank ones and comments included. */
	lines = 0;

	constructor(options: SseParserOptions = {}) {
		this.maxEventChars = options.maxEventChars ?? MAX_EVENT_CHARS;
	}

	/** The events that `text` completes. Throws SseEventTooLarge when the pending event outgrows the cap. */
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
			this.lines++;
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
		this.check(this.partialLine.length);
		return events;
	}

	/** The body ended cleanly: a last line without its break is a line, a pending event an event. */
	end(): SseEvent[] {
		const events: SseEvent[] = [];
		if (this.partialLine !== '') {
			this.line(this.partialLine, events);
			this.partialLine = '';
		}
		this.dispatch(events, true);
		return events;
	}

	private check(pending: number): void {
		if (this.held + pending > this.maxEventChars) {
			throw new SseEventTooLarge(this.maxEventChars);
		}
	}

	private line(line: string, events: SseEvent[]): void {
		if (line === '') {
			this.dispatch(events, false);
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
				this.hold(this.data, value);
				break;
			case 'error':
				this.hold(this.errors, value);
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

	private hold(lines: string[], value: string): void {
		this.check(value.length + 1);
		this.held += value.length + 1;
		lines.push(value);
	}

	private dispatch(events: SseEvent[], unterminated: boolean): void {
		if (this.data.length > 0 || this.errors.length > 0) {
			events.push({
				data: this.data.join('\n'),
				...(this.eventType === '' ? {} : { event: this.eventType }),
				...(this.lastId === undefined ? {} : { id: this.lastId }),
				...(this.errors.length === 0 ? {} : { error: this.errors.join('\n') }),
				...(unterminated ? { unterminated: true as const } : {}),
			});
		}
		this.data = [];
		this.errors = [];
		this.held = 0;
		this.eventType = '';
	}
}

export interface ReadSseOptions extends SseParserOptions {
	/**
	 * Called once for each chunk of the body that completes at least one line (a comment, a blank
	 * line, a piece of tool arguments): the server is at work even when no event comes out.
	 * Bytes that complete no line are not progress.
	 */
	readonly onProgress?: () => void;
}

/**
 * Reads the events of a body until it ends. When `signal` fires, the reader is cancelled (which
 * closes the connection) and iteration throws the signal's reason; leaving the loop early, or an
 * event that outgrows the cap (SseEventTooLarge), cancels it too.
 */
export async function* readSse(
	body: ReadableStream<Uint8Array>,
	signal?: AbortSignal,
	options: ReadSseOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
	const reader = body.getReader();
	const decoder = new TextDecoder();
	const parser = new SseParser(options);
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
				yield* parser.push(decoder.decode());
				yield* parser.end();
				return;
			}
			const lines = parser.lines;
			const events = parser.push(decoder.decode(value, { stream: true }));
			if (parser.lines > lines) {
				options.onProgress?.();
			}
			for (const event of events) {
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
