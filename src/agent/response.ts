// A model's response, as its stream's events fold into it: what was accepted, the text, the tool
// calls, why it stopped, the usage. Pure: the turn loop does the rest (commits, updates, records).
import { ProviderError, type StopReason, type StreamEvent } from '../providers/provider';
import type { RecordedStop } from '../vocabulary/outcomes';

export interface ToolCall {
	readonly id: string;
	readonly name: string;
	readonly input: unknown;
}

export interface Usage {
	/** The whole prompt, cached parts included. */
	readonly inputTokens: number;
	readonly outputTokens: number;
	/** Of the prompt: read from the provider's cache, and written to it (when it says). */
	readonly cacheReadTokens?: number;
	readonly cacheWriteTokens?: number;
}

/** A response while it streams. */
export interface Response {
	/** The provider accepted the request: its reminders are delivered. */
	readonly accepted: boolean;
	readonly text: string;
	readonly toolCalls: readonly ToolCall[];
	/** Why it stopped, when the provider said so. */
	readonly stop: StopReason | undefined;
	readonly usage: Usage | undefined;
}

/** A response as it is recorded: complete, or broken with the error that broke it. */
export interface Answer {
	readonly accepted: boolean;
	readonly text: string;
	readonly toolCalls: readonly ToolCall[];
	readonly stop: RecordedStop;
	readonly usage?: Usage;
	/** Set when the stream failed or was stopped. */
	readonly error?: unknown;
}

/** Nothing streamed yet. */
export const NO_RESPONSE: Response = { accepted: false, text: '', toolCalls: [], stop: undefined, usage: undefined };

export function foldEvent(response: Response, event: StreamEvent): Response {
	switch (event.type) {
		case 'accepted':
			return { ...response, accepted: true };
		case 'text':
			return { ...response, text: response.text + event.text };
		case 'reasoning':
			// The model's thinking is not its answer: neither recorded nor shown as one.
			return response;
		case 'tool-call':
			return { ...response, toolCalls: [...response.toolCalls, { id: event.id, name: event.name, input: event.input }] };
		case 'usage':
			return {
				...response,
				usage: {
					inputTokens: event.inputTokens,
					outputTokens: event.outputTokens,
					...(event.cacheReadTokens === undefined ? {} : { cacheReadTokens: event.cacheReadTokens }),
					...(event.cacheWriteTokens === undefined ? {} : { cacheWriteTokens: event.cacheWriteTokens }),
				},
			};
		case 'stop':
			return { ...response, stop: event.reason };
	}
}

/** The stream ended: a provider that said no stop reason stopped for its tool calls, or at the end. */
export function completed(response: Response): Answer {
	const { accepted, text, toolCalls, usage } = response;
	return { accepted, text, toolCalls, stop: response.stop ?? (toolCalls.length ? 'tool-use' : 'end'), ...(usage ? { usage } : {}) };
}

/** The stream broke (`interrupted`: the person stopped it). Its tool calls are not run: their input may be incomplete. */
export function broken(response: Response, error: unknown, interrupted: boolean): Answer {
	const { accepted, text, usage } = response;
	return { accepted, text, toolCalls: [], stop: interrupted ? 'interrupted' : 'failed', ...(usage ? { usage } : {}), error };
}

/**
 * The provider refused the request as too long: before accepting it (an HTTP refusal), or right
 * after, before a word of the answer (LM Studio's 200 with an error chunk, an Anthropic error event).
 */
export function isTooLong(answer: Answer): boolean {
	return answer.error instanceof ProviderError && answer.error.kind === 'too-long' && (!answer.accepted || (answer.text === '' && answer.toolCalls.length === 0));
}
