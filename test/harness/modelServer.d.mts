import type { IncomingHttpHeaders } from 'node:http';

export interface ScriptedToolCall {
	/** Defaults to a fresh `toolu_N` (Anthropic) or `call_N` (OpenAI). */
	readonly id?: string;
	readonly name: string;
	readonly input?: unknown;
	/** Sent instead of `JSON.stringify(input)`, e.g. to send invalid JSON. */
	readonly arguments?: string;
}

export interface ScriptedStep {
	/**
	 * Taken by the first chat request whose JSON body contains this string (a sub-agent's prompt,
	 * say), whenever it comes; steps without it answer the other requests in order.
	 */
	readonly match?: string;
	readonly text?: string;
	readonly toolCalls?: readonly ScriptedToolCall[];
	/**
	 * `input` is the whole prompt, cached parts included (as Aside counts it); `cacheRead` /
	 * `cacheWrite` go in each protocol's own fields: Anthropic's message_start usage
	 * (`cache_read_input_tokens`, `cache_creation_input_tokens`, and `input_tokens` the rest),
	 * OpenAI's `prompt_tokens_details.cached_tokens` (it has no cache writes).
	 */
	readonly usage?: { readonly input: number; readonly output: number; readonly cacheRead?: number; readonly cacheWrite?: number };
	/** A neutral stop reason ('end', 'tool-use', 'max-tokens', 'refusal') or a wire one sent as is. */
	readonly stop?: string;
	/** Any status but 200 answers with an error body in the endpoint's format (with `raw`: the raw answer's status). */
	readonly status?: number;
	/** `retry-after` in seconds. */
	readonly retryAfter?: number | string;
	/** `retry-after-ms`. */
	readonly retryAfterMs?: number;
	/** The error body's message and type. */
	readonly message?: string;
	readonly errorType?: string;
	/** An OpenAI error body's `code` (`context_length_exceeded`, say); null when absent. */
	readonly errorCode?: string;
	/** An error event in the stream after the text (if any), in place of the rest of the reply. */
	readonly streamError?: { readonly type: string; readonly message: string };
	/** Send this many SSE events, then destroy the socket. */
	readonly cutAfterChunks?: number;
	/** Wait this long before answering (after the request is recorded). */
	readonly delayMs?: number;
	/** Send the headers and the first event, then wait until the client disconnects. */
	readonly hangAfterAccept?: boolean;
	/** For a model-list step: the ids to list. */
	readonly models?: readonly string[];
	/** Answers with these chunks byte for byte (status `status` or 200), instead of a scripted reply. */
	readonly raw?: readonly string[];
	/** Headers of a raw answer, over `content-type: text/event-stream`. */
	readonly headers?: Readonly<Record<string, string>>;
	/** A raw answer waits this long before each chunk. */
	readonly gapMs?: number;
	/** After the raw chunks, this chunk again and again until the client goes away. */
	readonly repeat?: string;
	/** How a raw answer ends: 'close' (default), 'cut' (the socket is destroyed) or 'hang' (until the client goes away). */
	readonly end?: 'close' | 'cut' | 'hang';
	/** Answers with a redirect (default status 307) to `location`. */
	readonly redirect?: { readonly status?: number; readonly location: string };
}

/** A reply of a served endpoint (`ModelServer.serve`). */
export interface ServedReply {
	/** Default 200. */
	readonly status?: number;
	/** Sent as JSON. */
	readonly body?: unknown;
	/** Sent as plain text instead of `body` (Ollama's "404 page not found"). */
	readonly text?: string;
	/** Send nothing until the client goes away. */
	readonly hang?: boolean;
}

export interface ReceivedRequest {
	readonly method: string;
	readonly path: string;
	readonly headers: IncomingHttpHeaders;
	/** The parsed JSON body; the raw text when not JSON; undefined when empty. */
	readonly body: unknown;
}

export interface ModelServer {
	/** `http://127.0.0.1:PORT`: the Anthropic base URL; add `/v1` for an OpenAI-compatible one. */
	readonly url: string;
	readonly port: number;
	/** Every request received, in order, recorded before it is answered. */
	readonly requests: ReceivedRequest[];
	/** Queues replies to chat requests, one per request; unscripted requests get "ok". */
	script(...steps: (ScriptedStep | readonly ScriptedStep[])[]): void;
	/** Queues replies to model-list requests. */
	scriptModels(...steps: (ScriptedStep | readonly ScriptedStep[])[]): void;
	/**
	 * Answers `method path` (exact) with these replies, one per request, the last one repeated:
	 * a server's own endpoints beside the chat API, with bodies in the real servers' shapes. Takes
	 * precedence over the chat and model-list routes.
	 */
	serve(method: 'GET' | 'POST', path: string, ...replies: (ServedReply | readonly ServedReply[])[]): void;
	/** Chat steps not yet consumed. */
	pending(): number;
	/** How many clients went away before their reply ended (not counting scripted cuts). */
	disconnects(): number;
	/** Resolves once `disconnects()` reaches `count` (default 1): a Stop really closed the connection. */
	waitForDisconnects(count?: number): Promise<void>;
	close(): Promise<void>;
}

export declare function startModelServer(options?: { readonly models?: readonly string[] }): Promise<ModelServer>;
