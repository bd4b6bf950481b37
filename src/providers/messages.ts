// Provider-neutral chat messages: what the turn loop builds, what WAIT appends to, and what each
// provider adapter turns into its own wire format. Both tool-result styles are representable:
// Anthropic's (tool_result parts at the start of the next user message) and OpenAI's (one
// `tool` role message per result). `alternating` is the one normalisation every adapter starts
// from: user-role content merged into one turn between assistant messages, tool results first.

export interface TextPart {
	readonly type: 'text';
	readonly text: string;
	/**
	 * Images the person attached to this text (only on a user message's text): each provider puts
	 * them before the text on its own wire (userImages.ts), or names them in text where it cannot.
	 */
	readonly images?: readonly ImagePart[];
}

export interface ToolCallPart {
	readonly type: 'tool-call';
	readonly id: string;
	readonly name: string;
	readonly input: unknown;
}

/**
 * An image a tool result carries (Read of a PNG, an MCP tool's image block): its real format, sniffed
 * from its bytes, the bytes as base64, and its size in pixels when its header says. Each provider
 * puts it on its own wire (imageParts.ts), or names it in text where the model cannot take it.
 */
export interface ImagePart {
	readonly mimeType: string;
	readonly data: string;
	readonly width?: number;
	readonly height?: number;
}

export interface ToolResultPart {
	readonly type: 'tool-result';
	readonly callId: string;
	readonly content: string;
	readonly isError?: boolean;
	/** After `content`, in order. */
	readonly images?: readonly ImagePart[];
}

export interface UserMessage {
	readonly role: 'user';
	readonly content: readonly (TextPart | ToolResultPart)[];
	/** Set only on messages the harness builds: from an injection record ('reminders'), or a compaction's summary ('summary'); never on typed text. */
	readonly synthetic?: 'reminders' | 'summary';
}

export interface AssistantMessage {
	readonly role: 'assistant';
	readonly content: readonly (TextPart | ToolCallPart)[];
}

export interface ToolMessage {
	readonly role: 'tool';
	readonly callId: string;
	readonly content: string;
	readonly isError?: boolean;
	readonly images?: readonly ImagePart[];
}

export type ChatMessage = UserMessage | AssistantMessage | ToolMessage;

/**
 * The user-role content between two assistant messages, as one turn: what the protocols send as
 * one user message (Anthropic, vscode.lm) or as tool messages then user messages (OpenAI).
 */
export interface UserTurn {
	readonly role: 'user';
	/** From `tool` messages and tool-result parts, in the order they came. They go first: they answer the assistant message before them. */
	readonly results: readonly ToolResultPart[];
	/** The text parts of each user message that had any, in order, as they were (empty ones too). */
	readonly texts: readonly (readonly TextPart[])[];
}

/**
 * The history with user-role content merged, tool results first: assistant messages alternate with
 * user turns. An assistant message's empty text parts are left out, and so is an assistant message
 * left with nothing (an interrupted step); the user content on both sides of it is one turn.
 */
export function alternating(messages: readonly ChatMessage[]): (AssistantMessage | UserTurn)[] {
	const out: (AssistantMessage | UserTurn)[] = [];
	let results: ToolResultPart[] = [];
	let texts: TextPart[][] = [];
	const flush = (): void => {
		if (results.length + texts.length > 0) {
			out.push({ role: 'user', results, texts });
			results = [];
			texts = [];
		}
	};
	for (const message of messages) {
		if (message.role === 'tool') {
			results.push({
				type: 'tool-result',
				callId: message.callId,
				content: message.content,
				...(message.isError === undefined ? {} : { isError: message.isError }),
				...(message.images?.length ? { images: message.images } : {}),
			});
		} else if (message.role === 'user') {
			const text: TextPart[] = [];
			for (const part of message.content) {
				if (part.type === 'tool-result') {
					results.push(part);
				} else {
					text.push(part);
				}
			}
			if (text.length > 0) {
				texts.push(text);
			}
		} else {
			const content = message.content.filter((part) => part.type === 'tool-call' || part.text !== '');
			if (content.length > 0) {
				flush();
				out.push(content.length === message.content.length ? message : { role: 'assistant', content });
			}
		}
	}
	flush();
	return out;
}
