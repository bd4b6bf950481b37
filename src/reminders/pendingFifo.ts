// The session's pending FIFO: lifecycle notices (a resumed session, a fork report) waiting for
// the root's next request. It survives a request boundary (a failed or cancelled request leaves
// it whole). An item enqueued as durable (one that nothing else makes again when the chat is
// reopened: the file list after a manual compaction) is also kept with the chat, which is told
// whenever the durable items change. Items are consumed only by a commit.
import { Emitter, type Event } from '../base/event';
import type { StagedEntry } from './definition';

export class PendingFifo {
	private items: StagedEntry[] = [];
	private readonly durable = new Set<StagedEntry>();
	private readonly _onDidChangeDurable = new Emitter<readonly StagedEntry[]>();
	/** The durable items changed (one enqueued, or consumed): the ones now waiting, oldest first. */
	readonly onDidChangeDurable: Event<readonly StagedEntry[]> = this._onDidChangeDurable.event;

	get size(): number {
		return this.items.length;
	}

	enqueue(item: StagedEntry, durable = false): void {
		this.items.push(item);
		if (durable) {
			this.durable.add(item);
			this._onDidChangeDurable.fire(this.durableItems());
		}
	}

	/** The items now waiting, oldest first. */
	snapshot(): readonly StagedEntry[] {
		return this.items.slice();
	}

	/** The durable items now waiting, oldest first. */
	durableItems(): readonly StagedEntry[] {
		return this.items.filter((item) => this.durable.has(item));
	}

	/** Removes exactly these items (later arrivals stay pending). */
	consume(delivered: readonly StagedEntry[]): void {
		const gone = new Set(delivered);
		this.items = this.items.filter((item) => !gone.has(item));
		let durable = false;
		for (const item of gone) {
			durable = this.durable.delete(item) || durable;
		}
		if (durable) {
			this._onDidChangeDurable.fire(this.durableItems());
		}
	}
}
