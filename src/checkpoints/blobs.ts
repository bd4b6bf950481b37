// The kept texts, content-addressed: `blobs/ab/abcdef…` holds the UTF-8 text whose SHA-256 is
// `abcdef…`. A blob is written once — an existing one is only touched, so the collector's grace
// period (bound.ts) protects it — and always under a temporary name first, renamed into place, so
// a crash never leaves a half blob under a real name. Reads check the hash: a damaged blob reads
// as gone, never as a wrong text.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, promises as fs, renameSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { writeTextSync } from './textFile';
import type { ContentHash } from './types';

const HASH = /^[0-9a-f]{64}$/;

export function hashText(text: string): ContentHash {
	return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function isContentHash(value: string): value is ContentHash {
	return HASH.test(value);
}

/** A blob on disk: its hash, size and last write or touch. */
export interface BlobFile {
	readonly hash: ContentHash;
	readonly bytes: number;
	readonly mtimeMs: number;
}

/**
 * Texts up to this many characters are stored with synchronous calls, through one reused buffer
 * (textFile.ts): that blocks the extension host for under a millisecond per MB, less than the
 * thread pool's round trips cost under load (PERFORMANCE.md, the checkpoints case). Larger ones
 * go through the pool, so a 10 MB write never blocks it.
 */
export const SYNC_CHARS = 4 * 1024 * 1024;

export class BlobFolder {
	/** Shard folders known to exist: made once each. */
	private readonly shards = new Set<string>();

	constructor(readonly dir: string) {}

	pathOf(hash: ContentHash): string {
		return join(this.dir, hash.slice(0, 2), hash);
	}

	/** Stores `text` unless it is there already; returns its hash. `hash`: the text's, when the caller has it already (not checked again). */
	async put(text: string, hash: ContentHash = hashText(text)): Promise<ContentHash> {
		if (text.length <= SYNC_CHARS) {
			return this.putSync(text, hash);
		}
		const path = this.pathOf(hash);
		const now = new Date();
		try {
			await fs.utimes(path, now, now);
			return hash;
		} catch (error) {
			this.unlessGone(hash, error);
		}
		const temp = this.tempFor(hash);
		try {
			await fs.writeFile(temp, text, 'utf8');
			await fs.rename(temp, path);
		} catch (error) {
			this.failed(hash, temp);
			throw error;
		}
		return hash;
	}

	/**
	 * Moves the file at `path`, which holds the text of `hash` (checked by the caller), into place
	 * as its blob; when the blob is there already, only touches it and removes the file.
	 */
	adoptFile(path: string, hash: ContentHash): void {
		const now = new Date();
		try {
			utimesSync(this.pathOf(hash), now, now);
			rmSync(path, { force: true });
			return;
		} catch (error) {
			this.unlessGone(hash, error);
		}
		this.tempFor(hash);
		renameSync(path, this.pathOf(hash));
	}

	/** put() with synchronous calls whatever the size (the store's flush when the window closes). */
	putSync(text: string, hash: ContentHash = hashText(text)): ContentHash {
		const path = this.pathOf(hash);
		const now = new Date();
		try {
			utimesSync(path, now, now);
			return hash;
		} catch (error) {
			this.unlessGone(hash, error);
		}
		const temp = this.tempFor(hash);
		try {
			writeTextSync(temp, text);
			renameSync(temp, path);
		} catch (error) {
			this.failed(hash, temp);
			throw error;
		}
		return hash;
	}

	/**
	 * Makes the 256 shard folders ahead, through the thread pool (the store does at startup), so a
	 * keep on the request path does not make one. A shard that fails here is made when needed.
	 */
	async makeShards(): Promise<void> {
		await Promise.all(
			Array.from({ length: 256 }, async (_, index) => {
				const shard = join(this.dir, index.toString(16).padStart(2, '0'));
				try {
					await fs.mkdir(shard, { recursive: true });
					this.shards.add(shard);
				} catch {
					// Made by tempFor() when a blob needs it.
				}
			}),
		);
	}

	/** A temporary name beside the blob's, its shard made first (once). */
	private tempFor(hash: ContentHash): string {
		const shard = join(this.dir, hash.slice(0, 2));
		if (!this.shards.has(shard)) {
			mkdirSync(shard, { recursive: true });
			this.shards.add(shard);
		}
		return `${this.pathOf(hash)}.${randomBytes(6).toString('hex')}.tmp`;
	}

	/** Rethrows an error of touching a blob other than its absence (its shard is then made again next time). */
	private unlessGone(hash: ContentHash, error: unknown): void {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
			this.shards.delete(join(this.dir, hash.slice(0, 2)));
			throw error;
		}
	}

	private failed(hash: ContentHash, temp: string): void {
		rmSync(temp, { force: true });
		// The shard may have been removed meanwhile (by hand): made again next time.
		this.shards.delete(join(this.dir, hash.slice(0, 2)));
	}

	/** The text of `hash`; undefined when the blob is gone or does not hash to its name. */
	async get(hash: ContentHash): Promise<string | undefined> {
		if (!isContentHash(hash)) {
			return undefined;
		}
		let text: string;
		try {
			text = await fs.readFile(this.pathOf(hash), 'utf8');
		} catch {
			return undefined;
		}
		return hashText(text) === hash ? text : undefined;
	}

	/** Every blob, and the temporary files a crash left (as `hash` the file name, never a valid hash). */
	async list(): Promise<readonly BlobFile[]> {
		const files: BlobFile[] = [];
		let shards: string[];
		try {
			shards = await fs.readdir(this.dir);
		} catch {
			return files;
		}
		for (const shard of shards) {
			let names: string[];
			try {
				names = await fs.readdir(join(this.dir, shard));
			} catch {
				continue;
			}
			for (const name of names) {
				try {
					const stat = await fs.stat(join(this.dir, shard, name));
					files.push({ hash: name, bytes: stat.size, mtimeMs: stat.mtimeMs });
				} catch {
					// Removed meanwhile (another window's collector).
				}
			}
		}
		return files;
	}

	/** Removes a blob (or a temporary file, by its file name). */
	async remove(name: string): Promise<void> {
		await fs.rm(join(this.dir, name.slice(0, 2), name), { force: true });
	}
}
