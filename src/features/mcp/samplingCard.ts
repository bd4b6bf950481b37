// A sampling request as its card shows it: the server, its system prompt, each message's text with
// every other block named ("[image, image/png, 1.2 KB]"), its token limit and the model that would answer.
import { messageText } from '../../mcp/sampleModel';
import type { WaitingRequest } from '../../mcp/serverRequestRouter';
import type { McpRequestView } from '../../protocol/mcpRequests';

/** The most of one message's text a card shows. */
const MAX_CARD_TEXT = 20_000;

const cut = (text: string): string => (text.length > MAX_CARD_TEXT ? `${text.slice(0, MAX_CARD_TEXT)}… (${text.length - MAX_CARD_TEXT} more characters)` : text);

/** A waiting request as the webview's card shows it. */
export function requestView(waiting: WaitingRequest): McpRequestView {
	if (waiting.kind !== 'sampling') {
		return waiting.kind === 'form' ? { ...waiting, fields: [...waiting.fields] } : waiting;
	}
	const { id, server, request, model } = waiting;
	return {
		kind: 'sampling',
		id,
		server,
		...(request.systemPrompt === undefined || request.systemPrompt === '' ? {} : { systemPrompt: cut(request.systemPrompt) }),
		messages: request.messages.slice(0, 200).map((message) => ({ role: message.role, text: cut(messageText(message.content)) })),
		maxTokens: request.maxTokens,
		...(model === undefined ? {} : { model: model.slice(0, 400) }),
	};
}
