// A 200 answer as the providers read it: an event stream, read through the protocol's own
// AnswerReader (`readAnswer`), or — from a wrong aside.baseUrl, a captive portal, a proxy's error
// page, a server that ignored `stream: true` — something else, which is reported as what it is
// (an HTML page, JSON, nothing) rather than as a cut-off stream.
import type * as z from 'zod';
import { errorMessageOf, failureOf, kindForStatus, readText } from './http';
import { parseJson, type JsonProblem } from './json';
import { ProviderError, type StreamEvent, type StreamOptions } from './provider';
import { readSse, SseEventTooLarge, type SseEvent } from './sse';
import { overflowKind } from './overflow';

/** How much of a non-stream answer is read to say what it was. */
const HEAD_CHARS = 64 * 1024;

function mediaTypeOf(response: Response): string {
	return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The visible words of an HTML page: its title, else its first heading, else its text. */
function pageSummary(html: string): string {
	const inner = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1] ?? html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ');
	const text = inner.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
	return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** The error for a 200 answer that held `text` instead of an event stream. */
export function notAnEventStream(label: string, text: string): ProviderError {
	const trimmed = text.trim();
	if (trimmed === '') {
		return new ProviderError('stream', `${label} sent an empty answer instead of an event stream.`);
	}
	if (trimmed.startsWith('<')) {
		const summary = pageSummary(trimmed);
		return new ProviderError('stream', `${label} sent an HTML page${summary ? ` ("${summary}")` : ''} instead of an event stream; check that aside.baseUrl points at the API.`);
	}
	if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
		return new ProviderError('stream', `${label} sent JSON instead of an event stream: ${errorMessageOf(trimmed)}`);
	}
	return new ProviderError('stream', `${label} sent text instead of an event stream: ${errorMessageOf(trimmed)}`);
}

/** The error for an event stream that ended cleanly without a single event. */
export function noEvents(label: string, sentLines: boolean): ProviderError {
	return sentLines ? new ProviderError('stream', `${label} ended the event stream without sending any event.`) : notAnEventStream(label, '');
}

/**
 * The body of a 200 answer, to read as an event stream. A body not labelled `text/event-stream`
 * is looked at first: one that is plainly an HTML page, JSON or empty fails here, before the
 * request counts as accepted; anything else (an event stream with a wrong label) is passed on.
 */
export async function eventStreamOf(response: Response, label: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
	const body: ReadableStream<Uint8Array> | null = response.body;
	if (!body) {
		throw notAnEventStream(label, '');
	}
	if (mediaTypeOf(response) === 'text/event-stream') {
		return body;
	}
	const reader = body.getReader();
	const decoder = new TextDecoder();
	const chunks: Uint8Array[] = [];
	let text = '';
	let ended = false;
	try {
		while (!ended && text.trim() === '' && text.length < HEAD_CHARS) {
			const { done, value } = await reader.read();
			if (done) {
				ended = true;
			} else {
				chunks.push(value);
				text += decoder.decode(value, { stream: true });
			}
		}
	} catch (error) {
		reader.releaseLock();
		throw failureOf(error, signal, (cause) => new ProviderError('network', `The answer from ${label} broke off before it started.`, { cause }));
	}
	const first = text.trimStart().charAt(0);
	if (first === '' || first === '<' || first === '{' || first === '[') {
		reader.releaseLock();
		const rest = ended ? '' : await readText(body, HEAD_CHARS - text.length).catch(() => '');
		throw notAnEventStream(label, text + rest);
	}
	return replayed(chunks, reader, ended);
}

/** A stream of the chunks already read, then the rest of the reader's. */
function replayed(chunks: readonly Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>, ended: boolean): ReadableStream<Uint8Array> {
	return new ReadableStream<Uint8Array>({
		start(controller) {
			for (const chunk of chunks) {
				controller.enqueue(chunk);
			}
			if (ended) {
				controller.close();
			}
		},
		async pull(controller) {
			const { done, value } = await reader.read();
			if (done) {
				controller.close();
			} else {
				controller.enqueue(value);
			}
		},
		cancel(reason) {
			return reader.cancel(reason);
		},
	});
}

/** llama.cpp's `error:` field (`{"code":400,"message":…}`) as a ProviderError with the server's message. */
export function errorFieldOf(label: string, value: string): ProviderError {
	let code: unknown;
	try {
		code = (JSON.parse(value) as { code?: unknown } | null)?.code;
	} catch {
		// Not JSON: the text itself is the message.
	}
	const kind = overflowKind(typeof code === 'number' && code >= 400 ? kindForStatus(code) : 'server', undefined, value);
	return new ProviderError(kind, `${label} reported an error: ${errorMessageOf(value)}`, typeof code === 'number' ? { status: code } : {});
}

/** What broke reading a stream, as a ProviderError; `cutOff` words a broken connection. */
export function readFailure(label: string, error: unknown, signal: AbortSignal, cutOff: (cause: unknown) => ProviderError): ProviderError {
	if (!signal.aborted && error instanceof SseEventTooLarge) {
		return new ProviderError('stream', `${label} sent more than ${error.size} in one event without ending it; Aside stopped reading the answer.`, { cause: error });
	}
	return failureOf(error, signal, cutOff);
}

/** What one protocol makes of the events of its answer (Anthropic's message events, OpenAI's chunks). */
export interface AnswerReader {
	/** The StreamEvents one event gives; throws a ProviderError for an event that fails the answer. */
	take(event: SseEvent): readonly StreamEvent[];
	/** The answer said all it will (Anthropic's message_stop, OpenAI's `[DONE]`): reading stops. */
	readonly complete: boolean;
	/** The body ended after an event, or the answer is complete: its last StreamEvents, or the error for an answer that is not whole. */
	end(): readonly StreamEvent[];
	/** The error for an answer that broke off; `cause` is what broke it. */
	cutOff(cause?: unknown): ProviderError;
}

/**
 * A 2xx answer as StreamEvents: `accepted` once it is an event stream, then what `reader` makes
 * of each event, until the answer is complete or the body ends. llama.cpp's `error:` field, a
 * body without a single event, an event past the cap and a broken connection fail it here.
 */
export async function* readAnswer(
	response: Response,
	label: string,
	signal: AbortSignal,
	options: StreamOptions,
	reader: AnswerReader,
): AsyncGenerator<StreamEvent, void, undefined> {
	const body = await eventStreamOf(response, label, signal);
	yield { type: 'accepted' };
	let events = 0;
	let lines = false;
	const onProgress = (): void => {
		lines = true;
		options.onProgress?.();
	};
	try {
		for await (const sse of readSse(body, signal, { onProgress })) {
			events++;
			if (sse.error !== undefined) {
				throw errorFieldOf(label, sse.error);
			}
			yield* reader.take(sse);
			if (reader.complete) {
				break;
			}
		}
	} catch (error) {
		throw readFailure(label, error, signal, (cause) => reader.cutOff(cause));
	}
	if (events === 0) {
		throw noEvents(label, lines);
	}
	yield* reader.end();
}

/**
 * An event's data as JSON of `schema`'s shape, else the error `problem` words. The body ended
 * inside an event whose data is not JSON: that is a cut (`reader.cutOff`), not a server that
 * speaks nonsense.
 */
export function parseEvent<S extends z.ZodType>(sse: SseEvent, schema: S, reader: Pick<AnswerReader, 'cutOff'>, problem: (problem: JsonProblem) => ProviderError): z.output<S> {
	return parseJson(sse.data, schema, (found) => (found.kind === 'json' && sse.unterminated ? reader.cutOff() : problem(found)));
}
