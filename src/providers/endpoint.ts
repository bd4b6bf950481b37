// What both HTTP providers share around their requests, composed into each: the base URL, fetch
// and clock they were made with, the headers and key they send, every error without the key,
// and answers read as JSON of a schema or as an event stream (answer.ts) through the protocol's
// own AnswerReader.
import type * as z from 'zod';
import { systemClock, type Clock } from '../base/clock';
import { readAnswer, type AnswerReader } from './answer';
import { errorFromResponse, fetchOrFail } from './http';
import { parseJson } from './json';
import type { ProviderError, StreamEvent, StreamOptions } from './provider';
import { redactError, redacting } from './redact';

export interface HttpEndpointOptions {
	/** How errors name the server: "Anthropic", "the model server at localhost:11434". */
	readonly label: string;
	/** Up to where the provider's paths begin; trailing slashes are dropped. */
	readonly baseUrl: string;
	/** Sent with every request; the API key among them, if any. */
	readonly headers: Readonly<Record<string, string>>;
	/** The key in `headers`, which no error may quote. */
	readonly apiKey?: string;
	readonly fetch?: typeof fetch;
	/** For an HTTP-date `retry-after`. */
	readonly clock?: Clock;
	/** Anthropic's 529 "overloaded"; elsewhere a 529 is just a server error. */
	readonly overloadedStatus?: number;
}

export class HttpEndpoint {
	readonly label: string;
	readonly baseUrl: string;
	readonly fetch: typeof fetch;
	/** What every error is cleaned of: the key, when there is one. */
	private readonly secrets: readonly string[];
	private readonly clock: Clock;

	constructor(private readonly options: HttpEndpointOptions) {
		this.label = options.label;
		this.baseUrl = options.baseUrl.replace(/\/+$/, '');
		this.fetch = options.fetch ?? globalThis.fetch;
		this.clock = options.clock ?? systemClock;
		this.secrets = options.apiKey ? [options.apiKey] : [];
	}

	/** One HTTP exchange up to a 2xx response; anything else is thrown as a ProviderError, without the key. */
	async send(path: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
		try {
			const response = await fetchOrFail(this.fetch, this.label, `${this.baseUrl}${path}`, { ...init, headers: this.options.headers }, signal);
			if (!response.ok) {
				throw await errorFromResponse(
					this.label,
					response,
					{ now: this.clock.now(), ...(this.options.overloadedStatus === undefined ? {} : { overloadedStatus: this.options.overloadedStatus }) },
				);
			}
			return response;
		} catch (error) {
			throw redactError(error, this.secrets);
		}
	}

	/**
	 * POSTs the body as JSON and reads the answer as an event stream through `reader`: `accepted`,
	 * then its events; every error without the key. The body is made when the stream is first read.
	 */
	stream(path: string, body: () => unknown, signal: AbortSignal, options: StreamOptions, reader: AnswerReader): AsyncGenerator<StreamEvent, void, undefined> {
		return redacting(this.answer(path, body, signal, options, reader), this.secrets);
	}

	/** GETs `path` as JSON of `schema`'s shape; `problem` words what else came (an unreadable body, other JSON). */
	async getJson<S extends z.ZodType>(path: string, schema: S, signal: AbortSignal, problem: (cause: unknown) => ProviderError): Promise<z.output<S>> {
		const response = await this.send(path, { method: 'GET' }, signal);
		const text = await response.text().catch(() => undefined);
		return parseJson(text, schema, ({ cause }) => problem(cause));
	}

	private async *answer(
		path: string,
		body: () => unknown,
		signal: AbortSignal,
		options: StreamOptions,
		reader: AnswerReader,
	): AsyncGenerator<StreamEvent, void, undefined> {
		const response = await this.send(path, { method: 'POST', body: JSON.stringify(body()) }, signal);
		yield* readAnswer(response, this.label, signal, options, reader);
	}
}
