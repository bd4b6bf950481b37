// A ChatProvider for unit tests of the turn loop: answers each request with the next scripted
// reply and keeps every request it was given. (Provider code itself is tested over real HTTP
// against test/harness/modelServer.mjs.)
import { type ChatProvider, type ChatRequest, type ModelInfo, ProviderError, type StreamEvent } from '../providers/provider';

export type ScriptedReply =
	| {
			readonly text?: string;
			readonly toolCalls?: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
			readonly usage?: readonly [number, number];
			/** With `usage`: of the input, what the prompt cache held and what was written to it. */
			readonly cache?: { readonly read: number; readonly write?: number };
	  }
	/** Fails before `accepted`, like an HTTP error. */
	| { readonly failBefore: ProviderError }
	/** Accepts, streams this text, then fails like a cut connection. */
	| { readonly failAfter: ProviderError; readonly partial: string }
	/** Accepts, streams this text, then waits until the request is aborted. */
	| { readonly hang: string };

export class ScriptedProvider implements ChatProvider {
	readonly id = 'openai-compatible' as const;
	readonly requests: ChatRequest[] = [];
	private readonly replies: ScriptedReply[];
	/** Called when a request arrives, before anything is streamed (to stop a turn mid-flight, say). */
	onRequest: ((request: ChatRequest) => void) | undefined;

	constructor(...replies: ScriptedReply[]) {
		this.replies = replies;
	}

	script(...replies: ScriptedReply[]): void {
		this.replies.push(...replies);
	}

	async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
		this.requests.push(request);
		this.onRequest?.(request);
		await Promise.resolve();
		if (signal.aborted) {
			throw new ProviderError('cancelled', 'The request was cancelled.');
		}
		const reply = this.replies.shift() ?? { text: 'ok' };
		if ('failBefore' in reply) {
			throw reply.failBefore;
		}
		yield { type: 'accepted' };
		if ('failAfter' in reply) {
			yield { type: 'text', text: reply.partial };
			throw reply.failAfter;
		}
		if ('hang' in reply) {
			yield { type: 'text', text: reply.hang };
			await new Promise<void>((resolve) => {
				signal.addEventListener('abort', () => {
					resolve();
				}, { once: true });
			});
			throw new ProviderError('cancelled', 'The request was cancelled.');
		}
		if (reply.text) {
			for (const piece of reply.text.match(/.{1,4}/gs) ?? []) {
				yield { type: 'text', text: piece };
			}
		}
		for (const call of reply.toolCalls ?? []) {
			yield { type: 'tool-call', ...call };
		}
		if (reply.usage) {
			const cache = reply.cache ? {
				cacheReadTokens: reply.cache.read,
				...(reply.cache.write === undefined ? {} : { cacheWriteTokens: reply.cache.write }),
			} : {};
			yield { type: 'usage', inputTokens: reply.usage[0], outputTokens: reply.usage[1], ...cache };
		}
		yield { type: 'stop', reason: reply.toolCalls?.length ? 'tool-use' : 'end' };
	}

	listModels(): Promise<readonly ModelInfo[]> {
		return Promise.resolve([{ id: 'scripted', name: 'Scripted model', contextWindow: 1000 }]);
	}
}
