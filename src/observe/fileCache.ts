// What the agent last saw of each file it read or wrote, so that a change made outside Aside's
// tools can be shown as a diff against it. Bounded twice: a file over maxFileBytes is kept as a
// fingerprint (size and mtime, no bytes), and the whole cache evicts least recently used entries
// past maxCacheBytes. Paths under excluded folders (Aside's own storage, other sessions) never
// enter.
import * as nodePath from 'node:path';
import { isInside } from '../tools/paths';

/**
 * 1 MB: ten times a large hand-written source file, so every file worth a diff keeps its bytes,
 * while generated bundles, lock files and data files (whose diffs are unreadable anyway) cost
 * only a fingerprint.
 */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/**
 * 16 MB: several hundred typical source files (10–50 KB), more than one session reads, and small
 * beside the extension host's memory; bytes are kept as UTF-8 (not UTF-16 strings), so the budget
 * is what is held.
 */
export const DEFAULT_MAX_CACHE_BYTES = 16 * 1024 * 1024;

/** What an entry costs besides its bytes (path, record, map slot), so fingerprints are bounded too. */
export const ENTRY_OVERHEAD_BYTES = 256;

export interface FileCacheLimits {
	readonly maxFileBytes?: number;
	readonly maxCacheBytes?: number;
}

export interface FileCacheOptions extends FileCacheLimits {
	/** Absolute folders whose files are never cached: Aside's own storage, other sessions' folders. */
	readonly excludedFolders?: readonly string[];
	/**
	 * The person's settings as they are now, read at every use, so a change applies to the next
	 * read or WAIT without a new chat; what it gives wins over the fixed values. A smaller cache
	 * evicts at its next entry.
	 */
	readonly limits?: () => FileCacheLimits;
}

interface EntryBase {
	/** Bytes on disk (for a content entry, the length of `bytes`). */
	readonly size: number;
	/** Unknown after one of Aside's own writes, until a stat tells it. */
	readonly mtimeMs: number | undefined;
	/** Increases with every change to the cache; a prepared report applies only to the version it saw. */
	readonly version: number;
}

export interface ContentEntry extends EntryBase {
	readonly kind: 'content';
	readonly bytes: Uint8Array;
}

export interface FingerprintEntry extends EntryBase {
	readonly kind: 'fingerprint';
}

export type CacheEntry = ContentEntry | FingerprintEntry;

function costOf(path: string, entry: CacheEntry): number {
	return ENTRY_OVERHEAD_BYTES + path.length * 2 + (entry.kind === 'content' ? entry.bytes.length : 0);
}

export class FileCache {
	private readonly excluded: readonly string[];
	// A Map iterates in insertion order: re-inserting on use makes its first key the least recent.
	private readonly entries = new Map<string, CacheEntry>();
	private bytes = 0;
	private nextVersion = 1;

	constructor(private readonly options: FileCacheOptions = {}) {
		this.excluded = (options.excludedFolders ?? []).map((folder) => nodePath.resolve(folder));
	}

	get maxCacheBytes(): number {
		return Math.max(0, this.options.limits?.().maxCacheBytes ?? this.options.maxCacheBytes ?? DEFAULT_MAX_CACHE_BYTES);
	}

	get maxFileBytes(): number {
		// An entry larger than the whole cache would evict everything and then itself.
		const limit = this.options.limits?.().maxFileBytes ?? this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
		return Math.max(0, Math.min(limit, this.maxCacheBytes - ENTRY_OVERHEAD_BYTES));
	}

	/** Entries held now. */
	get count(): number {
		return this.entries.size;
	}

	/** What the entries cost now, counted as the budget counts them. */
	get totalBytes(): number {
		return this.bytes;
	}

	isExcluded(path: string): boolean {
		const absolute = nodePath.resolve(path);
		return this.excluded.some((folder) => isInside(absolute, folder));
	}

	has(path: string): boolean {
		return this.entries.has(nodePath.resolve(path));
	}

	/** The entry, without counting as a use. */
	get(path: string): CacheEntry | undefined {
		return this.entries.get(nodePath.resolve(path));
	}

	/** Paths from least to most recently used. */
	paths(): string[] {
		return [...this.entries.keys()];
	}

	/**
	 * Records what the agent saw of a file: its bytes when they fit maxFileBytes, else a
	 * fingerprint. Returns the entry, or undefined for an excluded path.
	 */
	remember(path: string, bytes: Uint8Array, mtimeMs: number | undefined): CacheEntry | undefined {
		if (bytes.length > this.maxFileBytes) {
			return this.rememberFingerprint(path, bytes.length, mtimeMs);
		}
		return this.put(path, { kind: 'content', bytes, size: bytes.length, mtimeMs, version: this.nextVersion++ });
	}

	/** Records a file by size and mtime only (it is too large to keep, or was not read). */
	rememberFingerprint(path: string, size: number, mtimeMs: number | undefined): CacheEntry | undefined {
		return this.put(path, { kind: 'fingerprint', size, mtimeMs, version: this.nextVersion++ });
	}

	/** Learns the mtime of an entry that had none (after an own write), without counting as a use. */
	learnMtime(path: string, mtimeMs: number): void {
		const key = nodePath.resolve(path);
		const entry = this.entries.get(key);
		if (entry !== undefined && entry.mtimeMs === undefined) {
			this.entries.set(key, { ...entry, mtimeMs });
		}
	}

	delete(path: string): void {
		const key = nodePath.resolve(path);
		const entry = this.entries.get(key);
		if (entry) {
			this.entries.delete(key);
			this.bytes -= costOf(key, entry);
		}
	}

	private put(path: string, entry: CacheEntry): CacheEntry | undefined {
		const key = nodePath.resolve(path);
		if (this.isExcluded(key)) {
			return undefined;
		}
		this.delete(key);
		this.entries.set(key, entry);
		this.bytes += costOf(key, entry);
		this.evict();
		return this.entries.get(key);
	}

	private evict(): void {
		const maxCacheBytes = this.maxCacheBytes;
		for (const [key, entry] of this.entries) {
			if (this.bytes <= maxCacheBytes) {
				return;
			}
			this.entries.delete(key);
			this.bytes -= costOf(key, entry);
		}
	}
}
