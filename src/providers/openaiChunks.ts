// The streamed chunks of one OpenAI-compatible chat completion, folded into StreamEvents: text
// (a string, or Mistral's array of parts), reasoning, tool calls assembled from their fragments
// (Ollama's whole calls at one index included), usage and the finish reason.
import * as z from 'zod';
import type { IdSource } from '../base/clock';
import { parseEvent, type AnswerReader } from './answer';
import { errorMessageOf } from './http';
import { ProviderError, type StopReason, type StreamEvent } from './provider';
import type { SseEvent } from './sse';
import { overflowKind } from './overflow';

const ToolFragment = z.object({
	index: z.number().optional(),
	id: z.string().nullish(),
	function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});
type ToolFragment = z.infer<typeof ToolFragment>;

const Chunk = z.object({
	choices: z
		.array(
			z.object({
				delta: z
					.object({
						// A string, or (Mistral's reasoning models) an array of `text` and `thinking` parts.
						content: z.union([z.string(), z.array(z.unknown())]).nullish(),
						// Thinking as DeepSeek, vLLM and llama.cpp (`reasoning_content`) or Ollama (`reasoning`) send it.
						reasoning_content: z.unknown().optional(),
						reasoning: z.unknown().optional(),
						tool_calls: z.array(ToolFragment).nullish(),
					})
					.nullish(),
				finish_reason: z.string().nullish(),
			}),
		)
		.nullish(),
	usage: z
		.object({
			prompt_tokens: z.number().nullish(),
			completion_tokens: z.number().nullish(),
			// OpenAI's prompt caching (and vLLM, llama.cpp, OpenRouter): of prompt_tokens, what the cache held.
			prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
			// DeepSeek's own name for the same count (its context caching).
			prompt_cache_hit_tokens: z.number().nullish(),
		})
		.nullish(),
	error: z.unknown().optional(),
});
type Chunk = z.infer<typeof Chunk>;
type Delta = NonNullable<NonNullable<Chunk['choices']>[number]['delta']>;

function textOfParts(parts: unknown): string {
	if (typeof parts === 'string') {
		return parts;
	}
	if (!Array.isArray(parts)) {
		return '';
	}
	return parts.map((part) => (isPart(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
}

function isPart(value: unknown): value is { type?: unknown; text?: unknown; thinking?: unknown } {
	return typeof value === 'object' && value !== null;
}

/** A delta's answer text and its thinking, kept apart: thinking is never the answer. */
function splitDelta(delta: Delta): { text: string; reasoning: string } {
	const reasoning = [delta.reasoning_content, delta.reasoning].map((value) => (typeof value === 'string' ? value : ''));
	if (typeof delta.content === 'string' || !delta.content) {
		return { text: delta.content ?? '', reasoning: reasoning.join('') };
	}
	for (const part of delta.content) {
		if (isPart(part) && part.type === 'thinking') {
			// Mistral nests the thinking text as parts of its own (older versions: a string).
			reasoning.push(textOfParts(part.thinking));
		}
	}
	return { text: textOfParts(delta.content), reasoning: reasoning.join('') };
}

const FINISH_REASONS: Readonly<Record<string, StopReason>> = { stop: 'end', tool_calls: 'tool-use', length: 'max-tokens', content_filter: 'refusal' };

interface PendingCall {
	id: string;
	name: string;
	args: string;
}

/** Folds the chunks of one completion into StreamEvents. */
export class CompletionAssembler implements AnswerReader {
	/** In the order they started. */
	private calls: PendingCall[] = [];
	/** The call each wire `index` is on now. */
	private readonly byIndex = new Map<number, PendingCall>();
	private last: PendingCall | undefined;
	private sawToolCalls = false;
	/** Anything of an answer came: text, thinking, a tool call or a finish reason. */
	private answered = false;
	private finishReason: string | undefined;
	private usage: StreamEvent | undefined;
	/** `[DONE]` came. */
	complete = false;

	constructor(
		private readonly label: string,
		private readonly ids: IdSource,
	) {}

	take(sse: SseEvent): StreamEvent[] {
		if (sse.data === '[DONE]') {
			this.complete = true;
			return [];
		}
		const chunk = parseEvent(sse, Chunk, this, (problem) =>
			new ProviderError('stream', problem.kind === 'json' ? `${this.label} sent a chunk that is not JSON.` : `${this.label} sent a chunk with an unexpected shape.`, { cause: problem.cause }),
		);
		return this.fold(chunk);
	}

	/** The end of the stream: any calls not yet complete, usage, and the stop reason. */
	end(): StreamEvent[] {
		if (this.complete && !this.answered) {
			// llama.cpp ends a failed request this way too; an empty stop would make the turn ask again.
			throw new ProviderError('stream', `${this.label} ended the stream without an answer: [DONE] came before any text, tool call or finish reason.`);
		}
		// A server that ends the stream after finish_reason without [DONE] still said all it had.
		if (!this.complete && this.finishReason === undefined) {
			throw this.cutOff();
		}
		const calls = this.completeCalls();
		let reason = FINISH_REASONS[this.finishReason ?? ''] ?? 'other';
		// Some servers (older Ollama) say "stop" after streaming tool calls.
		if (reason === 'end' && this.sawToolCalls) {
			reason = 'tool-use';
		}
		return [...calls, ...(this.usage ? [this.usage] : []), { type: 'stop', reason }];
	}

	cutOff(cause?: unknown): ProviderError {
		const reason = cause instanceof Error ? ` (${cause.message})` : '';
		return new ProviderError('stream', `The response from ${this.label} was cut off before it ended${reason}.`, { cause });
	}

	private fold(chunk: Chunk): StreamEvent[] {
		if (chunk.error !== undefined) {
			const text = JSON.stringify(chunk);
			throw new ProviderError(overflowKind('server', undefined, text), `${this.label} reported an error mid-stream: ${errorMessageOf(text)}`);
		}
		if (chunk.usage) {
			const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? chunk.usage.prompt_cache_hit_tokens;
			// prompt_tokens already counts the cached part; the API says nothing of cache writes.
			this.usage = {
				type: 'usage',
				inputTokens: chunk.usage.prompt_tokens ?? 0,
				outputTokens: chunk.usage.completion_tokens ?? 0,
				...(typeof cached === 'number' ? { cacheReadTokens: cached } : {}),
			};
		}
		const choice = chunk.choices?.[0];
		const events: StreamEvent[] = [];
		if (choice?.delta) {
			const { text, reasoning } = splitDelta(choice.delta);
			if (reasoning) {
				events.push({ type: 'reasoning', text: reasoning });
			}
			if (text) {
				events.push({ type: 'text', text });
			}
		}
		for (const fragment of choice?.delta?.tool_calls ?? []) {
			this.fragment(fragment);
		}
		if (choice?.finish_reason) {
			this.finishReason = choice.finish_reason;
			events.push(...this.completeCalls());
		}
		this.answered ||= events.length > 0 || (choice?.delta?.tool_calls?.length ?? 0) > 0 || this.finishReason !== undefined;
		return events;
	}

	private fragment(fragment: ToolFragment): void {
		const id = fragment.id ?? '';
		let call: PendingCall | undefined;
		if (fragment.index === undefined) {
			// Servers that leave out `index` send each call whole: a new id starts a new call.
			call = id === '' ? this.last : this.calls.find((candidate) => candidate.id === id);
		} else {
			call = this.byIndex.get(fragment.index);
			// Ollama 0.20+ sends parallel calls whole, each with its own id but all at index 0:
			// a new id at an index in use starts a new call.
			if (call && id !== '' && call.id !== '' && call.id !== id) {
				call = undefined;
			}
		}
		if (!call) {
			call = { id: '', name: '', args: '' };
			this.calls.push(call);
		}
		if (fragment.index !== undefined) {
			this.byIndex.set(fragment.index, call);
		}
		this.last = call;
		call.id ||= id;
		// The name arrives whole in the first fragment; some servers repeat it in later ones.
		call.name ||= fragment.function?.name ?? '';
		call.args += fragment.function?.arguments ?? '';
	}

	private completeCalls(): StreamEvent[] {
		const events = this.calls.map((call) => this.toolCall(call));
		this.calls = [];
		this.byIndex.clear();
		this.last = undefined;
		this.sawToolCalls ||= events.length > 0;
		return events;
	}

	private toolCall(call: PendingCall): StreamEvent {
		if (call.name === '') {
			throw new ProviderError('stream', `${this.label} streamed a tool call without a name.`);
		}
		let input: unknown = {};
		if (call.args.trim() !== '') {
			try {
				input = JSON.parse(call.args);
			} catch (error) {
				throw new ProviderError('stream', `${this.label} sent arguments for tool call ${call.name} that are not valid JSON.`, { cause: error });
			}
		}
		return { type: 'tool-call', id: call.id || `call_${this.ids.next()}`, name: call.name, input };
	}
}

