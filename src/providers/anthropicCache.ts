// Anthropic prompt caching: where a request's `cache_control` breakpoints go. The API caches the
// prompt up to and including a block marked `cache_control: {type: 'ephemeral'}`, in the order it
// renders a request (tools, then system, then messages), and a later request whose prefix up to a
// breakpoint is identical reads it back (platform.claude.com, "Prompt caching"). At most four
// breakpoints a request; a prefix shorter than the model's minimum (1,024 tokens and up) is
// simply not cached. Aside spends them on:
//   1. the last tool (the tool list, stable within a mode),
//   2. the system prompt, sent as one text block (tools + system),
//   3. the tail: the last block of the last stable message, the one before the fresh synthetic
//      reminders message WAIT appended (reminders are recorded and replayed byte for byte, so they
//      are stable from the next request on; this request's may not be, if it fails and the next
//      attempt carries different ones),
//   4. only after a step that added many blocks (parallel tool calls): the previous request's
//      tail, where that request's cache entry was written. The API looks for an earlier entry only
//      about 20 blocks back from a breakpoint, so without it such a step would write the whole
//      conversation again. Otherwise the marker is left out: a marker moving changes nothing in
//      the cached prompt, but one left out keeps consecutive bodies equal byte for byte for longer
//      (the prefix-stability bench).
// A breakpoint never goes on an empty or whitespace-only text block.
import type { ChatMessage } from './messages';
import { alternating } from './messages';

export const EPHEMERAL = { type: 'ephemeral' } as const;
/** The API's limit of breakpoints in one request. */
export const MAX_BREAKPOINTS = 4;
/**
 * Blocks between the tail and the previous request's tail past which that one is marked too: a
 * margin under the API's lookback of "about 20 blocks".
 */
export const LOOKBACK_BLOCKS = 15;

export interface CacheControlled {
	cache_control?: typeof EPHEMERAL;
}

interface Block extends CacheControlled {
	readonly type: string;
	readonly text?: string;
}

interface Message {
	readonly content: Block[];
}

function markable(block: Block): boolean {
	return block.type !== 'text' || (block.text ?? '').trim() !== '';
}

/** How many blocks the neutral messages become (as `toAnthropicMessages` builds them: empty texts dropped). */
function blockCount(messages: readonly ChatMessage[]): number {
	let count = 0;
	for (const entry of alternating(messages)) {
		count += entry.role === 'assistant' ? entry.content.length : entry.results.length + entry.texts.flat().reduce((sum, part) => sum + (part.images?.length ?? 0) + (part.text === '' ? 0 : 1), 0);
	}
	return count;
}

function isReminders(message: ChatMessage | undefined): boolean {
	return message?.role === 'user' && message.synthetic === 'reminders';
}

/**
 * How many blocks at the end of the request are not this request's stable prefix: the fresh
 * reminders message (merged into the last user message, after its tool results and text).
 */
function freshBlocks(messages: readonly ChatMessage[]): number {
	return isReminders(messages.at(-1)) ? blockCount(messages.slice(-1)) : 0;
}

/**
 * How many blocks at the end were not in the previous request's stable prefix: everything from
 * the last assistant message on (the previous request's answer and what followed it), and the
 * reminders message just before it, which that request carried fresh. Undefined when the history
 * has no assistant message (the first request of a conversation).
 */
function sincePreviousBlocks(messages: readonly ChatMessage[]): number | undefined {
	let index = messages.length - 1;
	while (index >= 0 && messages[index]?.role !== 'assistant') {
		index--;
	}
	if (index < 0) {
		return undefined;
	}
	if (isReminders(messages[index - 1])) {
		index--;
	}
	return blockCount(messages.slice(index));
}

/** Marks the markable block at or before flat position `position`; returns the position marked, or -1. */
function markAtOrBefore(flat: readonly Block[], position: number): number {
	for (let at = position; at >= 0; at--) {
		const block = flat[at];
		if (block && markable(block)) {
			block.cache_control = EPHEMERAL;
			return at;
		}
	}
	return -1;
}

/**
 * Puts the message breakpoints on `wire` (the Anthropic messages built from `messages`), at most
 * `budget` of them: the tail, then the previous request's tail when it is far back. Returns how
 * many it placed.
 */
export function markMessageBreakpoints(messages: readonly ChatMessage[], wire: readonly Message[], budget: number): number {
	const flat = wire.flatMap((message) => message.content);
	if (budget <= 0 || flat.length === 0) {
		return 0;
	}
	const tail = markAtOrBefore(flat, flat.length - 1 - freshBlocks(messages));
	if (tail < 0) {
		return 0;
	}
	const since = sincePreviousBlocks(messages);
	const previous = since === undefined ? -1 : flat.length - 1 - since;
	// No previous request, or its entry is within the lookback of the tail: the tail finds it.
	if (budget < 2 || previous < 0 || tail - previous <= LOOKBACK_BLOCKS) {
		return 1;
	}
	return markAtOrBefore(flat, previous) < 0 ? 1 : 2;
}
