// What a reopened chat's session roster takes from its records: each delivery it still holds
// (history.ts), and its turn count. The count is the chat's user turns, not the turn of its last
// injection record: turns whose requests carried no reminder wrote none, and counting from that
// record would make every interval reminder late by those turns.
import { restoreDeliveries } from '../reminders/history';
import type { InjectionRecord } from '../reminders/record';
import type { ReminderRoster } from '../reminders/roster';
import type { AgentRecord } from '../transcript/records';

/** The root user turns the records hold: one per turn id (a message typed into a running turn starts none). */
export function userTurnsOf(records: readonly AgentRecord[]): number {
	const turns = new Set<string>();
	for (const record of records) {
		if (record.kind === 'user' && record.agent === undefined) {
			turns.add(record.turnId);
		}
	}
	return turns.size;
}

/** Restores the session roster of a reopened chat from its root conversation's records. */
export function restoreRoster(roster: ReminderRoster, records: readonly AgentRecord[]): void {
	restoreDeliveries(roster, records.filter((record): record is InjectionRecord => record.kind === 'injected-reminders'));
	roster.restoreTurn(userTurnsOf(records));
}
