// The event stream of one Anthropic message, folded into StreamEvents: text, thinking as
// reasoning, tool_use blocks assembled from their input_json_delta pieces, usage (cached prompt
// tokens included) and the stop reason; an `error` event as a typed ProviderError.
import * as z from 'zod';
import { parseEvent, type AnswerReader } from './answer';
import { ProviderError, type StopReason, type StreamEvent } from './provider';
import type { SseEvent } from './sse';
import { overflowKind } from './overflow';
import { withArticle } from '../base/words';

export const ANTHROPIC_LABEL = 'Anthropic';

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

function typeOf(json: unknown): unknown {
	return (json as { type?: unknown } | null)?.type;
}

/** An event of a type this adapter has no use for (ping, or one the API adds later) reads as null. */
const AnyEvent = z.union([
	WireEvent,
	z
		.unknown()
		.refine((json) => {
			const type = typeOf(json);
			return typeof type !== 'string' || !KNOWN_EVENTS.has(type);
		})
		.transform(() => null),
]);

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

export function unreadable(detail: string, cause?: unknown): ProviderError {
	return new ProviderError('stream', `${ANTHROPIC_LABEL} sent an unreadable stream: ${detail}`, { cause });
}

interface ToolBlock {
	readonly id: string;
	readonly name: string;
	readonly initialInput: unknown;
	json: string;
}

/** Folds the wire events of one message into StreamEvents. */
export class MessageAssembler implements AnswerReader {
	private readonly tools = new Map<number, ToolBlock>();
	private usage: WireUsage = {};
	private stopReason: StopReason = 'other';
	/** message_stop came. */
	complete = false;

	take(sse: SseEvent): StreamEvent[] {
		const event = parseEvent(sse, AnyEvent, this, (problem) =>
			problem.kind === 'json' ? unreadable('an event is not JSON', problem.cause) : unreadable(`${withArticle(String(typeOf(problem.json)))} event has an unexpected shape`, problem.cause),
		);
		return event ? this.fold(event) : [];
	}

	end(): StreamEvent[] {
		if (!this.complete) {
			throw this.cutOff();
		}
		return [];
	}

	/** The connection broke, or the stream ended before message_stop. */
	cutOff(cause?: unknown): ProviderError {
		const reason = cause instanceof Error ? ` (${cause.message})` : '';
		return new ProviderError('stream', `The response from ${ANTHROPIC_LABEL} was cut off before the message ended${reason}.`, { cause });
	}

	private fold(event: WireEvent): StreamEvent[] {
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
				this.complete = true;
				return [this.usageEvent(), { type: 'stop', reason: this.stopReason }];
			case 'error':
				throw new ProviderError(overflowKind(ERROR_KINDS[event.error.type] ?? 'stream', undefined, `${event.error.type} ${event.error.message}`), `${ANTHROPIC_LABEL} reported ${event.error.type}: ${event.error.message}`);
		}
	}

	private delta(
		index: number,
		delta: { type: string; text?: string | undefined; thinking?: string | undefined; partial_json?: string | undefined },
	): StreamEvent[] {
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
		// `input_tokens` is only what came after the last cache breakpoint ("Tracking cache performance").
		const inputTokens = (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
		return {
			type: 'usage',
			inputTokens,
			outputTokens: u.output_tokens ?? 0,
			...(typeof u.cache_read_input_tokens === 'number' ? { cacheReadTokens: u.cache_read_input_tokens } : {}),
			...(typeof u.cache_creation_input_tokens === 'number' ? { cacheWriteTokens: u.cache_creation_input_tokens } : {}),
		};
	}
}

/** message_delta repeats only some counters; a null must not erase what message_start said. */
function definedOf(usage: WireUsage | null | undefined): WireUsage {
	return Object.fromEntries(Object.entries(usage ?? {}).filter(([, value]) => typeof value === 'number'));
}
