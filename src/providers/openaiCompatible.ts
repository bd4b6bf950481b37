// OpenAI-compatible Chat Completions (OpenAI, Ollama, llama.cpp, vLLM, LM Studio…) on fetch +
// SSE: the neutral history as chat messages with `tool` role results, and the streamed chunks
// back as StreamEvents.
import * as z from 'zod';
import { randomIds, systemClock, type Clock, type IdSource } from '../base/clock';
import { alternating, type AssistantMessage, type ChatMessage } from './messages';
import { errorFieldOf, eventStreamOf, noEvents, readFailure } from './answer';
import { errorFromResponse, fetchOrFail } from './http';
import { ProviderError, type ChatProvider, type ChatRequest, type ModelInfo, type StreamEvent, type StreamOptions } from './provider';
import { redactError, redacting } from './redact';
import { Chunk, CompletionAssembler } from './openaiChunks';
import { readSse, type SseEvent } from './sse';
import type { DiscoveredWindow } from './contextWindow';
import { askServer, ListedWindow, listedWindow, serverRoot } from './serverWindow';

export interface OpenAICompatibleOptions {
	/** Up to the version segment, e.g. `http://localhost:11434/v1`. */
	readonly baseUrl: string;
	/** Sent as a bearer token when given; local servers such as Ollama need none. */
	readonly apiKey?: string;
	readonly fetch?: typeof fetch;
	readonly clock?: Clock;
	/** For tool calls a server streams without an id. */
	readonly ids?: IdSource;
}

export type OpenAIMessage =
	| { role: 'system' | 'user'; content: string }
	| { role: 'tool'; tool_call_id: string; content: string }
	| { role: 'assistant'; content?: string; tool_calls?: OpenAIToolCall[] };

export interface OpenAIToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

function assistantMessage(message: AssistantMessage): OpenAIMessage {
	const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
	const calls = message.content.flatMap((part): OpenAIToolCall[] =>
		part.type === 'tool-call' ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } }] : [],
	);
	// A tool-only message leaves `content` out: Ollama refuses null, and "" in the history
	// makes some models answer with tool markup in text.
	return { role: 'assistant', ...(text === '' ? {} : { content: text }), ...(calls.length === 0 ? {} : { tool_calls: calls }) };
}

/**
 * The neutral history as chat messages. In each user turn the tool results come first, as `tool`
 * messages (they must follow the assistant's tool_calls), then one user message per user message
 * that had text.
 */
export function toOpenAIMessages(system: string, messages: readonly ChatMessage[]): OpenAIMessage[] {
	const out: OpenAIMessage[] = system === '' ? [] : [{ role: 'system', content: system }];
	for (const entry of alternating(messages)) {
		if (entry.role === 'assistant') {
			out.push(assistantMessage(entry));
			continue;
		}
		out.push(...entry.results.map((result): OpenAIMessage => ({ role: 'tool', tool_call_id: result.callId, content: result.content })));
		for (const parts of entry.texts) {
			const text = parts.flatMap((part) => (part.text === '' ? [] : [part.text]));
			if (text.length > 0) {
				out.push({ role: 'user', content: text.join('\n\n') });
			}
		}
	}
	return out;
}

export function openAIBody(request: ChatRequest): Record<string, unknown> {
	return {
		model: request.model,
		messages: toOpenAIMessages(request.system, request.messages),
		// OpenAI refuses an empty tools array.
		...(request.tools.length === 0
			? {}
			: { tools: request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })) }),
		stream: true,
		stream_options: { include_usage: true },
		max_tokens: request.maxOutputTokens,
	};
}

const ModelList = z.object({ data: z.array(ListedWindow.extend({ id: z.string() })) });

export class OpenAICompatibleProvider implements ChatProvider {
	readonly id = 'openai-compatible';
	private readonly baseUrl: string;
	private readonly label: string;
	private readonly fetch: typeof fetch;
	private readonly clock: Clock;

	constructor(private readonly options: OpenAICompatibleOptions) {
		this.baseUrl = options.baseUrl.replace(/\/+$/, '');
		this.label = `the model server at ${hostOf(this.baseUrl)}`;
		this.fetch = options.fetch ?? globalThis.fetch;
		this.clock = options.clock ?? systemClock;
	}

	stream(request: ChatRequest, signal: AbortSignal, options: StreamOptions = {}): AsyncGenerator<StreamEvent, void, undefined> {
		return redacting(this.events(request, signal, options), this.secrets());
	}

	private async *events(request: ChatRequest, signal: AbortSignal, options: StreamOptions): AsyncGenerator<StreamEvent, void, undefined> {
		const response = await this.send('/chat/completions', { method: 'POST', body: JSON.stringify(openAIBody(request)) }, signal);
		const body = await eventStreamOf(response, this.label, signal);
		yield { type: 'accepted' };
		const assembler = new CompletionAssembler(this.label, this.options.ids ?? randomIds);
		let done = false;
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
					throw errorFieldOf(this.label, sse.error);
				}
				if (sse.data === '[DONE]') {
					done = true;
					break;
				}
				yield* assembler.take(this.parseChunk(sse));
			}
		} catch (error) {
			throw readFailure(this.label, error, signal, (cause) => this.cutOff(cause));
		}
		if (done && !assembler.answered) {
			// llama.cpp ends a failed request this way too; an empty stop would make the turn ask again.
			throw new ProviderError('stream', `${this.label} ended the stream without an answer: [DONE] came before any text, tool call or finish reason.`);
		}
		// A server that ends the stream after finish_reason without [DONE] still said all it had.
		if (!done && !assembler.finished) {
			throw events === 0 ? noEvents(this.label, lines) : this.cutOff();
		}
		yield* assembler.finish();
	}

	async listModels(signal: AbortSignal): Promise<readonly ModelInfo[]> {
		const response = await this.send('/models', { method: 'GET' }, signal);
		const parsed = ModelList.safeParse(await response.json().catch(() => undefined));
		if (!parsed.success) {
			throw new ProviderError('stream', `The model list from ${this.label} has an unexpected shape.`, { cause: parsed.error });
		}
		return parsed.data.data.map((model) => {
			const listed = listedWindow(model);
			return { id: model.id, name: model.id, ...(listed ? { contextWindow: listed } : {}) };
		});
	}

	/**
	 * The model's context window, asked of the server: the model list (vLLM, OpenRouter), then the
	 * endpoints of llama.cpp, Ollama and LM Studio at the server's root. Never throws for a server
	 * that is not of a kind asked; a server that cannot be reached is an unsettled "unknown".
	 */
	async contextWindow(model: string, signal: AbortSignal): Promise<DiscoveredWindow> {
		try {
			const listed = (await this.listModels(signal)).find((entry) => entry.id === model)?.contextWindow;
			if (listed !== undefined) {
				return { tokens: listed, settled: true, source: 'the model list' };
			}
		} catch (error) {
			if (signal.aborted) {
				throw error;
			}
			// A list that fails says nothing about /props or /api/show; ask them anyway.
		}
		return askServer((method, url, body) => this.probe(method, url, body, signal), serverRoot(this.baseUrl), model);
	}

	private parseChunk(sse: SseEvent): Chunk {
		let json: unknown;
		try {
			json = JSON.parse(sse.data);
		} catch (error) {
			// The body ended inside its last event: that is a cut, not a server that speaks nonsense.
			throw sse.unterminated ? this.cutOff() : new ProviderError('stream', `${this.label} sent a chunk that is not JSON.`, { cause: error });
		}
		const parsed = Chunk.safeParse(json);
		if (!parsed.success) {
			throw new ProviderError('stream', `${this.label} sent a chunk with an unexpected shape.`, { cause: parsed.error });
		}
		return parsed.data;
	}

	private cutOff(cause?: unknown): ProviderError {
		const reason = cause instanceof Error ? ` (${cause.message})` : '';
		return new ProviderError('stream', `The response from ${this.label} was cut off before it ended${reason}.`, { cause });
	}

	/** A discovery request: any status is an answer; the key goes only to the origin the chat requests go to. */
	private async probe(method: 'GET' | 'POST', url: string, body: unknown, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
		const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
		if (this.options.apiKey && new URL(url).origin === new URL(this.baseUrl).origin) {
			headers.authorization = `Bearer ${this.options.apiKey}`;
		}
		// A redirect is no answer (and is never followed with the key): its status says "unknown".
		const response = await this.fetch(url, { method, headers, signal, redirect: 'manual', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
		const text = await response.text();
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			// Not JSON (Ollama's "404 page not found"): the status says enough.
		}
		return { status: response.status, body: json };
	}

	/** One HTTP exchange up to a 2xx response; anything else is thrown as a ProviderError, without the key. */
	private async send(path: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
		const headers: Record<string, string> = { 'content-type': 'application/json' };
		if (this.options.apiKey) {
			headers.authorization = `Bearer ${this.options.apiKey}`;
		}
		try {
			const response = await fetchOrFail(this.fetch, this.label, `${this.baseUrl}${path}`, { ...init, headers }, signal);
			if (!response.ok) {
				throw await errorFromResponse(this.label, response, { now: this.clock.now() });
			}
			return response;
		} catch (error) {
			throw redactError(error, this.secrets());
		}
	}

	private secrets(): string[] {
		return this.options.apiKey ? [this.options.apiKey] : [];
	}
}

function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return url;
	}
}
