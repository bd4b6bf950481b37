// What the chat's restores left of a conversation (replay.ts `afterRestores`), kept up to date one
// record at a time: the task list, the plans and the task panel read it, so their cost is the
// records appended since they last looked, not the length of the chat.
import { rollsBackChat } from './replay';
import type { UserRecord } from './records';

/** `afterRestores` as a fold: takes records in order; `records` is what they leave. */
export class KeptRecords<R extends { readonly kind: string }> {
	private readonly kept: R[] = [];

	/** Takes the next record; true when it rolled part of the conversation back. */
	take(record: R): boolean {
		if (!rollsBackChat(record)) {
			this.kept.push(record);
			return false;
		}
		const to = this.kept.findIndex((candidate) => candidate.kind === 'user' && (candidate as unknown as UserRecord).id === record.to);
		if (to < 0) {
			return false;
		}
		this.kept.length = to;
		return true;
	}

	get records(): readonly R[] {
		return this.kept;
	}
}

/** The kept part of a growing conversation (a session's `records`, appended to in place). */
export class KeptConversation<R extends { readonly kind: string }> {
	private kept = new KeptRecords<R>();
	private source: readonly R[] | undefined;
	private seen = 0;

	constructor(private readonly all: () => readonly R[]) {}

	get records(): readonly R[] {
		const all = this.all();
		// Another array, or a shorter one: not the conversation followed so far.
		if (all !== this.source || all.length < this.seen) {
			this.kept = new KeptRecords<R>();
			this.source = all;
			this.seen = 0;
		}
		for (; this.seen < all.length; this.seen++) {
			this.kept.take(all[this.seen] as R);
		}
		return this.kept.records;
	}
}
