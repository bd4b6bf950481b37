// The VS Code Language Model API (vscode.lm) as a ChatProvider: whatever chat models the person
// already has in VS Code, with no key to configure. Written against the API's shape, which comes
// in as `LanguageModelApi` (the `vscode` module itself, in src/vscode/lmProvider.ts), so it runs
// under plain Node against a fake in tests. The API has no system role: the system prompt goes
// as the first user message. It reports no usage either: input and output are counted with the
// model's own `countTokens`.
import { errorMessage } from '../base/errors';
import { alternating, type ChatMessage } from './messages';
import { type ChatProvider, type ChatRequest, type ModelInfo, ProviderError, type StreamEvent, type ToolSpec } from './provider';
import { overflowKind } from './overflow';
import { lmUserImageParts } from './userImages';
import { imagesKey, lmImageInput, lmImageLines, type LmDataPartApi, type LmImageInput, lmResultParts } from './lmImages';

export interface LmTextPart {
	value: string;
}
export interface LmToolCallPart {
	callId: string;
	name: string;
	input: object;
}
export interface LmToolResultPart {
	callId: string;
	content: unknown[];
}

/** The classes of the API this provider uses, as VS Code declares them (vscode.d.ts). */
export interface LanguageModelApi {
	readonly LanguageModelChatMessage: {
		User(content: string | (LmTextPart | LmToolResultPart | object)[]): object;
		Assistant(content: string | (LmTextPart | LmToolCallPart)[]): object;
	};
	readonly LanguageModelTextPart: new (value: string) => LmTextPart;
	readonly LanguageModelToolCallPart: new (callId: string, name: string, input: object) => LmToolCallPart;
	readonly LanguageModelToolResultPart: new (callId: string, content: (LmTextPart | object)[]) => LmToolResultPart;
	/** Images in tool results (lmImages.ts); absent where the API has none. */
	readonly LanguageModelDataPart?: LmDataPartApi;
	readonly LanguageModelChatToolMode: { readonly Auto: number };
	readonly CancellationTokenSource: new () => { readonly token: { readonly isCancellationRequested: boolean }; cancel(): void; dispose(): void };
	readonly CancellationError: abstract new (...args: never[]) => Error;
	/** `code` is the name of the static constructor that made it (NoPermissions, Blocked, NotFound), or Unknown. */
	readonly LanguageModelError: abstract new (...args: never[]) => Error & { readonly code: string };
}

export interface LmRequestOptions {
	justification?: string;
	tools?: { name: string; description: string; inputSchema?: object }[];
	toolMode?: number;
	modelOptions?: Record<string, unknown>;
}

/** A chat model as `vscode.lm.selectChatModels()` returns it (LanguageModelChat). */
export interface LanguageModelChatLike {
	readonly id: string;
	readonly name: string;
	readonly vendor: string;
	readonly maxInputTokens: number;
	sendRequest(messages: object[], options?: LmRequestOptions, token?: object): PromiseLike<{ readonly stream: AsyncIterable<unknown> }>;
	countTokens(text: string | object, token?: object): PromiseLike<number>;
}

/** One message for the model, with its text for counting when the model cannot count the message itself. */
interface Outgoing {
	readonly message: object;
	readonly text: string;
	/** The same for the same message: its count is remembered under it. */
	readonly key: string;
}

/** A tool call as text, for a request that offers no tools (`toolsAsText`). */
function callText(name: string, input: unknown): string {
	return `[tool call ${name} ${JSON.stringify(input ?? {})}]`;
}

/** A tool result as text, for a request that offers no tools (`toolsAsText`). */
function resultText(callId: string, content: string): string {
	return `[result of tool call ${callId}]\n${content}`;
}

/**
 * The neutral history as vscode.lm messages. `toolsAsText`: tool calls and results go as text
 * parts, for a request that offers no tools (the API has no "none" tool mode, and some backends
 * behind it refuse tool parts without their tools' definitions).
 */
export function toLmMessages(
	api: LanguageModelApi,
	system: string,
	messages: readonly ChatMessage[],
	toolsAsText = false,
	takesImages?: LmImageInput,
): Outgoing[] {
	const out: Outgoing[] = [{ message: api.LanguageModelChatMessage.User(system), text: system, key: JSON.stringify(['system', system]) }];
	for (const entry of alternating(messages)) {
		if (entry.role === 'user' && toolsAsText) {
			const texts = [
				...entry.results.map((result) => [resultText(result.callId, result.content), ...lmImageLines(result.images)].join('\n')),
				...entry.texts.flat().map((part) => [...lmImageLines(part.images, 'this request sends text only'), part.text].join('\n')),
			];
			out.push({
				message: api.LanguageModelChatMessage.User(texts.map((text) => new api.LanguageModelTextPart(text))),
				text: texts.join('\n'),
				key: JSON.stringify(['user-text', ...texts]),
			});
			continue;
		}
		if (entry.role === 'user') {
			// One message per user turn (tool results, reminders, the user's text), results first, as tool-calling models expect.
			const parts = [
				...entry.results.map((result) => {
					const textPart = (value: string): LmTextPart => new api.LanguageModelTextPart(value);
					const content = lmResultParts(textPart, api.LanguageModelDataPart, result.content, result.images, takesImages);
					const key = ['result', result.callId, result.content, ...imagesKey(result.images)];
					return { part: new api.LanguageModelToolResultPart(result.callId, content.parts), text: content.text, key };
				}),
				...entry.texts.flat().flatMap((part) => [
					// The person's images go before their words, as data parts (or the lines naming them).
					...lmUserImageParts((value) => new api.LanguageModelTextPart(value), api.LanguageModelDataPart, part, takesImages).map((image, index) => ({ ...image, key: ['image', ...imagesKey(part.images?.slice(index, index + 1))] })),
					{ part: new api.LanguageModelTextPart(part.text), text: part.text, key: ['text', part.text] },
				]),
			];
			out.push({
				message: api.LanguageModelChatMessage.User(parts.map((p) => p.part)),
				text: parts.map((p) => p.text).join('\n'),
				key: JSON.stringify(['user', ...parts.map((p) => p.key)]),
			});
			continue;
		}
		const parts: (LmTextPart | LmToolCallPart)[] = [];
		const text: string[] = [];
		for (const part of entry.content) {
			if (part.type === 'text') {
				parts.push(new api.LanguageModelTextPart(part.text));
				text.push(part.text);
			} else if (toolsAsText) {
				const call = callText(part.name, part.input);
				parts.push(new api.LanguageModelTextPart(call));
				text.push(call);
			} else {
				const input = typeof part.input === 'object' && part.input !== null ? part.input : {};
				parts.push(new api.LanguageModelToolCallPart(part.id, part.name, input));
				text.push(`${part.name} ${JSON.stringify(input)}`);
			}
		}
		out.push({ message: api.LanguageModelChatMessage.Assistant(parts), text: text.join('\n'), key: JSON.stringify([toolsAsText ? 'assistant-text' : 'assistant', entry.content]) });
	}
	return out;
}

function providerErrorOf(api: LanguageModelApi, error: unknown, signal: AbortSignal): ProviderError {
	if (signal.aborted || error instanceof api.CancellationError) {
		return new ProviderError('cancelled', 'The request was cancelled.');
	}
	if (error instanceof api.LanguageModelError) {
		const kind = error.code === 'NoPermissions' ? 'auth' : error.code === 'Blocked' ? 'rate-limit' : overflowKind('bad-request', undefined, `${error.code} ${error.message}`);
		return new ProviderError(kind, `The VS Code language model refused the request (${error.code}): ${error.message}`, { cause: error });
	}
	// Copilot's own refusals ("prompt token count of … exceeds the limit of …") arrive as plain errors.
	const message = errorMessage(error);
	return new ProviderError(overflowKind('server', undefined, message), message, { cause: error });
}

function toolsOf(tools: readonly ToolSpec[]): { name: string; description: string; inputSchema: object }[] {
	return tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
}

/** Counts remembered per message, so each step of a turn counts only what is new. */
const COUNT_CACHE_SIZE = 4096;

export class LanguageModelProvider implements ChatProvider {
	readonly id = 'vscode-lm' as const;
	private readonly counts = new Map<string, number>();

	constructor(
		private readonly model: LanguageModelChatLike,
		private readonly api: LanguageModelApi,
	) {}

	async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<StreamEvent, void, undefined> {
		const { api } = this;
		const source = new api.CancellationTokenSource();
		const onAbort = (): void => {
			source.cancel();
		};
		signal.addEventListener('abort', onAbort, { once: true });
		try {
			if (signal.aborted) {
				throw new ProviderError('cancelled', 'The request was cancelled.');
			}
			// toolChoice 'none': LanguageModelChatToolMode has only Auto and Required, so no tools are offered at all.
			const noTools = request.toolChoice === 'none';
			const outgoing = toLmMessages(api, request.system, request.messages, noTools, lmImageInput(this.model));
			const tools = noTools ? [] : toolsOf(request.tools);
			// Counted while the model works; a model that cannot count leaves the usage unknown.
			const input = this.countInput(outgoing, tools, source.token);
			let response: { readonly stream: AsyncIterable<unknown> };
			try {
				response = await this.model.sendRequest(
					outgoing.map((o) => o.message),
					{
						justification: 'Aside sends your message, with the files and reminders shown in its chat, to this model.',
						...(noTools ? {} : { tools, toolMode: api.LanguageModelChatToolMode.Auto }),
						modelOptions: { max_tokens: request.maxOutputTokens },
					},
					source.token,
				);
			} catch (error) {
				throw providerErrorOf(api, error, signal);
			}
			yield { type: 'accepted' };
			let calls = 0;
			const output: string[] = [];
			try {
				for await (const part of response.stream) {
					if (part instanceof api.LanguageModelTextPart) {
						output.push(part.value);
						yield { type: 'text', text: part.value };
					} else if (part instanceof api.LanguageModelToolCallPart) {
						calls++;
						output.push(`${part.name} ${JSON.stringify(part.input)}`);
						yield { type: 'tool-call', id: part.callId, name: part.name, input: part.input };
					}
				}
			} catch (error) {
				throw providerErrorOf(api, error, signal);
			}
			if (source.token.isCancellationRequested) {
				// A cancelled stream may just end: that is still a stopped request, not an answer.
				throw new ProviderError('cancelled', 'The request was cancelled.');
			}
			const inputTokens = await input;
			const outputTokens = inputTokens === undefined ? undefined : await this.count(output.join(''), source.token);
			if (inputTokens !== undefined && outputTokens !== undefined) {
				yield { type: 'usage', inputTokens, outputTokens };
			}
			yield { type: 'stop', reason: calls > 0 ? 'tool-use' : 'end' };
		} finally {
			signal.removeEventListener('abort', onAbort);
			source.dispose();
		}
	}

	listModels(): Promise<readonly ModelInfo[]> {
		return Promise.resolve([{ id: this.model.id, name: this.model.name, contextWindow: this.model.maxInputTokens }]);
	}

	/** The messages (the system prompt is the first) and the tool definitions, which take room in the window too. */
	private async countInput(outgoing: readonly Outgoing[], tools: readonly object[], token: object): Promise<number | undefined> {
		const counts = await Promise.all([
			// Some models count only strings (or not tool parts): then the message's text is counted.
			...outgoing.map((o) => this.countMessage(o, token)),
			tools.length === 0 ? 0 : this.count(JSON.stringify(tools), token),
		]);
		let total = 0;
		for (const count of counts) {
			if (count === undefined) {
				return undefined;
			}
			total += count;
		}
		return total;
	}

	private async countMessage(outgoing: Outgoing, token: object): Promise<number | undefined> {
		const known = this.counts.get(outgoing.key);
		if (known !== undefined) {
			return known;
		}
		const count = (await this.count(outgoing.message, token)) ?? (await this.count(outgoing.text, token));
		if (count !== undefined) {
			if (this.counts.size >= COUNT_CACHE_SIZE) {
				this.counts.clear();
			}
			this.counts.set(outgoing.key, count);
		}
		return count;
	}

	private async count(value: string | object, token: object): Promise<number | undefined> {
		if (value === '') {
			return 0;
		}
		try {
			const count = await this.model.countTokens(value, token);
			return Number.isInteger(count) && count >= 0 ? count : undefined;
		} catch {
			return undefined;
		}
	}
}
