// The hashes a keep of this window is writing or has just written and its manifest line does not
// name yet. Apart from the store because the work after a write (afterWrite.ts) holds them too,
// and the collector (collector.ts) must leave their blobs alone while they are held.
import type { ContentHash } from './types';

export class HeldHashes {
	/** How many holds each hash has: two keeps of one text hold it twice. */
	private readonly counts = new Map<ContentHash, number>();

	/** Holds `hash` until release(); `held` collects it for the caller's own releases. */
	hold(hash: ContentHash, held?: ContentHash[]): void {
		this.counts.set(hash, (this.counts.get(hash) ?? 0) + 1);
		held?.push(hash);
	}

	release(hash: ContentHash): void {
		const count = (this.counts.get(hash) ?? 1) - 1;
		if (count <= 0) {
			this.counts.delete(hash);
		} else {
			this.counts.set(hash, count);
		}
	}

	has(hash: ContentHash): boolean {
		return this.counts.has(hash);
	}
}
