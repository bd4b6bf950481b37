// Token estimates for compaction: how full the conversation's next request is. The provider's
// reported usage is the truth where there is one (the last answer after the compaction point);
// what was recorded after it, and a history with no such answer, are counted as ~4 characters a
// token — rough, but on the cautious side for code and prose alike.
import type { ChatMessage, ImagePart } from '../../providers/messages';
import { imageTokens } from '../../tools/images';
import type { ToolSpec } from '../../providers/provider';
import type { AgentRecord } from '../../transcript/records';
import { replayHistory } from '../../transcript/replay';

export const CHARS_PER_TOKEN = 4;

export function tokensOfChars(chars: number): number {
	return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Images as the characters that cost as many tokens as they do (imageTokens: width × height / 750, or a flat 1,600). */
export function imageChars(images: readonly Pick<ImagePart, 'width' | 'height'>[] | undefined): number {
	return (images ?? []).reduce((sum, image) => sum + imageTokens(image) * CHARS_PER_TOKEN, 0);
}

/** The characters a message puts in front of the model (tool calls by their JSON input). */
export function messageChars(message: ChatMessage): number {
	switch (message.role) {
		case 'tool':
			return message.content.length + imageChars(message.images);
		case 'assistant':
			return message.content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : part.name.length + JSON.stringify(part.input ?? null).length), 0);
		case 'user':
			return message.content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : part.content.length) + imageChars(part.images), 0);
	}
}

/** The characters of the system prompt and the tool specs. */
export function promptChars(system: string, tools: readonly ToolSpec[]): number {
	return system.length + tools.reduce((sum, tool) => sum + tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length, 0);
}

/** The estimated tokens of a request of these parts. */
export function requestTokens(system: string, tools: readonly ToolSpec[], messages: readonly ChatMessage[]): number {
	return tokensOfChars(promptChars(system, tools) + messages.reduce((sum, message) => sum + messageChars(message), 0));
}

/** The characters a record adds to the next request (as replay sends it, near enough). */
function recordChars(record: AgentRecord): number {
	switch (record.kind) {
		case 'user':
			return record.text.length + imageChars(record.images);
		case 'tool-result':
			// Out-of-line content (over 64 KB) is not loaded here: count it as that much.
			return (record.content ?? '').length + (record.content === null ? 64 * 1024 : 0) + (record.notices ?? []).reduce((sum, notice) => sum + notice.body.length + notice.key.length + 40, 0) +
				imageChars(record.images);
		case 'assistant':
			return record.text.length + record.toolCalls.reduce((sum, call) => sum + call.name.length + JSON.stringify(call.input ?? null).length, 0);
		case 'injected-reminders':
			return record.entries.reduce((sum, entry) => sum + entry.body.length + entry.key.length + 40, 0);
		default:
			return 0;
	}
}

/** Where the latest compaction record is in `records` (-1: never compacted). */
export function latestCompactionIndex(records: readonly AgentRecord[]): number {
	for (let index = records.length - 1; index >= 0; index--) {
		if (records[index]?.kind === 'compaction') {
			return index;
		}
	}
	return -1;
}

/**
 * The conversation's input tokens for its next request: the usage the provider reported for the
 * last answer after the compaction point (input + output: that answer is input now) plus an
 * estimate of what was recorded after it; with no such answer, an estimate of the whole request
 * (system, tools, the replayed history). Usage from before the compaction point never counts:
 * the history it measured is gone.
 */
export function conversationTokens(records: readonly AgentRecord[], system: string, tools: readonly ToolSpec[]): number {
	const from = latestCompactionIndex(records) + 1;
	let after = 0;
	for (let index = records.length - 1; index >= from; index--) {
		const record = records[index] as AgentRecord;
		if (record.kind === 'assistant' && record.usage) {
			return record.usage.inputTokens + record.usage.outputTokens + tokensOfChars(after);
		}
		after += recordChars(record);
	}
	return requestTokens(system, tools, replayHistory(records));
}

/** What the context holds as of the last answer after the compaction point (input + output), else the compaction's estimate. */
export function contextInUse(records: readonly AgentRecord[]): number | undefined {
	for (let i = records.length - 1; i >= 0; i--) {
		const record = records[i];
		if (record?.kind === 'compaction') {
			return record.tokensAfter;
		}
		if (record?.kind === 'assistant' && record.usage) {
			return record.usage.inputTokens + record.usage.outputTokens;
		}
	}
	return undefined;
}
