// The VS Code Language Model API in memory, shaped like vscode.d.ts (1.138): message factories,
// the part classes, cancellation, LanguageModelError codes and a chat model that answers scripted
// streams and counts tokens. Tests of src/providers/languageModel.ts run against it; the real API
// cannot run here (no VS Code chat model exists without a signed-in model extension).
import type { LanguageModelApi, LanguageModelChatLike, LmRequestOptions } from '../providers/languageModel';

export class FakeTextPart {
	constructor(public value: string) {}
}

export class FakeToolCallPart {
	constructor(
		public callId: string,
		public name: string,
		public input: object,
	) {}
}

export class FakeToolResultPart {
	constructor(
		public callId: string,
		public content: unknown[],
	) {}
}

type FakePart = FakeTextPart | FakeToolCallPart | FakeToolResultPart;

/** LanguageModelChatMessageRole: User = 1, Assistant = 2. */
export class FakeChatMessage {
	readonly content: FakePart[];

	constructor(
		readonly role: 1 | 2,
		content: string | FakePart[],
	) {
		// As VS Code does: a string becomes one text part.
		this.content = typeof content === 'string' ? [new FakeTextPart(content)] : content;
	}

	static User(content: string | (FakeTextPart | FakeToolResultPart)[]): FakeChatMessage {
		return new FakeChatMessage(1, content);
	}

	static Assistant(content: string | (FakeTextPart | FakeToolCallPart)[]): FakeChatMessage {
		return new FakeChatMessage(2, content);
	}
}

export class FakeCancellationToken {
	isCancellationRequested = false;
	private readonly listeners: (() => void)[] = [];

	onCancellationRequested(listener: () => void): { dispose(): void } {
		this.listeners.push(listener);
		return {
			dispose: () => {
				this.listeners.splice(this.listeners.indexOf(listener), 1);
			},
		};
	}

	fire(): void {
		this.isCancellationRequested = true;
		for (const listener of [...this.listeners]) {
			listener();
		}
	}
}

export class FakeCancellationTokenSource {
	static readonly created: FakeCancellationTokenSource[] = [];
	readonly token = new FakeCancellationToken();
	disposed = false;

	constructor() {
		FakeCancellationTokenSource.created.push(this);
	}

	cancel(): void {
		this.token.fire();
	}

	dispose(): void {
		this.disposed = true;
	}
}

export class FakeCancellationError extends Error {
	constructor() {
		super('Canceled');
		this.name = 'Canceled';
	}
}

export class FakeLanguageModelError extends Error {
	constructor(
		message: string,
		readonly code: string,
	) {
		super(message);
	}

	static NoPermissions(message = 'no permissions'): FakeLanguageModelError {
		return new FakeLanguageModelError(message, 'NoPermissions');
	}
	static Blocked(message = 'blocked'): FakeLanguageModelError {
		return new FakeLanguageModelError(message, 'Blocked');
	}
	static NotFound(message = 'not found'): FakeLanguageModelError {
		return new FakeLanguageModelError(message, 'NotFound');
	}
}

export const FAKE_LM_API: LanguageModelApi = {
	LanguageModelChatMessage: FakeChatMessage,
	LanguageModelTextPart: FakeTextPart,
	LanguageModelToolCallPart: FakeToolCallPart,
	LanguageModelToolResultPart: FakeToolResultPart,
	LanguageModelChatToolMode: { Auto: 1 },
	CancellationTokenSource: FakeCancellationTokenSource,
	CancellationError: FakeCancellationError,
	LanguageModelError: FakeLanguageModelError,
};

export type FakeReply =
	/** Streams these parts (anything else, such as a data part, is an unknown part). */
	| { readonly parts: readonly unknown[] }
	/** sendRequest rejects. */
	| { readonly reject: Error }
	/** Streams the parts, then the stream throws. */
	| { readonly parts: readonly unknown[]; readonly thenThrow: Error }
	/** Streams the parts, then waits for cancellation and throws CancellationError, as VS Code's stream does. */
	| { readonly parts: readonly unknown[]; readonly hang: true };

export interface FakeRequest {
	readonly messages: FakeChatMessage[];
	readonly options: LmRequestOptions | undefined;
	readonly token: FakeCancellationToken;
}

/** Words, the fake tokenizer: easy to count by hand in a test. */
export function words(text: string): number {
	return text.split(/\s+/).filter((word) => word !== '').length;
}

function textOf(part: unknown): string {
	if (part instanceof FakeTextPart) {
		return part.value;
	}
	if (part instanceof FakeToolCallPart) {
		return `${part.name} ${JSON.stringify(part.input)}`;
	}
	if (part instanceof FakeToolResultPart) {
		return part.content.map(textOf).join(' ');
	}
	return '';
}

export class FakeLanguageModel implements LanguageModelChatLike {
	readonly requests: FakeRequest[] = [];
	/** Every value countTokens was asked about. */
	readonly counted: (string | FakeChatMessage)[] = [];
	/** 'messages': counts only strings, like a model whose tokenizer takes no parts; 'all': counts nothing. */
	countFails: 'none' | 'messages' | 'all' = 'none';
	private readonly replies: FakeReply[] = [];
	readonly id: string;
	readonly name: string;
	readonly vendor: string;
	readonly maxInputTokens: number;

	constructor(model: Partial<Pick<LanguageModelChatLike, 'id' | 'name' | 'vendor' | 'maxInputTokens'>> = {}) {
		this.id = model.id ?? 'gpt-4o';
		this.name = model.name ?? 'GPT-4o';
		this.vendor = model.vendor ?? 'copilot';
		this.maxInputTokens = model.maxInputTokens ?? 64_000;
	}

	script(...replies: FakeReply[]): void {
		this.replies.push(...replies);
	}

	sendRequest(messages: object[], options?: LmRequestOptions, token?: object): Promise<{ readonly stream: AsyncIterable<unknown> }> {
		if (!(token instanceof FakeCancellationToken)) {
			return Promise.reject(new Error('sendRequest needs a CancellationToken from a CancellationTokenSource'));
		}
		this.requests.push({ messages: messages as FakeChatMessage[], options, token });
		const reply = this.replies.shift() ?? { parts: [new FakeTextPart('ok')] };
		if ('reject' in reply) {
			return Promise.reject(reply.reject);
		}
		return Promise.resolve({ stream: this.streamOf(reply, token) });
	}

	countTokens(text: string | object, _token?: object): Promise<number> {
		this.counted.push(text as string | FakeChatMessage);
		if (this.countFails === 'all' || (this.countFails === 'messages' && typeof text !== 'string')) {
			return Promise.reject(new Error('this tokenizer cannot count that'));
		}
		if (typeof text === 'string') {
			return Promise.resolve(words(text));
		}
		const message = text as FakeChatMessage;
		return Promise.resolve(words(message.content.map(textOf).join(' ')));
	}

	private async *streamOf(reply: Exclude<FakeReply, { readonly reject: Error }>, token: FakeCancellationToken): AsyncGenerator {
		for (const part of reply.parts) {
			await Promise.resolve();
			if (token.isCancellationRequested) {
				throw new FakeCancellationError();
			}
			yield part;
		}
		if ('thenThrow' in reply) {
			throw reply.thenThrow;
		}
		if ('hang' in reply) {
			await new Promise<void>((resolve) => {
				if (token.isCancellationRequested) {
					resolve();
				}
				token.onCancellationRequested(resolve);
			});
			throw new FakeCancellationError();
		}
	}
}
