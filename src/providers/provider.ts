// The one interface every model provider implements: stream a request, with an AbortSignal, as
// a sequence of events. Anthropic Messages and OpenAI-compatible Chat Completions are written
// on fetch + SSE (src/providers/); the VS Code Language Model API lives in src/vscode/.
import type { STOP_REASONS } from '../vocabulary/outcomes';
import type { DiscoveredWindow } from './contextWindow';
import type { ChatMessage } from './messages';

/** A tool as the model sees it: name, description, and the JSON Schema of its input. */
export interface ToolSpec {
	readonly name: string;
	readonly description: string;
	readonly inputSchema: Readonly<Record<string, unknown>>;
}

export interface ChatRequest {
	readonly model: string;
	/** The stable system prompt (providers without a system role send it as the first user message). */
	readonly system: string;
	readonly messages: readonly ChatMessage[];
	readonly tools: readonly ToolSpec[];
	readonly maxOutputTokens: number;
	/**
	 * 'none': the model must answer in text and call no tool (a compaction's summary request,
	 * which still sends the tool list: histories with tool calls need it, and it keeps the cached
	 * prefix). Absent: the model may call any tool.
	 */
	readonly toolChoice?: 'none';
	/** false: the model takes no images (it refused them earlier in the chat): the person's images go as the lines naming them. */
	readonly imageInput?: false;
}

export type StopReason = (typeof STOP_REASONS)[number];

export type StreamEvent =
	/** The provider accepted the request (HTTP 200, or the API call returned a stream). The turn
	 * loop commits the reminders this request carried on this event, and only on it. */
	| { readonly type: 'accepted' }
	| { readonly type: 'text'; readonly text: string }
	/** The model's thinking (Anthropic thinking blocks, Mistral thinking parts, `reasoning_content`): never part of the answer. */
	| { readonly type: 'reasoning'; readonly text: string }
	/** A complete tool call; fragments are joined by the provider before this is yielded. */
	| { readonly type: 'tool-call'; readonly id: string; readonly name: string; readonly input: unknown }
	/**
	 * `inputTokens` is the whole prompt, cached parts included (it is what fills the context
	 * window); `cacheReadTokens` / `cacheWriteTokens`: of that prompt, what the provider read from
	 * its prompt cache and wrote to it, when it says.
	 */
	| { readonly type: 'usage'; readonly inputTokens: number; readonly outputTokens: number; readonly cacheReadTokens?: number; readonly cacheWriteTokens?: number }
	| { readonly type: 'stop'; readonly reason: StopReason };

export interface ModelInfo {
	readonly id: string;
	readonly name: string;
	/** The context window in tokens, when the provider says. */
	readonly contextWindow?: number;
}

export interface StreamOptions {
	/**
	 * Called when the server sent something that is not yet an event: a complete line of the
	 * stream, such as a piece of a tool call's arguments or a keep-alive. The idle timeout counts
	 * it as progress, so a long tool call is not mistaken for a silent server.
	 */
	readonly onProgress?: () => void;
}

export interface ChatProvider {
	readonly id: ProviderId;
	/** Streams one request. Throws ProviderError; after `accepted`, errors end the stream early. */
	stream(request: ChatRequest, signal: AbortSignal, options?: StreamOptions): AsyncIterable<StreamEvent>;
	/** The models this provider offers, for the picker. */
	listModels(signal: AbortSignal): Promise<readonly ModelInfo[]>;
	/** Asks the provider's API or server for the model's context window (src/providers/contextWindow.ts). */
	contextWindow?(model: string, signal: AbortSignal): Promise<DiscoveredWindow | undefined>;
}

/** The providers Aside speaks to (`aside.provider`). */
export const PROVIDER_IDS = ['vscode-lm', 'anthropic', 'openai-compatible'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export type ProviderErrorKind =
	| 'auth'
	| 'rate-limit'
	| 'overloaded'
	| 'bad-request'
	| 'server'
	| 'network'
	| 'timeout'
	| 'cancelled'
	/** The stream broke or sent something unreadable after it started. */
	| 'stream'
	/** The request is longer than the model's context window (a 400 or 413 that says so): compaction, then one retry. */
	| 'too-long';

export class ProviderError extends Error {
	override readonly name = 'ProviderError';

	constructor(
		readonly kind: ProviderErrorKind,
		message: string,
		readonly details: { readonly status?: number; readonly retryAfterMs?: number; readonly cause?: unknown } = {},
	) {
		super(message);
	}

	/** Worth trying again, if nothing was streamed yet. */
	get retryable(): boolean {
		return this.kind === 'rate-limit' || this.kind === 'overloaded' || this.kind === 'server' || this.kind === 'network' || this.kind === 'timeout';
	}
}
