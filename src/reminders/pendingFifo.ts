// The session's pending FIFO: lifecycle notices (a resumed session, a fork report) waiting for
// the root's next request. It survives a request boundary (a failed or cancelled request leaves
// it whole) but not a restart (it lives in memory). Items are consumed only by a commit.
import type { StagedEntry } from './definition';

export class PendingFifo {
	private items: StagedEntry[] = [];

	get size(): number {
		return this.items.length;
	}

	enqueue(item: StagedEntry): void {
		this.items.push(item);
	}

	/** The items now waiting, oldest first. */
	snapshot(): readonly StagedEntry[] {
		return this.items.slice();
	}

	/** Removes exactly these items (later arrivals stay pending). */
	consume(delivered: readonly StagedEntry[]): void {
		const gone = new Set(delivered);
		this.items = this.items.filter((item) => !gone.has(item));
	}
}
