// Provider-neutral histories for tests, in both tool-result styles.
import { alternating, type AssistantMessage, type ChatMessage, type ToolMessage, type UserMessage } from '../providers/messages';

export function userText(text: string): UserMessage {
	return { role: 'user', content: [{ type: 'text', text }] };
}

export function assistantText(text: string): AssistantMessage {
	return { role: 'assistant', content: [{ type: 'text', text }] };
}

export function assistantCalls(...ids: string[]): AssistantMessage {
	return {
		role: 'assistant',
		content: [{ type: 'text', text: 'Let me look.' }, ...ids.map((id) => ({ type: 'tool-call' as const, id, name: 'Read', input: { path: `${id}.ts` } }))],
	};
}

/** OpenAI style: one `tool` role message per result. */
export function toolResult(id: string, content = `contents of ${id}.ts`): ToolMessage {
	return { role: 'tool', callId: id, content };
}

/** Anthropic style: the results as parts of the next user message. */
export function resultsInUser(...ids: string[]): UserMessage {
	return { role: 'user', content: ids.map((id) => ({ type: 'tool-result' as const, callId: id, content: `contents of ${id}.ts` })) };
}

/**
 * What an Anthropic adapter sends: adjacent user-role messages merged into one, tool results
 * first — the providers' one normalisation (`alternating`), as neutral messages again.
 */
export function mergeForAnthropic(messages: readonly ChatMessage[]): ChatMessage[] {
	return alternating(messages).map((turn): ChatMessage => (turn.role === 'assistant' ? turn : { role: 'user', content: [...turn.results, ...turn.texts.flat()] }));
}
