// The Anthropic Messages API on fetch + SSE: the neutral history in Anthropic's shape (strict
// user/assistant alternation, tool results first in a user message), the request through the
// shared HttpEndpoint, and its event stream back as StreamEvents (anthropicEvents.ts).
import * as z from 'zod';
import type { Clock } from '../base/clock';
import { errorMessage } from '../base/errors';
import { type CacheControlled, EPHEMERAL, markMessageBreakpoints, MAX_BREAKPOINTS } from './anthropicCache';
import { ANTHROPIC_LABEL, MessageAssembler, unreadable } from './anthropicEvents';
import type { DiscoveredWindow } from './contextWindow';
import { HttpEndpoint } from './endpoint';
import { type AnthropicImageBlock, type AnthropicResultContent, anthropicResultContent } from './imageParts';
import { anthropicUserBlocks } from './userImages';
import { alternating, type AssistantMessage, type ChatMessage, type ToolResultPart, type UserTurn } from './messages';
import { ProviderError, type ChatProvider, type ChatRequest, type ModelInfo, type StreamEvent, type StreamOptions } from './provider';

/** The public API; a proxy or gateway is configured with `baseUrl`. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

const OVERLOADED = 529;

export interface AnthropicOptions {
	readonly apiKey: string;
	readonly baseUrl?: string;
	readonly fetch?: typeof fetch;
	readonly clock?: Clock;
}

export type AnthropicBlock = (
	| { type: 'text'; text: string }
	| { type: 'tool_use'; id: string; name: string; input: unknown }
	| { type: 'tool_result'; tool_use_id: string; content: string | AnthropicResultContent; is_error?: true }
	| AnthropicImageBlock
) &
	CacheControlled;

export interface AnthropicMessage {
	role: 'user' | 'assistant';
	content: AnthropicBlock[];
}

function resultBlock(part: ToolResultPart): AnthropicBlock {
	// A result with images is a content array (text, then image blocks); one without stays a string.
	const content = part.images?.length ? anthropicResultContent(part.content, part.images) : part.content;
	return { type: 'tool_result', tool_use_id: part.callId, content, ...(part.isError ? { is_error: true as const } : {}) };
}

function blocksOf(entry: AssistantMessage | UserTurn, takesImages: boolean): AnthropicBlock[] {
	if (entry.role === 'assistant') {
		return entry.content.map((part): AnthropicBlock => (part.type === 'tool-call' ? { type: 'tool_use', id: part.id, name: part.name, input: part.input } : { type: 'text', text: part.text }));
	}
	// The API refuses empty text blocks; a person's images go before their words.
	const texts = entry.texts.flat().flatMap((part): AnthropicBlock[] => anthropicUserBlocks(part, takesImages));
	return [...entry.results.map(resultBlock), ...texts];
}

/**
 * The neutral history as Anthropic messages, which must alternate: one user message per user
 * turn (tool results first), and adjacent assistant messages merged.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[], takesImages = true): AnthropicMessage[] {
	const out: AnthropicMessage[] = [];
	for (const entry of alternating(messages)) {
		const blocks = blocksOf(entry, takesImages);
		if (blocks.length === 0) {
			continue;
		}
		const previous = out.at(-1);
		if (previous?.role === entry.role) {
			previous.content.push(...blocks);
		} else {
			out.push({ role: entry.role, content: blocks });
		}
	}
	return out;
}

/**
 * The request body. Its keys go stable parts first and `messages` last, so two requests of a turn
 * share their bytes from the start for as long as they can; the cache breakpoints are in
 * anthropicCache.ts.
 */
export function anthropicBody(request: ChatRequest): Record<string, unknown> {
	const messages = toAnthropicMessages(request.messages, request.imageInput !== false);
	// The system prompt goes as one text block: a plain string cannot carry a breakpoint.
	const system = request.system.trim() === '' ? undefined : [{ type: 'text', text: request.system, cache_control: EPHEMERAL }];
	const tools = request.tools.map((tool, index): Record<string, unknown> => ({
		name: tool.name,
		description: tool.description,
		input_schema: tool.inputSchema,
		...(index === request.tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
	}));
	markMessageBreakpoints(request.messages, messages, MAX_BREAKPOINTS - (system ? 1 : 0) - (tools.length > 0 ? 1 : 0));
	return {
		model: request.model,
		max_tokens: request.maxOutputTokens,
		// Both are omitted rather than sent empty, which the API can refuse.
		...(system ? { system } : request.system === '' ? {} : { system: request.system }),
		...(tools.length === 0 ? {} : { tools }),
		// The API takes tool_choice only beside tools; with none offered, none can be called anyway.
		...(request.toolChoice === 'none' && tools.length > 0 ? { tool_choice: { type: 'none' } } : {}),
		messages,
		stream: true,
	};
}

/** A model of the Models API; `max_input_tokens` is its context window ("maximum input context window size"). */
const ModelEntry = z.object({ id: z.string(), display_name: z.string().optional(), max_input_tokens: z.unknown().optional() });

function windowOf(entry: z.infer<typeof ModelEntry>): number | undefined {
	return z.number().int().positive().safeParse(entry.max_input_tokens).data;
}

const ModelPage = z.object({
	data: z.array(ModelEntry),
	has_more: z.boolean().optional(),
	last_id: z.string().nullish(),
});

export class AnthropicProvider implements ChatProvider {
	readonly id = 'anthropic';
	private readonly http: HttpEndpoint;

	constructor(options: AnthropicOptions) {
		this.http = new HttpEndpoint({
			label: ANTHROPIC_LABEL,
			baseUrl: options.baseUrl ?? ANTHROPIC_BASE_URL,
			headers: { 'x-api-key': options.apiKey, 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json' },
			apiKey: options.apiKey,
			overloadedStatus: OVERLOADED,
			...(options.fetch ? { fetch: options.fetch } : {}),
			...(options.clock ? { clock: options.clock } : {}),
		});
	}

	stream(request: ChatRequest, signal: AbortSignal, options: StreamOptions = {}): AsyncGenerator<StreamEvent, void, undefined> {
		return this.http.stream('/v1/messages', () => anthropicBody(request), signal, options, new MessageAssembler());
	}

	async listModels(signal: AbortSignal): Promise<readonly ModelInfo[]> {
		const models: ModelInfo[] = [];
		let after: string | undefined;
		// Pages are followed to the end, with a cap in case a server repeats its cursor.
		for (let page = 0; page < 20; page++) {
			const query = `?limit=1000${after === undefined ? '' : `&after_id=${encodeURIComponent(after)}`}`;
			const { data, has_more, last_id } = await this.http.getJson(`/v1/models${query}`, ModelPage, signal, (cause) => unreadable('the model list has an unexpected shape', cause));
			models.push(...data.map((m) => {
				const contextWindow = windowOf(m);
				return { id: m.id, name: m.display_name ?? m.id, ...(contextWindow ? { contextWindow } : {}) };
			}));
			if (!has_more || !last_id) {
				break;
			}
			after = last_id;
		}
		return models;
	}

	/**
	 * The model's context window from the Models API (`GET /v1/models/{id}`, which also resolves an
	 * alias). A gateway without that endpoint, or a model it does not describe, is a settled
	 * "unknown"; a refused key or an unreachable API may answer later.
	 */
	async contextWindow(model: string, signal: AbortSignal): Promise<DiscoveredWindow> {
		const source = 'the Anthropic Models API (max_input_tokens)';
		let body: unknown;
		try {
			const response = await this.http.send(`/v1/models/${encodeURIComponent(model)}`, { method: 'GET' }, signal);
			body = await response.json().catch(() => undefined);
		} catch (error) {
			if (signal.aborted) {
				throw error;
			}
			const later = error instanceof ProviderError && (error.retryable || error.kind === 'auth');
			return { settled: !later, source, detail: errorMessage(error) };
		}
		const parsed = ModelEntry.safeParse(body);
		const tokens = parsed.success ? windowOf(parsed.data) : undefined;
		return tokens === undefined ? { settled: true, source, detail: 'no max_input_tokens for this model' } : { tokens, settled: true, source };
	}
}
