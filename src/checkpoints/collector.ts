// One pass of the checkpoint bound, over blobs already listed: blobs no chat names go once past
// the grace period, then whole chats, the one whose last change is oldest first, with the blobs
// only they named. Apart from the store, which settles and recovers first, and from bound.ts,
// which decides when a pass runs.
import type { Logger } from '../base/log';
import type { BlobFile, BlobFolder } from './blobs';
import type { ChatManifests } from './chatManifests';
import type { HeldHashes } from './heldHashes';
import type { ContentHash } from './types';

/** What one pass of the bound did. */
export interface BoundReport {
	/** Blob bytes before and after. */
	readonly bytesBefore: number;
	readonly bytesAfter: number;
	/** The chats whose checkpoints were dropped, oldest first. */
	readonly droppedChats: readonly string[];
	/** Blobs (and crash-left temporary files) removed. */
	readonly removedBlobs: number;
}

export interface CollectorScope {
	readonly blobs: BlobFolder;
	readonly chats: ChatManifests;
	/** Blobs of held hashes stay, named or not. */
	readonly held: HeldHashes;
	readonly log: Logger;
	/** How long a blob no manifest names is left alone (CheckpointStoreOptions.graceMs). */
	readonly graceMs: number;
}

/** Holds the blobs `files` (listed at `now`) under `maxBytes`. */
export async function collect(files: readonly BlobFile[], now: number, maxBytes: number, scope: CollectorScope): Promise<BoundReport> {
	const { blobs, held } = scope;
	const bytesBefore = files.reduce((sum, file) => sum + file.bytes, 0);
	const chats = scope.chats.all();
	const namers = new Map<ContentHash, Set<string>>();
	for (const chat of chats) {
		for (const hash of chat.hashes) {
			let set = namers.get(hash);
			if (!set) {
				set = new Set();
				namers.set(hash, set);
			}
			set.add(chat.id);
		}
	}
	let bytes = bytesBefore;
	let removedBlobs = 0;
	const sizes = new Map<ContentHash, number>();
	for (const file of files) {
		if (namers.has(file.hash)) {
			sizes.set(file.hash, file.bytes);
		} else if (!held.has(file.hash) && now - file.mtimeMs >= scope.graceMs) {
			await blobs.remove(file.hash);
			bytes -= file.bytes;
			removedBlobs++;
		}
	}
	const droppedChats: string[] = [];
	for (const chat of [...chats].sort((a, b) => a.last - b.last)) {
		if (bytes <= maxBytes) {
			break;
		}
		scope.chats.remove(chat.id);
		droppedChats.push(chat.id);
		for (const hash of chat.hashes) {
			const set = namers.get(hash);
			set?.delete(chat.id);
			if (set?.size === 0 && !held.has(hash)) {
				namers.delete(hash);
				const size = sizes.get(hash);
				if (size !== undefined) {
					await blobs.remove(hash);
					bytes -= size;
					removedBlobs++;
				}
			}
		}
	}
	if (droppedChats.length > 0) {
		scope.log.info(`Aside: checkpoints over aside.checkpoints.maxBytes (${bytesBefore} > ${maxBytes} bytes): dropped the checkpoints of ${droppedChats.length} oldest chat(s); ${bytes} bytes kept.`);
	}
	return { bytesBefore, bytesAfter: bytes, droppedChats, removedBlobs };
}
