// The kept texts, content-addressed: `blobs/ab/abcdef…` holds the UTF-8 text whose SHA-256 is
// `abcdef…`. A blob is written once — an existing one is only touched, so the collector's grace
// period (bound.ts) protects it — and always under a temporary name first, renamed into place, so
// a crash never leaves a half blob under a real name. Reads check the hash: a damaged blob reads
// as gone, never as a wrong text.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, promises as fs, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
 * Texts up to this many characters are stored with synchronous calls: four small syscalls block
 * the extension host for less than the thread pool's round trips cost under load (PERFORMANCE.md,
 * the checkpoints case). Larger ones go through the pool, so a 10 MB write never blocks it.
 */
const SYNC_CHARS = 1024 * 1024;

export class BlobFolder {
	/** Shard folders known to exist: made once each. */
	private readonly shards = new Set<string>();

	constructor(readonly dir: string) {}

	pathOf(hash: ContentHash): string {
		return join(this.dir, hash.slice(0, 2), hash);
	}

	/** Stores `text` unless it is there already; returns its hash. */
	async put(text: string): Promise<ContentHash> {
		const hash = hashText(text);
		const path = this.pathOf(hash);
		const now = new Date();
		const small = text.length <= SYNC_CHARS;
		try {
			if (small) {
				utimesSync(path, now, now);
			} else {
				await fs.utimes(path, now, now);
			}
			return hash;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
				throw error;
			}
		}
		const shard = join(this.dir, hash.slice(0, 2));
		if (!this.shards.has(shard)) {
			mkdirSync(shard, { recursive: true });
			this.shards.add(shard);
		}
		const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
		try {
			if (small) {
				writeFileSync(temp, text, 'utf8');
				renameSync(temp, path);
			} else {
				await fs.writeFile(temp, text, 'utf8');
				await fs.rename(temp, path);
			}
		} catch (error) {
			rmSync(temp, { force: true });
			// The shard may have been removed meanwhile (by hand): made again next time.
			this.shards.delete(shard);
			throw error;
		}
		return hash;
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
