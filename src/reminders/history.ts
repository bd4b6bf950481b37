// Reading deliveries back from retained history (a reopened session, after a restart). Only the
// engine's own typed records count: a transcript line is a record because of its own `kind`,
// never because some text inside another line — a user message, a tool result, file content,
// model output — looks like a record or a <system-reminder> block.
import type { Logger } from '../base/log';
import { decodeInjectionRecord, type InjectionRecord, RECORD_KIND } from './record';
import type { ReminderRoster } from './roster';

function isRecordLine(line: unknown): boolean {
	return typeof line === 'object' && line !== null && (line as { kind?: unknown }).kind === RECORD_KIND;
}

/**
 * The injection records among parsed transcript lines, in order. A line of the record kind that
 * does not decode is reported and skipped: it is never trusted in part.
 */
export function injectionRecordsIn(lines: Iterable<unknown>, log?: Logger): InjectionRecord[] {
	const records: InjectionRecord[] = [];
	for (const line of lines) {
		if (!isRecordLine(line)) {
			continue;
		}
		try {
			records.push(decodeInjectionRecord(line));
		} catch (error) {
			log?.warn(`Reminders: skipped a damaged injection record: ${(error as Error).message}`);
		}
	}
	return records;
}

/**
 * Restores a roster's firing state from the deliveries retained history still holds, so an
 * on-change reminder whose content is unchanged and still in history is not sent again. Only
 * the roster's own owner kind counts (the session roster reads root records).
 */
export function restoreDeliveries(roster: ReminderRoster, records: readonly InjectionRecord[]): void {
	const ownerKind = roster.scope === 'session' ? 'root' : 'agent';
	for (const record of records) {
		if (record.owner.kind !== ownerKind) {
			continue;
		}
		roster.restoreTurn(record.turn);
		for (const entry of record.entries) {
			roster.restoreDelivery(entry.type, record.turn, entry.body);
		}
	}
}
