// The context the person's hooks add to a root turn's message (docs/hooks.md): the record of what
// a request carried, and the `<hook-context>` block replay puts before the message's own text.
import { sanitizeUntrusted } from '../reminders/envelope';
import type { HookContextEntry } from './hookContextRecord';
import type { TranscriptRecord, UserRecord } from './records';

export type { HookContextEntry, HookContextRecord } from './hookContextRecord';

/** Pending hook context reserved into the request being prepared, for the user message of root turn `turnId`. */
export interface ReservedHookContext {
	readonly turnId: string;
	readonly entries: readonly HookContextEntry[];
}

/** A hook's words may not close or open the block they ride in. */
function neutraliseHookTags(text: string): string {
	return sanitizeUntrusted(text).replace(/<(?=\/?hook-(?:context|event)\b)/gi, '\u2039');
}

/**
 * What the person's hooks added to a message, before its text: one `<hook-event name="…">` per
 * hook's answer inside one `<hook-context>` block (docs/hooks.md); nothing when none.
 */
export function hookContextBlock(entries: UserRecord['hookContext']): string {
	if (!entries?.length) {
		return '';
	}
	const events = entries.map((entry) => `<hook-event name="${entry.event.replace(/[^A-Za-z]/g, '')}">\n${neutraliseHookTags(entry.text)}\n</hook-event>`);
	return `<hook-context>\n${events.join('\n')}\n</hook-context>\n\n`;
}

/** The hook context recorded for each root turn's message (hook-context records), and the reservation of the request being prepared. */
export function hookContextByTurn(records: readonly TranscriptRecord[], reserved: ReservedHookContext | undefined): Map<string, HookContextEntry[]> {
	const byTurn = new Map<string, HookContextEntry[]>();
	for (const record of records) {
		if (record.kind === 'hook-context') {
			byTurn.set(record.turnId, [...(byTurn.get(record.turnId) ?? []), ...record.entries]);
		}
	}
	if (reserved?.entries.length) {
		byTurn.set(reserved.turnId, [...(byTurn.get(reserved.turnId) ?? []), ...reserved.entries]);
	}
	return byTurn;
}
