// What a server may ask of Aside while connected (docs/mcp.md, "When a server asks"): a model's
// answer (`sampling/createMessage`) or the person's input (`elicitation/create`, a form or a URL
// to open). Aside's own types: the SDK's shapes are converted in sdkClientRequests.ts, and the
// window's router (src/features/mcp/serverRequestRouter.ts) decides who answers.

/** One block of a message a server wants answered: text, or a named attachment the card lists. */
export type SamplingContent =
	| { readonly type: 'text'; readonly text: string }
	| { readonly type: 'image' | 'audio'; readonly mimeType: string; readonly bytes: number }
	/** Anything else (a tool use or result): named, never sent to the model. */
	| { readonly type: 'other'; readonly what: string };

export interface SamplingMessage {
	readonly role: 'user' | 'assistant';
	readonly content: readonly SamplingContent[];
}

export interface SamplingRequest {
	readonly messages: readonly SamplingMessage[];
	readonly systemPrompt?: string;
	readonly maxTokens: number;
	readonly temperature?: number;
	readonly stopSequences?: readonly string[];
	/** The server's model hints (names it prefers), shown only. */
	readonly modelHints?: readonly string[];
}

/** The spec's stop reasons, and any other the provider gave. */
export type SamplingStop = 'endTurn' | 'maxTokens' | 'stopSequence' | 'refusal' | 'other';

export interface SamplingResult {
	readonly text: string;
	readonly model: string;
	readonly stopReason: SamplingStop;
}

/** A form's values as the spec allows them: flat, primitive, or a list of enum values. */
export type ElicitationValue = string | number | boolean | readonly string[];
export type ElicitationContent = Readonly<Record<string, ElicitationValue>>;

export type ElicitationRequest =
	| { readonly mode: 'form'; readonly message: string; readonly requestedSchema: Readonly<Record<string, unknown>> }
	| { readonly mode: 'url'; readonly message: string; readonly url: string; readonly elicitationId: string };

export type ElicitationResult =
	| { readonly action: 'accept'; readonly content?: ElicitationContent }
	| { readonly action: 'decline' | 'cancel' };

/** What comes with a server's request: its cancellation, and the chats whose tool calls on that server run now. */
export interface ServerRequestContext {
	/** Aborted when the server cancels the request or the connection ends. */
	readonly signal: AbortSignal;
	/** The chats (their ids) with a `tools/call` on this server in flight, in the order they called. */
	readonly callers: readonly string[];
}

/**
 * Who answers a server's requests. A handler that throws answers the server with that error; a
 * client given none declares neither capability.
 */
export interface ServerRequestHandlers {
	sampling(request: SamplingRequest, context: ServerRequestContext): Promise<SamplingResult>;
	elicitation(request: ElicitationRequest, context: ServerRequestContext): Promise<ElicitationResult>;
	/** `notifications/elicitation/complete`: the URL flow of `elicitationId` finished at the server. */
	elicitationComplete?(elicitationId: string): void;
}

/** The chats calling tools on one connection now: the calls add themselves while they run. */
export class InFlightCallers {
	private readonly calls: { readonly chat: string; readonly done: AbortController }[] = [];

	/** `chat` calls a tool; the returned function says the call ended. */
	begin(chat: string | undefined): () => void {
		if (chat === undefined) {
			return () => undefined;
		}
		const call = { chat, done: new AbortController() };
		this.calls.push(call);
		return () => {
			const index = this.calls.indexOf(call);
			if (index >= 0) {
				this.calls.splice(index, 1);
			}
			call.done.abort();
		};
	}

	list(): readonly string[] {
		return [...new Set(this.calls.map((call) => call.chat))];
	}

	/** Aborts once every call in flight now has ended (a request made during them is moot then); never when none is. */
	allEnded(): AbortSignal {
		const ending = new AbortController();
		let left = this.calls.length;
		for (const call of this.calls) {
			call.done.signal.addEventListener('abort', () => {
				left -= 1;
				if (left === 0) {
					ending.abort(new Error('the tool call that made the request ended'));
				}
			}, { once: true });
		}
		return ending.signal;
	}
}
