// What a checkpoint keep leaves until just after the write (store.ts): on the next turn of the
// event loop, while the tool writes the file, the previous text copied aside is hashed (from
// memory) and its copy moved into the blobs, the new text hashed and its blob written, and one
// line settles the entry (manifest.ts). settled() waits for all of it; flush() does what still
// waits synchronously when the window closes.
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import { hashText, type BlobFolder } from './blobs';
import { appendSettle, type Settled } from './manifest';
import type { ContentHash } from './types';

/** A file's previous text, copied aside unhashed before a write (pending.ts): the text, and the copy's path. */
export interface AsideCopy {
	readonly text: string;
	readonly path: string;
}

export interface AfterWriteDeps {
	readonly blobs: BlobFolder;
	readonly log: Logger;
	/** Holds a hash in flight (the collector leaves its blob) until release(). */
	hold(hash: ContentHash): void;
	release(hash: ContentHash): void;
}

export class AfterWrite {
	/** The copies this window's keeps made aside and have not settled yet (the store's recovery leaves them). */
	readonly copiesAside = new Set<string>();
	/** What is recorded but not started yet, by its manifest line's id. */
	private readonly waiting = new Map<string, { readonly start: (now: boolean) => void }>();
	/** Everything not settled yet, started or not. */
	private readonly pending = new Set<Promise<unknown>>();

	constructor(private readonly deps: AfterWriteDeps) {}

	/**
	 * What a keep leaves until just after the write, on the next turn of the event loop (while the
	 * tool writes the file): the previous text copied aside is hashed (from memory) and its copy
	 * moved into the blobs; the new text is hashed and its blob written; one line settles entry
	 * `id` with both. flush() does what still waits when the window closes. What fails is logged
	 * and stays not known in the entry (a copy left aside is recovered at the next startup).
	 * Resolves with the new text's hash.
	 */
	later(manifest: string, id: string, copy: AsideCopy | undefined, after: string | undefined, shown: string): Promise<ContentHash | undefined> {
		let start!: (now: boolean) => void;
		const kept = new Promise<ContentHash | undefined>((resolve, reject) => {
			let started = false;
			start = (now) => {
				if (started) {
					return;
				}
				started = true;
				this.waiting.delete(id);
				void this.settle(manifest, id, copy, after, shown, now).then((settled) => {
					if (after !== undefined && settled.after === undefined) {
						reject(new Error(`the new content of ${shown} was not kept`));
					} else {
						resolve(settled.after);
					}
				});
			};
		});
		// Awaited where it matters (lastKept, settled); failures are logged by settle().
		const done = kept.catch(() => undefined).finally(() => {
			this.pending.delete(done);
		});
		this.pending.add(done);
		this.waiting.set(id, { start });
		setImmediate(() => {
			start(false);
		});
		return kept;
	}

	/** later()'s work; `now`: all of it synchronously (flush), else the blob of a large new text through the thread pool. */
	private async settle(manifest: string, id: string, copy: AsideCopy | undefined, after: string | undefined, shown: string, now: boolean): Promise<Settled> {
		const held: ContentHash[] = [];
		const settled: { before?: ContentHash; after?: ContentHash } = {};
		try {
			if (copy) {
				const hash = hashText(copy.text);
				this.deps.hold(hash);
				held.push(hash);
				try {
					this.deps.blobs.adoptFile(copy.path, hash);
					settled.before = hash;
				} catch (error) {
					this.deps.log.warn(`Aside: could not keep the earlier content of ${shown} in the checkpoints (its copy stays aside until the next start): ${errorMessage(error)}`);
				}
			}
			if (after !== undefined) {
				const hash = hashText(after);
				this.deps.hold(hash);
				held.push(hash);
				try {
					if (now) {
						this.deps.blobs.putSync(after, hash);
					} else {
						await this.deps.blobs.put(after, hash);
					}
					settled.after = hash;
				} catch (error) {
					this.deps.log.warn(`Aside: could not keep the new content of ${shown} in the checkpoints (a restore cannot tell whether it changed since): ${errorMessage(error)}`);
				}
			}
			if (settled.before !== undefined || settled.after !== undefined) {
				try {
					appendSettle(manifest, id, settled);
				} catch (error) {
					this.deps.log.warn(`Aside: could not record the kept content of ${shown} in the checkpoints: ${errorMessage(error)}`);
					return {};
				}
			}
			return settled;
		} finally {
			if (copy) {
				this.copiesAside.delete(copy.path);
			}
			for (const hash of held) {
				this.deps.release(hash);
			}
		}
	}

	/** Resolves once everything recorded so far is settled (failures included: they were logged). */
	async settled(): Promise<void> {
		await Promise.all([...this.pending]);
	}

	/** Does everything still waiting now, synchronously. */
	flush(): void {
		for (const waiting of [...this.waiting.values()]) {
			waiting.start(true);
		}
	}
}
