// Where a compaction cuts, and the summary request for the part before the cut. The cut depends
// on when it runs: between turns (manual) everything is summarized; at a turn's first request the
// turn's user message is kept; mid-turn the latest answer and its tool results are kept, so the
// model still sees the calls it is working through. The summarized part is exactly what replay
// would have sent before the kept tail (an earlier summary included).
import type { ChatMessage } from '../../providers/messages';
import type { ChatRequest, ToolSpec } from '../../providers/provider';
import type { AgentRecord } from '../../transcript/records';
import { replayHistory, selectedRecords, summaryMessage } from '../../transcript/replay';
import { messageChars, promptChars, tokensOfChars } from './estimate';
import { summaryPrompt } from './prompt';

/** Between turns (nothing kept), at a turn's first request (its user message kept), mid-turn (the latest answer and its results kept). */
export type CompactionPoint = 'between-turns' | 'turn-start' | 'mid-turn';

export interface CompactionCut {
	/** The first record kept verbatim (absent: none). */
	readonly keepFrom: string | undefined;
	/** The records summarized (of the selected history, before the cut). */
	readonly summarized: readonly AgentRecord[];
	/** The records kept verbatim, from `keepFrom` to the end. */
	readonly tail: readonly AgentRecord[];
	/** What replay would have sent before the tail: the earlier summary, if any, then the summarized records. */
	readonly messages: readonly ChatMessage[];
}

/** An earlier compaction record inside a kept tail is no compaction point of its own: replay the rest. */
const withoutCompactions = (records: readonly AgentRecord[]): AgentRecord[] => records.filter((record) => record.kind !== 'compaction');

function lastIndexOf(records: readonly AgentRecord[], kind: 'user' | 'assistant'): number {
	for (let index = records.length - 1; index >= 0; index--) {
		if (records[index]?.kind === kind) {
			return index;
		}
	}
	return -1;
}

/** The cut for `point`, or undefined when there is nothing to summarize (no message, answer or result before it). */
export function compactionCut(records: readonly AgentRecord[], point: CompactionPoint): CompactionCut | undefined {
	const { compaction, records: selected } = selectedRecords(records);
	let keep = selected.length;
	if (point !== 'between-turns') {
		const found = lastIndexOf(selected, point === 'turn-start' ? 'user' : 'assistant');
		keep = found < 0 ? selected.length : found;
	}
	const summarized = selected.slice(0, keep);
	if (!summarized.some((record) => record.kind === 'user' || record.kind === 'assistant' || record.kind === 'tool-result')) {
		return undefined;
	}
	const kept = selected[keep];
	return {
		keepFrom: kept?.kind === 'user' || kept?.kind === 'assistant' ? kept.id : undefined,
		summarized,
		tail: selected.slice(keep),
		messages: [...(compaction ? [summaryMessage(compaction)] : []), ...replayHistory(withoutCompactions(summarized))],
	};
}

/** The messages a request replays after a compaction: the summary, then the tail. */
export function compactedMessages(summary: ChatMessage, tail: readonly AgentRecord[]): ChatMessage[] {
	return [summary, ...replayHistory(withoutCompactions(tail))];
}

export interface SummaryRequestParts {
	readonly model: string;
	readonly system: string;
	readonly tools: readonly ToolSpec[];
	readonly maxOutputTokens: number;
	/** The model's window, when known: the request is fitted into it less `maxOutputTokens`. */
	readonly contextWindow?: number;
	/** What the person asked the summary to keep. */
	readonly instructions?: string;
}

export interface SummaryRequest {
	readonly request: ChatRequest;
	/** How many of the summarized part's messages were left out (its oldest turns) to fit the window. */
	readonly leftOut: number;
}

/**
 * The request that asks the model for the summary: the conversation's own system prompt and tools
 * (a history with tool calls needs the tool list, and the same prefix keeps the provider's cache),
 * no tool calls allowed, the summarized messages and the summary prompt. When they would not fit
 * the window, the oldest turns go first — cut only before a user-role message, so a call is never
 * parted from its result — and the prompt says the start was left out.
 */
export function summaryRequest(cut: CompactionCut, parts: SummaryRequestParts): SummaryRequest {
	const { messages } = cut;
	let from = 0;
	if (parts.contextWindow !== undefined) {
		const budget = parts.contextWindow - parts.maxOutputTokens;
		const fixed = promptChars(parts.system, parts.tools) + summaryPrompt(parts.instructions, true).length;
		let chars = fixed + messages.reduce((sum, message) => sum + messageChars(message), 0);
		// Drop whole turns from the start while it does not fit; the last one stays, whatever it costs.
		while (tokensOfChars(chars) > budget) {
			const next = nextCut(messages, from + 1);
			if (next === undefined) {
				break;
			}
			for (let drop = from; drop < next; drop++) {
				chars -= messageChars(messages[drop] as ChatMessage);
			}
			from = next;
		}
	}
	const prompt: ChatMessage = { role: 'user', content: [{ type: 'text', text: summaryPrompt(parts.instructions, from > 0) }] };
	return {
		request: {
			model: parts.model,
			system: parts.system,
			messages: [...messages.slice(from), prompt],
			tools: parts.tools,
			maxOutputTokens: parts.maxOutputTokens,
			toolChoice: 'none',
		},
		leftOut: from,
	};
}

/** The first index at or after `from` where a message may start (a typed user message); undefined when none. */
function nextCut(messages: readonly ChatMessage[], from: number): number | undefined {
	for (let index = from; index < messages.length; index++) {
		const message = messages[index];
		if (message?.role === 'user' && message.synthetic === undefined) {
			return index;
		}
	}
	return undefined;
}
