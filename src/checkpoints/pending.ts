// The previous texts a keep copies aside before a write, not yet hashed: `pending/<chat>.<id>`,
// each written under a temporary name and renamed, so a copy under its real name is whole. Just
// after the write the store hashes the text (from memory) and moves the copy into the blobs
// (BlobFolder.adoptFile); a copy left by a crash is found by the store's bound at the next
// startup, older than the grace period, and settled then (store.ts, recoverPending).
import { mkdirSync, promises as fs, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SYNC_CHARS } from './blobs';
import { requireSessionId } from './manifest';
import { writeTextSync } from './textFile';

/** A copy left behind: the chat and manifest line it belongs to. */
export interface PendingCopy {
	readonly sessionId: string;
	readonly id: string;
	readonly path: string;
}

const NAME = /^([A-Za-z0-9_-][A-Za-z0-9._-]{0,127})\.([0-9a-f]{1,64})$/;

export class PendingFolder {
	constructor(readonly dir: string) {
		mkdirSync(dir, { recursive: true });
	}

	pathOf(sessionId: string, id: string): string {
		return join(this.dir, `${requireSessionId(sessionId)}.${id}`);
	}

	/**
	 * Copies `text` aside for chat `sessionId`'s line `id` (the write waits for it); returns its
	 * path. Synchronously up to SYNC_CHARS, as blobs are; a larger text through the thread pool.
	 */
	async write(sessionId: string, id: string, text: string): Promise<string> {
		const path = this.pathOf(sessionId, id);
		const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
		try {
			if (text.length <= SYNC_CHARS) {
				writeTextSync(temp, text);
				renameSync(temp, path);
			} else {
				await fs.writeFile(temp, text, 'utf8');
				await fs.rename(temp, path);
			}
		} catch (error) {
			rmSync(temp, { force: true });
			throw error;
		}
		return path;
	}

	/**
	 * The copies older than `graceMs` that are not `ours` (their window crashed, or another window
	 * is frozen that long); a temporary file that old is removed (a crash mid-copy).
	 */
	async leftovers(now: number, graceMs: number, ours: ReadonlySet<string>): Promise<PendingCopy[]> {
		let names: string[];
		try {
			names = await fs.readdir(this.dir);
		} catch {
			return [];
		}
		const copies: PendingCopy[] = [];
		for (const name of names) {
			const path = join(this.dir, name);
			try {
				if (ours.has(path) || now - (await fs.stat(path)).mtimeMs < graceMs) {
					continue;
				}
			} catch {
				continue;
			}
			const match = NAME.exec(name);
			if (match?.[1] !== undefined && match[2] !== undefined) {
				copies.push({ sessionId: match[1], id: match[2], path });
			} else {
				await fs.rm(path, { force: true });
			}
		}
		return copies;
	}
}
