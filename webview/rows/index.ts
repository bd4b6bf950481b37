// One function per row kind, chosen here. Each returns a fresh element (or null for an item
// that shows nothing), so a row can be re-rendered or swapped for a richer one on its own.
import type { AssistantItem, TranscriptItem } from '../../src/protocol/messages';
import { assistantRow } from './assistant';
import { remindersRow } from './reminders';
import { toolRow } from './tool';
import { turnEndRow } from './turnEnd';
import { userRow } from './user';

export function rowFor(item: TranscriptItem): HTMLLIElement | null {
	switch (item.kind) {
		case 'user':
			return userRow(item);
		case 'assistant':
			return assistantRow(item);
		case 'tool':
			return toolRow(item);
		case 'reminders':
			return remindersRow(item);
		case 'turn-end':
			return turnEndRow(item);
	}
}

// The stops assistantRow marks; a response with no text and one of the others shows nothing.
const SILENT_STOPS: Record<AssistantItem['stop'], boolean> = { end: true, 'tool-use': true, other: true, interrupted: false, failed: false, 'max-tokens': false, refusal: false };

/** Whether rowFor(item) is null, told without building the row (the transcript skips these). */
export function rendersNothing(item: TranscriptItem): boolean {
	switch (item.kind) {
		case 'assistant':
			return item.text === '' && SILENT_STOPS[item.stop];
		case 'turn-end':
			return item.outcome === 'done';
		default:
			return false;
	}
}
