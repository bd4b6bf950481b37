// Provider-neutral chat messages: what the turn loop builds, what WAIT appends to, and what each
// provider adapter turns into its own wire format. Both tool-result styles are representable:
// Anthropic's (tool_result parts at the start of the next user message) and OpenAI's (one
// `tool` role message per result). Adapters merge adjacent user messages where a protocol
// demands alternation, keeping tool results first.

export interface TextPart {
	readonly type: 'text';
	readonly text: string;
}

export interface ToolCallPart {
	readonly type: 'tool-call';
	readonly id: string;
	readonly name: string;
	readonly input: unknown;
}

export interface ToolResultPart {
	readonly type: 'tool-result';
	readonly callId: string;
	readonly content: string;
	readonly isError?: boolean;
}

export interface UserMessage {
	readonly role: 'user';
	readonly content: readonly (TextPart | ToolResultPart)[];
	/** Set only on the one message WAIT builds from an injection record; never on typed text. */
	readonly synthetic?: 'reminders';
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
}

export type ChatMessage = UserMessage | AssistantMessage | ToolMessage;
