// A server's sampling request answered by the chat's provider and model (docs/mcp.md, "When a
// server asks"): its system prompt and messages as they are, no tools, at most its maxTokens. The
// exchange is the server's: nothing of it is recorded in a chat or sent with a chat's requests.
import type { ResolvedModel } from '../agent/ports';
import { formatBytes } from '../tools/text';
import type { ChatMessage } from '../providers/messages';
import type { StopReason } from '../providers/provider';
import type { SamplingContent, SamplingRequest, SamplingResult, SamplingStop } from './serverRequests';

/** A block as the card shows it and the model is asked it: text as it is, anything else named ("[image, image/png, 1.2 KB]"). */
export function blockText(block: SamplingContent): string {
	switch (block.type) {
		case 'text':
			return block.text;
		case 'image':
		case 'audio':
			return `[${block.type}, ${block.mimeType}, ${formatBytes(block.bytes)}]`;
		case 'other':
			return `[${block.what}]`;
	}
}

export const messageText = (content: readonly SamplingContent[]): string => content.map(blockText).join('\n\n');

const STOPS: Readonly<Record<StopReason, SamplingStop>> = { end: 'endTurn', 'tool-use': 'endTurn', 'max-tokens': 'maxTokens', refusal: 'refusal', other: 'other' };

export async function sampleModel(
	resolve: (signal: AbortSignal) => Promise<ResolvedModel>,
	request: SamplingRequest,
	signal: AbortSignal,
): Promise<SamplingResult> {
	const { provider, model } = await resolve(signal);
	const messages: ChatMessage[] = request.messages.map((message) => ({ role: message.role, content: [{ type: 'text', text: messageText(message.content) }] }));
	let text = '';
	let stop: SamplingStop = 'endTurn';
	for await (const event of provider.stream({ model, system: request.systemPrompt ?? '', messages, tools: [], maxOutputTokens: request.maxTokens }, signal)) {
		if (event.type === 'text') {
			text += event.text;
		} else if (event.type === 'stop') {
			stop = STOPS[event.reason];
		}
	}
	return { text, model, stopReason: stop };
}
