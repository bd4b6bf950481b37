// OpenAI-compatible Chat Completions (OpenAI, Ollama, llama.cpp, vLLM, LM Studio…) on fetch +
// SSE: the neutral history as chat messages with `tool` role results, the request through the
// shared HttpEndpoint, and the streamed chunks back as StreamEvents (openaiChunks.ts).
import * as z from 'zod';
import { randomIds, type Clock, type IdSource } from '../base/clock';
import type { DiscoveredWindow } from './contextWindow';
import { HttpEndpoint } from './endpoint';
import { openAIImageMessage, openAIImagesFollow, type OpenAIUserPart } from './imageParts';
import { openAIUserContent } from './userImages';
import { alternating, type AssistantMessage, type ChatMessage } from './messages';
import { CompletionAssembler } from './openaiChunks';
import { ProviderError, type ChatProvider, type ChatRequest, type ModelInfo, type StreamEvent, type StreamOptions } from './provider';
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
	| { role: 'user'; content: OpenAIUserPart[] }
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
export function toOpenAIMessages(system: string, messages: readonly ChatMessage[], takesImages = true): OpenAIMessage[] {
	const out: OpenAIMessage[] = system === '' ? [] : [{ role: 'system', content: system }];
	for (const entry of alternating(messages)) {
		if (entry.role === 'assistant') {
			out.push(assistantMessage(entry));
			continue;
		}
		out.push(
			...entry.results.map((result): OpenAIMessage => ({
				role: 'tool',
				tool_call_id: result.callId,
				content: result.images?.length ? [result.content, openAIImagesFollow(result.images.length)].filter((text) => text !== '').join('\n\n') : result.content,
			})),
		);
		// Images go in one user message right after the tool messages (a tool message takes only text).
		const images = openAIImageMessage(entry.results);
		if (images) {
			out.push(images);
		}
		for (const parts of entry.texts) {
			// A person's images go after their words, as image_url parts.
			const content = openAIUserContent(parts, takesImages);
			if (content !== undefined) {
				out.push(typeof content === 'string' ? { role: 'user', content } : { role: 'user', content });
			}
		}
	}
	return out;
}

/**
 * The request body. Its keys keep one order, the stable parts (tools) before `messages`, and
 * nothing in the system prompt or the tools varies between requests: servers that cache a prompt
 * prefix (OpenAI's automatic prompt caching, vLLM and llama.cpp prefix caching) reuse all of it.
 */
export function openAIBody(request: ChatRequest): Record<string, unknown> {
	const tools = request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }));
	return {
		model: request.model,
		max_tokens: request.maxOutputTokens,
		// OpenAI refuses an empty tools array, and a tool_choice without tools.
		...(tools.length === 0 ? {} : { tools }),
		...(request.toolChoice === 'none' && tools.length > 0 ? { tool_choice: 'none' } : {}),
		messages: toOpenAIMessages(request.system, request.messages, request.imageInput !== false),
		stream: true,
		stream_options: { include_usage: true },
	};
}

const ModelList = z.object({ data: z.array(ListedWindow.extend({ id: z.string() })) });

export class OpenAICompatibleProvider implements ChatProvider {
	readonly id = 'openai-compatible';
	private readonly http: HttpEndpoint;

	constructor(private readonly options: OpenAICompatibleOptions) {
		const baseUrl = options.baseUrl.replace(/\/+$/, '');
		this.http = new HttpEndpoint({
			label: `the model server at ${hostOf(baseUrl)}`,
			baseUrl,
			headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
			...(options.apiKey ? { apiKey: options.apiKey } : {}),
			...(options.fetch ? { fetch: options.fetch } : {}),
			...(options.clock ? { clock: options.clock } : {}),
		});
	}

	stream(request: ChatRequest, signal: AbortSignal, options: StreamOptions = {}): AsyncGenerator<StreamEvent, void, undefined> {
		return this.http.stream('/chat/completions', () => openAIBody(request), signal, options, new CompletionAssembler(this.http.label, this.options.ids ?? randomIds));
	}

	async listModels(signal: AbortSignal): Promise<readonly ModelInfo[]> {
		const { data } = await this.http.getJson('/models', ModelList, signal, (cause) => new ProviderError('stream', `The model list from ${this.http.label} has an unexpected shape.`, { cause }));
		return data.map((model) => {
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
		return askServer((method, url, body) => this.probe(method, url, body, signal), serverRoot(this.http.baseUrl), model);
	}

	/** A discovery request: any status is an answer; the key goes only to the origin the chat requests go to. */
	private async probe(method: 'GET' | 'POST', url: string, body: unknown, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
		const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
		if (this.options.apiKey && new URL(url).origin === new URL(this.http.baseUrl).origin) {
			headers.authorization = `Bearer ${this.options.apiKey}`;
		}
		// A redirect is no answer (and is never followed with the key): its status says "unknown".
		const response = await this.http.fetch(url, { method, headers, signal, redirect: 'manual', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
		const text = await response.text();
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			// Not JSON (Ollama's "404 page not found"): the status says enough.
		}
		return { status: response.status, body: json };
	}
}

function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return url;
	}
}
