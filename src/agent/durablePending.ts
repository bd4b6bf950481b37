// The chat keeps its durable pending reminders (PendingFifo) in a `meta` record whenever they
// change, and a reopened chat queues them again — each exactly once: an item a root delivery
// recorded after that meta carried (the window closed before the meta saying so was written) is
// not queued again.
import type { StagedEntry } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';
import type { PendingItem } from '../transcript/pendingItems';
import type { AgentRecord } from '../transcript/records';
import type { SessionMeta } from '../transcript/sessionRecords';

/** What the latest meta with `pending` kept, and how many root records came before it. */
export interface SavedPending {
	readonly items: readonly PendingItem[];
	readonly from: number;
}

function itemOf(entry: StagedEntry): PendingItem[] {
	if (entry.body === null) {
		return [];
	}
	return [
		{
			type: entry.type,
			key: entry.key,
			body: entry.body,
			...(entry.label === undefined ? {} : { label: entry.label }),
			...(entry.reason === undefined ? {} : { reason: entry.reason }),
			...(entry.subjects === undefined ? {} : { subjects: entry.subjects.map(({ ref, hashes }) => ({ ref, hashes: [...hashes] })) }),
		},
	];
}

/** The meta record that keeps `entries` (the durable items now waiting) with the chat. */
export function pendingMeta(entries: readonly StagedEntry[], at: number): SessionMeta {
	return { kind: 'meta', at, pending: entries.flatMap(itemOf) };
}

/** Queues again, as durable, each saved item no root delivery after it carried (a delivery takes one item). */
export function restorePending(engine: ReminderEngine, saved: SavedPending | undefined, records: readonly AgentRecord[]): void {
	if (!saved) {
		return;
	}
	const delivered = records.slice(saved.from).flatMap((record) => (record.kind === 'injected-reminders' && record.owner.kind === 'root' ? record.entries : []));
	for (const item of saved.items) {
		const taken = delivered.findIndex((entry) => entry.key === item.key && entry.body === item.body);
		if (taken >= 0) {
			delivered.splice(taken, 1);
			continue;
		}
		engine.enqueuePending({ ...item }, true);
	}
}
