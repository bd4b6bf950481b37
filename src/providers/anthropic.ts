// The Anthropic Messages API on fetch + SSE: the neutral history in Anthropic's shape (strict
// user/assistant alternation, tool results first in a user message), and its event stream
// back as StreamEvents.
import * as z from 'zod';
import { systemClock, type Clock } from '../base/clock';
import { alternating, type AssistantMessage, type ChatMessage, type ToolResultPart, type UserTurn } from './messages';
import { errorFieldOf, eventStreamOf, noEvents, readFailure } from './answer';
import { errorFromResponse, fetchOrFail } from './http';
import { ProviderError, type ChatProvider, type ChatRequest, type ModelInfo, type StopReason, type StreamEvent, type StreamOptions } from './provider';
import { redactError, redacting } from './redact';
import { readSse, type SseEvent } from './sse';
import type { DiscoveredWindow } from './contextWindow';

/** The public API; a proxy or gateway is configured with `baseUrl`. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

const LABEL = 'Anthropic';
const OVERLOADED = 529;

export interface AnthropicOptions {
	readonly apiKey: string;
	readonly baseUrl?: string;
	readonly fetch?: typeof fetch;
	readonly clock?: Clock;
}

export type AnthropicBlock =
	| { type: 'text'; text: string }
	| { type: 'tool_use'; id: string; name: string; input: unknown }
	| { type: 'tool_result'; tool_use_id: string; content: string; is_error?: true };

export interface AnthropicMessage {
	role: 'user' | 'assistant';
	content: AnthropicBlock[];
}

function resultBlock(part: ToolResultPart): AnthropicBlock {
	return { type: 'tool_result', tool_use_id: part.callId, content: part.content, ...(part.isError ? { is_error: true as const } : {}) };
}

function blocksOf(entry: AssistantMessage | UserTurn): AnthropicBlock[] {
	if (entry.role === 'assistant') {
		return entry.content.map((part): AnthropicBlock => (part.type === 'tool-call' ? { type: 'tool_use', id: part.id, name: part.name, input: part.input } : { type: 'text', text: part.text }));
	}
	// The API refuses empty text blocks.
	const texts = entry.texts.flat().flatMap((part): AnthropicBlock[] => (part.text === '' ? [] : [{ type: 'text', text: part.text }]));
	return [...entry.results.map(resultBlock), ...texts];
}

/**
 * The neutral history as Anthropic messages, which must alternate: one user message per user
 * turn (tool results first), and adjacent assistant messages merged.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): AnthropicMessage[] {
	const out: AnthropicMessage[] = [];
	for (const entry of alternating(messages)) {
		const blocks = blocksOf(entry);
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

export function anthropicBody(request: ChatRequest): Record<string, unknown> {
	return {
		model: request.model,
		max_tokens: request.maxOutputTokens,
		// Both are omitted rather than sent empty, which the API can refuse.
		...(request.system === '' ? {} : { system: request.system }),
		messages: toAnthropicMessages(request.messages),
		...(request.tools.length === 0 ? {} : { tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })) }),
		stream: true,
	};
}

const Usage = z.object({
	input_tokens: z.number().nullish(),
	output_tokens: z.number().nullish(),
	cache_creation_input_tokens: z.number().nullish(),
	cache_read_input_tokens: z.number().nullish(),
});

const WireEvent = z.discriminatedUnion('type', [
	z.object({ type: z.literal('message_start'), message: z.object({ usage: Usage.nullish() }) }),
	z.object({
		type: z.literal('content_block_start'),
		index: z.number(),
		content_block: z.object({ type: z.string(), id: z.string().optional(), name: z.string().optional(), input: z.unknown().optional() }),
	}),
	z.object({
		type: z.literal('content_block_delta'),
		index: z.number(),
		delta: z.object({ type: z.string(), text: z.string().optional(), thinking: z.string().optional(), partial_json: z.string().optional() }),
	}),
	z.object({ type: z.literal('content_block_stop'), index: z.number() }),
	z.object({ type: z.literal('message_delta'), delta: z.object({ stop_reason: z.string().nullish() }), usage: Usage.nullish() }),
	z.object({ type: z.literal('message_stop') }),
	z.object({ type: z.literal('error'), error: z.object({ type: z.string(), message: z.string() }) }),
]);
type WireEvent = z.infer<typeof WireEvent>;
type WireUsage = z.infer<typeof Usage>;

const KNOWN_EVENTS: ReadonlySet<string> = new Set(WireEvent.options.map((option) => option.shape.type.value));

const STOP_REASONS: Readonly<Record<string, StopReason>> = { end_turn: 'end', tool_use: 'tool-use', max_tokens: 'max-tokens', refusal: 'refusal' };

const ERROR_KINDS: Readonly<Record<string, ProviderError['kind']>> = {
	overloaded_error: 'overloaded',
	rate_limit_error: 'rate-limit',
	api_error: 'server',
	authentication_error: 'auth',
	permission_error: 'auth',
	invalid_request_error: 'bad-request',
	not_found_error: 'bad-request',
	request_too_large: 'bad-request',
	timeout_error: 'timeout',
};

function unreadable(detail: string, cause?: unknown): ProviderError {
	return new ProviderError('stream', `${LABEL} sent an unreadable stream: ${detail}`, { cause });
}

/** The connection broke, or the stream ended before message_stop. */
function cutOff(cause?: unknown): ProviderError {
	const reason = cause instanceof Error ? ` (${cause.message})` : '';
	return new ProviderError('stream', `The response from ${LABEL} was cut off before the message ended${reason}.`, { cause });
}

/** Parses one SSE event's data; null for event types this adapter has no use for (ping…). */
function parseWireEvent(sse: SseEvent): WireEvent | null {
	if (sse.error !== undefined) {
		throw errorFieldOf(LABEL, sse.error);
	}
	let json: unknown;
	try {
		json = JSON.parse(sse.data);
	} catch (error) {
		// The body ended inside its last event: that is a cut, not a server that speaks nonsense.
		throw sse.unterminated ? cutOff() : unreadable('an event is not JSON', error);
	}
	const type = (json as { type?: unknown } | null)?.type;
	if (typeof type !== 'string' || !KNOWN_EVENTS.has(type)) {
		return null;
	}
	const parsed = WireEvent.safeParse(json);
	if (!parsed.success) {
		throw unreadable(`a ${type} event has an unexpected shape`, parsed.error);
	}
	return parsed.data;
}

interface ToolBlock {
	readonly id: string;
	readonly name: string;
	readonly initialInput: unknown;
	json: string;
}

/** Folds the wire events of one message into StreamEvents. */
class MessageAssembler {
	private readonly tools = new Map<number, ToolBlock>();
	private usage: WireUsage = {};
	private stopReason: StopReason = 'other';
	finished = false;

	take(event: WireEvent): StreamEvent[] {
		switch (event.type) {
			case 'message_start':
				this.usage = { ...this.usage, ...definedOf(event.message.usage) };
				return [];
			case 'content_block_start': {
				const block = event.content_block;
				if (block.type === 'tool_use') {
					if (block.id === undefined || block.name === undefined) {
						throw unreadable('a tool_use block has no id or name');
					}
					this.tools.set(event.index, { id: block.id, name: block.name, initialInput: block.input, json: '' });
				}
				return [];
			}
			case 'content_block_delta':
				return this.delta(event.index, event.delta);
			case 'content_block_stop':
				return this.stopBlock(event.index);
			case 'message_delta':
				this.usage = { ...this.usage, ...definedOf(event.usage) };
				this.stopReason = STOP_REASONS[event.delta.stop_reason ?? ''] ?? 'other';
				return [];
			case 'message_stop':
				this.finished = true;
				return [this.usageEvent(), { type: 'stop', reason: this.stopReason }];
			case 'error':
				throw new ProviderError(ERROR_KINDS[event.error.type] ?? 'stream', `${LABEL} reported ${event.error.type}: ${event.error.message}`);
		}
	}

	private delta(index: number, delta: { type: string; text?: string | undefined; thinking?: string | undefined; partial_json?: string | undefined }): StreamEvent[] {
		if (delta.type === 'text_delta' && delta.text) {
			return [{ type: 'text', text: delta.text }];
		}
		if (delta.type === 'thinking_delta' && delta.thinking) {
			return [{ type: 'reasoning', text: delta.thinking }];
		}
		const tool = this.tools.get(index);
		if (delta.type === 'input_json_delta' && tool) {
			tool.json += delta.partial_json ?? '';
		}
		return [];
	}

	private stopBlock(index: number): StreamEvent[] {
		const tool = this.tools.get(index);
		if (!tool) {
			return [];
		}
		this.tools.delete(index);
		let input: unknown = tool.initialInput ?? {};
		if (tool.json.trim() !== '') {
			try {
				input = JSON.parse(tool.json);
			} catch (error) {
				throw unreadable(`the input of tool call ${tool.name} is not valid JSON`, error);
			}
		}
		return [{ type: 'tool-call', id: tool.id, name: tool.name, input }];
	}

	private usageEvent(): StreamEvent {
		const u = this.usage;
		// Cached prompt tokens are still prompt: they count against the context window.
		const inputTokens = (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
		return { type: 'usage', inputTokens, outputTokens: u.output_tokens ?? 0 };
	}
}

/** message_delta repeats only some counters; a null must not erase what message_start said. */
function definedOf(usage: WireUsage | null | undefined): WireUsage {
	return Object.fromEntries(Object.entries(usage ?? {}).filter(([, value]) => typeof value === 'number'));
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
	private readonly baseUrl: string;
	private readonly fetch: typeof fetch;
	private readonly clock: Clock;

	constructor(private readonly options: AnthropicOptions) {
		this.baseUrl = (options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '');
		this.fetch = options.fetch ?? globalThis.fetch;
		this.clock = options.clock ?? systemClock;
	}

	stream(request: ChatRequest, signal: AbortSignal, options: StreamOptions = {}): AsyncGenerator<StreamEvent, void, undefined> {
		return redacting(this.events(request, signal, options), [this.options.apiKey]);
	}

	private async *events(request: ChatRequest, signal: AbortSignal, options: StreamOptions): AsyncGenerator<StreamEvent, void, undefined> {
		const response = await this.send('/v1/messages', { method: 'POST', body: JSON.stringify(anthropicBody(request)) }, signal);
		const body = await eventStreamOf(response, LABEL, signal);
		yield { type: 'accepted' };
		const assembler = new MessageAssembler();
		let events = 0;
		let lines = false;
		const onProgress = (): void => {
			lines = true;
			options.onProgress?.();
		};
		try {
			for await (const sse of readSse(body, signal, { onProgress })) {
				events++;
				const event = parseWireEvent(sse);
				if (event) {
					yield* assembler.take(event);
				}
				if (assembler.finished) {
					return;
				}
			}
		} catch (error) {
			throw readFailure(LABEL, error, signal, (cause) => cutOff(cause));
		}
		throw events === 0 ? noEvents(LABEL, lines) : cutOff();
	}

	async listModels(signal: AbortSignal): Promise<readonly ModelInfo[]> {
		const models: ModelInfo[] = [];
		let after: string | undefined;
		// Pages are followed to the end, with a cap in case a server repeats its cursor.
		for (let page = 0; page < 20; page++) {
			const query = `?limit=1000${after === undefined ? '' : `&after_id=${encodeURIComponent(after)}`}`;
			const response = await this.send(`/v1/models${query}`, { method: 'GET' }, signal);
			const parsed = ModelPage.safeParse(await response.json().catch(() => undefined));
			if (!parsed.success) {
				throw unreadable('the model list has an unexpected shape', parsed.error);
			}
			models.push(...parsed.data.data.map((m) => {
				const contextWindow = windowOf(m);
				return { id: m.id, name: m.display_name ?? m.id, ...(contextWindow ? { contextWindow } : {}) };
			}));
			if (!parsed.data.has_more || !parsed.data.last_id) {
				break;
			}
			after = parsed.data.last_id;
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
			const response = await this.send(`/v1/models/${encodeURIComponent(model)}`, { method: 'GET' }, signal);
			body = await response.json().catch(() => undefined);
		} catch (error) {
			if (signal.aborted) {
				throw error;
			}
			const later = error instanceof ProviderError && (error.retryable || error.kind === 'auth');
			return { settled: !later, source, detail: error instanceof Error ? error.message : String(error) };
		}
		const parsed = ModelEntry.safeParse(body);
		const tokens = parsed.success ? windowOf(parsed.data) : undefined;
		return tokens === undefined ? { settled: true, source, detail: 'no max_input_tokens for this model' } : { tokens, settled: true, source };
	}

	/** One HTTP exchange up to a 2xx response; anything else is thrown as a ProviderError, without the key. */
	private async send(path: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
		const headers = { 'x-api-key': this.options.apiKey, 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json' };
		try {
			const response = await fetchOrFail(this.fetch, LABEL, `${this.baseUrl}${path}`, { ...init, headers }, signal);
			if (!response.ok) {
				throw await errorFromResponse(LABEL, response, { overloadedStatus: OVERLOADED, now: this.clock.now() });
			}
			return response;
		} catch (error) {
			throw redactError(error, [this.options.apiKey]);
		}
	}
}
