// The text each file was last kept with as its `after`, and its hash, remembered by the store so a
// file's next change, which starts from that text (its `before`), neither hashes nor writes it
// again. Bounded apart from the store: the files written last, within LAST_AFTER_CHARS and
// LAST_AFTER_FILES; forgotten whenever blobs go, so a hash is never named again without its blob.
import { utimesSync } from 'node:fs';
import type { BlobFolder } from './blobs';
import type { HeldHashes } from './heldHashes';
import type { ContentHash } from './types';

/**
 * The last kept texts remembered hold at most this many characters together (16 MB of ASCII
 * text), for at most LAST_AFTER_FILES files, the ones written last: texts the tools made anyway,
 * kept alive a little longer so a file's next change need not hash its text again.
 */
const LAST_AFTER_CHARS = 16 * 1024 * 1024;
const LAST_AFTER_FILES = 64;

export class LastKeptTexts {
	private readonly texts = new Map<string, { readonly text: string; readonly hash: Promise<ContentHash | undefined> }>();
	private chars = 0;

	constructor(
		private readonly blobs: BlobFolder,
		private readonly heldHashes: HeldHashes,
	) {}

	/**
	 * The hash of `text` when it is what `path` was last kept with and its blob is still there
	 * (then held like a put, into `held`), else undefined.
	 */
	async hashOf(path: string, text: string, held: ContentHash[]): Promise<ContentHash | undefined> {
		const last = this.texts.get(path);
		if (last === undefined || last.text !== text) {
			return undefined;
		}
		let hash: ContentHash | undefined;
		try {
			// Kept just after the write that made it: by now, as a rule.
			hash = await last.hash;
			if (hash === undefined) {
				throw new Error('not kept');
			}
			// Touched as put() touches a blob it finds; gone (another window's bound took it): put it again.
			const now = new Date();
			utimesSync(this.blobs.pathOf(hash), now, now);
		} catch {
			this.forget(path);
			return undefined;
		}
		this.heldHashes.hold(hash, held);
		return hash;
	}

	/** `path` was just kept with `text` as its `after`, whose hash `hash` resolves to once it is kept. */
	remember(path: string, text: string, hash: Promise<ContentHash | undefined>): void {
		if (text.length > LAST_AFTER_CHARS) {
			return;
		}
		this.texts.set(path, { text, hash });
		this.chars += text.length;
		for (const [oldest, last] of this.texts) {
			if (this.texts.size <= LAST_AFTER_FILES && this.chars <= LAST_AFTER_CHARS) {
				break;
			}
			this.forget(oldest, last);
		}
	}

	forget(path: string, last = this.texts.get(path)): void {
		if (last && this.texts.delete(path)) {
			this.chars -= last.text.length;
		}
	}

	forgetAll(): void {
		this.texts.clear();
		this.chars = 0;
	}
}
