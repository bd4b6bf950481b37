// Reading deliveries back from retained history (a reopened session, after a restart). Only the
// engine's own typed records count: a transcript line is a record because of its own `kind`,
// never because some text inside another line — a user message, a tool result, file content,
// model output — looks like a record or a <system-reminder> block.
import type { Logger } from '../base/log';
import type { ReminderSubject } from './definition';
import { decodeInjectionRecord, type InjectionRecord, RECORD_KIND } from './record';
import type { ReminderRoster } from './roster';

/** A transcript record of any kind, as a session holds them (injection records already decoded). */
export interface RecordLike {
	readonly kind: string;
}

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
			// An entry with subjects is an observer's turn event (nested AGENTS.md files, say), not
			// the roster's delivery of its type: taking its body as the roster's last one would make
			// an unchanged on-change reminder of the same type fire again.
			if (entry.subjects === undefined) {
				roster.restoreDelivery(entry.type, record.turn, entry.body);
			} else {
				roster.restoreSubjects(entry.type, entry.subjects);
			}
		}
	}
}

/**
 * The subjects of every delivered entry of `type` in the root context, oldest first: what an
 * observer restores its acknowledgements from (structure only, never body text). Entries without
 * subjects contribute nothing.
 */
export function deliveredSubjects(records: Iterable<RecordLike>, type: string): (readonly ReminderSubject[])[] {
	const found: (readonly ReminderSubject[])[] = [];
	for (const record of records) {
		if (record.kind !== RECORD_KIND || (record as InjectionRecord).owner.kind !== 'root') {
			continue;
		}
		for (const entry of (record as InjectionRecord).entries) {
			if (entry.type === type && entry.subjects !== undefined) {
				found.push(entry.subjects);
			}
		}
	}
	return found;
}
