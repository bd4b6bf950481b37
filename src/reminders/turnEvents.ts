// Turn events: observations made while tools run (an edited file, new diagnostics, an AGENTS.md
// a Read discovered, the user's steering), bound to one owner — the root turn or one agent
// invocation — and delivered at that owner's next WAIT. One entry per key: a newer event replaces
// the older, unless both are of one accumulating kind, whose items add up into one entry (see
// AccumulatingKind). Closing an owner drops what it still holds, so nothing is carried into the
// next user turn.
import type { DeclaredEntry } from './declaration';
import type { Commit, Owner, ReminderSubject, Stage, StagedEntry } from './definition';

export interface TurnEvent extends StagedEntry {
	/** 'observation' unless said otherwise; steering rides the last stage. */
	readonly stage?: Stage;
	/** Set on an event of an accumulating kind: the items it was rendered from. */
	readonly accumulated?: Accumulated;
}

/** One queued item, with the commits of the events that brought it (they run when it is delivered). */
interface Cell<Item> {
	readonly item: Item;
	readonly commits: readonly Commit[];
}

/** What an accumulating event was rendered from; only AccumulatingKind reads it. */
export interface Accumulated {
	readonly kind: AccumulatingKind<unknown>;
	readonly cells: readonly Cell<unknown>[];
}

/** What the items of an accumulating kind render to: the entry's text and what rides with it. */
export interface Rendering {
	readonly body: string | null;
	readonly reason?: string;
	readonly subjects?: readonly ReminderSubject[];
	/** Runs once the entry was delivered; the items' own commits run after it. */
	readonly commit?: Commit;
}

/** How the items of one kind add up, and how they render into one entry. */
export interface Accumulation<Item> {
	/** Steering rides the last stage; 'observation' unless said otherwise. */
	readonly stage?: Stage;
	/**
	 * Items of the same identity stand for each other: the newer one leaves the older out and goes
	 * last, or, with `replace`, what `replace` makes takes the older one's place. Without an
	 * identity every item is kept, in the order queued.
	 */
	identity?(item: Item): string;
	/** What an item and a newer one of the same identity become together. */
	replace?(older: Item, newer: Item): Item;
	/** The one entry for these items (never none), in their queued order. */
	render(items: readonly Item[]): Rendering;
}

/**
 * A turn-event kind whose events accumulate: the queue keeps the items of every event of the kind
 * queued for an owner (verdicts, steering messages, instruction files, per-file diagnostics) and
 * the kind renders them into one entry. A delivery consumes exactly the items it carried: what
 * arrived while its request was on the way stays for the next WAIT.
 */
export class AccumulatingKind<Item> {
	constructor(
		private readonly declared: DeclaredEntry,
		private readonly accumulation: Accumulation<Item>,
	) {}

	/** The event for these items; `commit` runs once, when they are delivered. */
	event(items: readonly Item[], commit?: Commit): TurnEvent {
		return this.rendered(items.map((item) => ({ item, commits: commit ? [commit] : [] })));
	}

	/** `newer`'s items added to `older`'s, rendered again; undefined when `older` is of another kind. */
	absorb(older: TurnEvent, newer: Accumulated): TurnEvent | undefined {
		if (older.accumulated?.kind !== this) {
			return undefined;
		}
		const cells = [...older.accumulated.cells] as Cell<Item>[];
		for (const cell of newer.cells as readonly Cell<Item>[]) {
			const index = this.indexOfSame(cells, cell.item);
			const old = cells[index];
			const commits = [...(old?.commits ?? []), ...cell.commits];
			if (old === undefined) {
				cells.push(cell);
			} else if (this.accumulation.replace) {
				cells[index] = { item: this.accumulation.replace(old.item, cell.item), commits };
			} else {
				cells.splice(index, 1);
				cells.push({ item: cell.item, commits });
			}
		}
		return this.rendered(cells);
	}

	/** What `current` still holds once `delivered`'s items (and their commits) are consumed; undefined when nothing. */
	without(current: TurnEvent, delivered: Accumulated): TurnEvent | undefined {
		const gone = new Set<Cell<unknown>>(delivered.cells);
		const ran = new Set(delivered.cells.flatMap((cell) => cell.commits));
		const left = (current.accumulated?.cells ?? [])
			.filter((cell) => !gone.has(cell))
			.map((cell) => ({ item: cell.item as Item, commits: cell.commits.filter((commit) => !ran.has(commit)) }));
		return left.length > 0 ? this.rendered(left) : undefined;
	}

	private indexOfSame(cells: readonly Cell<Item>[], item: Item): number {
		if (!this.accumulation.identity) {
			return -1;
		}
		const id = this.accumulation.identity(item);
		return cells.findIndex((cell) => this.accumulation.identity?.(cell.item) === id);
	}

	private rendered(cells: readonly Cell<Item>[]): TurnEvent {
		const { body, reason, subjects, commit } = this.accumulation.render(cells.map((cell) => cell.item));
		const commits = cells.flatMap((cell) => cell.commits);
		const { stage } = this.accumulation;
		const { type, key, label } = this.declared;
		return {
			type,
			key,
			label,
			...(stage ? { stage } : {}),
			body,
			...(reason === undefined ? {} : { reason }),
			...(subjects ? { subjects } : {}),
			...(commit || commits.length > 0
				? {
						commit: () => {
							commit?.();
							for (const each of commits) {
								each();
							}
						},
					}
				: {}),
			accumulated: { kind: this, cells },
		};
	}
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
		const added = older && event.accumulated ? event.accumulated.kind.absorb(older, event.accumulated) : undefined;
		queue.set(event.key, added ?? event);
		return true;
	}

	/** What `owner` holds now, in the order keys first arrived. */
	pending(owner: Owner): readonly TurnEvent[] {
		const queue = this.queues.get(ownerKey(owner));
		return queue ? [...queue.values()] : [];
	}

	/**
	 * Removes a delivered event, unless a newer one of its key replaced it since. Of an
	 * accumulating kind, only the delivered items go: items that arrived since stay.
	 */
	remove(owner: Owner, delivered: TurnEvent): void {
		const queue = this.queues.get(ownerKey(owner));
		const current = queue?.get(delivered.key);
		if (!queue || current === undefined) {
			return;
		}
		if (current === delivered) {
			queue.delete(delivered.key);
			return;
		}
		const kind = current.accumulated?.kind;
		if (kind && delivered.accumulated?.kind === kind) {
			const left = kind.without(current, delivered.accumulated);
			if (left) {
				queue.set(delivered.key, left);
			} else {
				queue.delete(delivered.key);
			}
		}
	}
}
