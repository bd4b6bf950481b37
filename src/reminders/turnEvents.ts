// Turn events: observations made while tools run (an edited file, new diagnostics, an AGENTS.md
// a Read discovered, the user's steering), bound to one owner — the root turn or one agent
// invocation — and delivered at that owner's next WAIT. The same key coalesces (the newer
// replaces the older, or merges with it when the event says how). Closing an owner drops what
// it still holds, so nothing is carried into the next user turn.
import type { Owner, Stage, StagedEntry } from './definition';

export interface TurnEvent extends StagedEntry {
	/** 'observation' unless said otherwise; steering rides the last stage. */
	readonly stage?: Stage;
	/** How a newer event of the same key absorbs the older one; without it the newer replaces it. */
	readonly merge?: (older: TurnEvent) => TurnEvent;
}

function ownerKey(owner: Owner): string {
	return `${owner.kind}:${owner.id}`;
}

export class TurnEventQueues {
	private readonly queues = new Map<string, Map<string, TurnEvent>>();

	open(owner: Owner): void {
		const id = ownerKey(owner);
		if (!this.queues.has(id)) {
			this.queues.set(id, new Map());
		}
	}

	/** The owner finished (or changed): whatever it still holds is dropped. */
	close(owner: Owner): void {
		this.queues.delete(ownerKey(owner));
	}

	isOpen(owner: Owner): boolean {
		return this.queues.has(ownerKey(owner));
	}

	/** Queues an event for `owner`. Returns false, dropping it, when the owner is not open. */
	queue(owner: Owner, event: TurnEvent): boolean {
		const queue = this.queues.get(ownerKey(owner));
		if (!queue) {
			return false;
		}
		const older = queue.get(event.key);
		queue.set(event.key, older && event.merge ? event.merge(older) : event);
		return true;
	}

	/** What `owner` holds now, in the order keys first arrived. */
	pending(owner: Owner): readonly TurnEvent[] {
		const queue = this.queues.get(ownerKey(owner));
		return queue ? [...queue.values()] : [];
	}

	/** Removes a delivered event, unless a newer one of its key replaced it since. */
	remove(owner: Owner, delivered: TurnEvent): void {
		const queue = this.queues.get(ownerKey(owner));
		if (queue?.get(delivered.key) === delivered) {
			queue.delete(delivered.key);
		}
	}
}
