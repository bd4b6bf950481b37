// The checkpoint store on disk (Node fs only): content-addressed blobs (blobs.ts) and one
// append-only manifest per chat (manifest.ts) under one folder, `<storage>/checkpoints/` in VS
// Code (src/vscode/checkpoints.ts). On the request path a keep costs hashing, at most two blob
// writes per file and one manifest append — no scan, no git; the bound and the collector run
// after a turn and at startup (bound.ts). docs/checkpoints.md says what is kept and why.
import { mkdirSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../base/clock';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { FileChange } from '../tools/changes';
import { BlobFolder } from './blobs';
import { appendEntries, manifestName, readManifest, requireSessionId, sessionOfManifest } from './manifest';
import type { ChatCheckpoints, CheckpointEntry, CheckpointRecorder, CheckpointStore, ContentHash } from './types';

/** Up to this many characters, a file's last kept text is remembered (lastAfter). */
const LAST_AFTER_CHARS = 1024 * 1024;
/** For this many files, the ones kept last. */
const LAST_AFTER_FILES = 64;

export interface CheckpointStoreOptions {
	/** The store's folder; made when missing. */
	readonly dir: string;
	readonly clock: Clock;
	readonly log: Logger;
	/**
	 * How long a blob no manifest names is left alone by the collector: a keep writes its blobs
	 * before its manifest line, and another window may be between the two. Ten minutes by default.
	 */
	readonly graceMs?: number;
}

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

/** A keep that failed: the write it guarded must not happen (applyChanges says so to the model). */
export class CheckpointError extends Error {}

export class FileCheckpointStore implements CheckpointStore {
	readonly blobs: BlobFolder;
	readonly chatsDir: string;
	readonly dir: string;
	private readonly graceMs: number;
	/** Hashes a keep of this window is writing or has just written, not yet named by its manifest line. */
	private readonly inFlight = new Map<ContentHash, number>();
	/**
	 * The text each file was last kept with as its `after`, and its hash: a file's next change
	 * starts from it (its `before`), which is then neither hashed nor written again. Texts up to
	 * LAST_AFTER_CHARS, for the LAST_AFTER_FILES files written last; forgotten whenever blobs go.
	 */
	private readonly lastAfter = new Map<string, { readonly text: string; readonly hash: ContentHash }>();

	constructor(private readonly options: CheckpointStoreOptions) {
		this.dir = options.dir;
		this.blobs = new BlobFolder(join(options.dir, 'blobs'));
		this.chatsDir = join(options.dir, 'chats');
		this.graceMs = options.graceMs ?? 10 * 60 * 1000;
		mkdirSync(this.blobs.dir, { recursive: true });
		mkdirSync(this.chatsDir, { recursive: true });
	}

	recorder(sessionId: string, turnId: string): CheckpointRecorder {
		const manifest = this.manifestPath(sessionId);
		return {
			keep: async (changes) => {
				await this.keep(manifest, turnId, changes);
			},
		};
	}

	chat(sessionId: string): ChatCheckpoints {
		const entries = readManifest(this.manifestPath(sessionId), manifestName(sessionId), this.options.log);
		return {
			entries: () => entries,
			text: (hash) => this.blobs.get(hash),
		};
	}

	copyChat(fromSessionId: string, toSessionId: string, turnIds: ReadonlySet<string>): Promise<void> {
		try {
			const copied = this.chat(fromSessionId)
				.entries()
				.filter((entry) => turnIds.has(entry.turnId));
			if (copied.length > 0) {
				// Only manifest lines: the blobs are shared, and go when no chat names them.
				appendEntries(this.manifestPath(toSessionId), copied);
			}
			return Promise.resolve();
		} catch (error) {
			return Promise.reject(error instanceof Error ? error : new Error(errorMessage(error)));
		}
	}

	async deleteChat(sessionId: string): Promise<void> {
		const path = this.manifestPath(sessionId);
		const gone = new Set(this.chat(sessionId).entries().flatMap(hashesOf));
		rmSync(path, { force: true });
		this.lastAfter.clear();
		const named = this.namedByAnyChat();
		for (const hash of gone) {
			if (!named.has(hash) && !this.inFlight.has(hash)) {
				await this.blobs.remove(hash);
			}
		}
	}

	/**
	 * Holds the blobs under `maxBytes`: blobs no chat names (past the grace period) go first, then
	 * whole chats, the one whose last change is oldest first, each with the blobs only it named.
	 */
	async enforceBound(maxBytes: number): Promise<BoundReport> {
		const now = this.options.clock.now();
		const files = await this.blobs.list();
		const bytesBefore = files.reduce((sum, file) => sum + file.bytes, 0);
		// Blobs may go below: a remembered hash must not be named again without its blob.
		this.lastAfter.clear();
		const chats = this.allChats();
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
			} else if (!this.inFlight.has(file.hash) && now - file.mtimeMs >= this.graceMs) {
				await this.blobs.remove(file.hash);
				bytes -= file.bytes;
				removedBlobs++;
			}
		}
		const droppedChats: string[] = [];
		for (const chat of [...chats].sort((a, b) => a.last - b.last)) {
			if (bytes <= maxBytes) {
				break;
			}
			rmSync(this.manifestPath(chat.id), { force: true });
			droppedChats.push(chat.id);
			for (const hash of chat.hashes) {
				const set = namers.get(hash);
				set?.delete(chat.id);
				if (set?.size === 0 && !this.inFlight.has(hash)) {
					namers.delete(hash);
					const size = sizes.get(hash);
					if (size !== undefined) {
						await this.blobs.remove(hash);
						bytes -= size;
						removedBlobs++;
					}
				}
			}
		}
		if (droppedChats.length > 0) {
			this.options.log.info(`Aside: checkpoints over aside.checkpoints.maxBytes (${bytesBefore} > ${maxBytes} bytes): dropped the checkpoints of ${droppedChats.length} oldest chat(s); ${bytes} bytes kept.`);
		}
		return { bytesBefore, bytesAfter: bytes, droppedChats, removedBlobs };
	}

	private async keep(manifest: string, turnId: string, changes: readonly FileChange[]): Promise<void> {
		const entries: CheckpointEntry[] = [];
		const held: ContentHash[] = [];
		try {
			for (const change of changes) {
				const before = change.before === null ? null : (this.lastKept(change.path, change.before, held) ?? (await this.put(change.before, held, change.shown)));
				const after = change.after === null ? null : await this.put(change.after, held, change.shown);
				entries.push({ turnId, at: this.options.clock.now(), path: change.path, shown: change.shown, before, after });
			}
			if (entries.length > 0) {
				try {
					appendEntries(manifest, entries);
				} catch (error) {
					throw new CheckpointError(`could not record the checkpoint of ${changes.map((change) => change.shown).join(', ')}: ${errorMessage(error)}`);
				}
				for (const [index, change] of changes.entries()) {
					this.rememberAfter(change.path, change.after, entries[index]?.after ?? null);
				}
			}
		} finally {
			for (const hash of held) {
				this.release(hash);
			}
		}
	}

	private async put(text: string, held: ContentHash[], shown: string): Promise<ContentHash> {
		try {
			const hash = await this.blobs.put(text);
			this.inFlight.set(hash, (this.inFlight.get(hash) ?? 0) + 1);
			held.push(hash);
			return hash;
		} catch (error) {
			throw new CheckpointError(`could not keep the content of ${shown}: ${errorMessage(error)}`);
		}
	}

	/** The hash of `text` when it is what `path` was last kept with (then held like a put), else undefined. */
	private lastKept(path: string, text: string, held: ContentHash[]): ContentHash | undefined {
		const last = this.lastAfter.get(path);
		if (last === undefined || last.text !== text) {
			return undefined;
		}
		try {
			// Touched as put() touches a blob it finds; gone (another window's bound took it): put it again.
			const now = new Date();
			utimesSync(this.blobs.pathOf(last.hash), now, now);
		} catch {
			this.lastAfter.delete(path);
			return undefined;
		}
		this.inFlight.set(last.hash, (this.inFlight.get(last.hash) ?? 0) + 1);
		held.push(last.hash);
		return last.hash;
	}

	private rememberAfter(path: string, text: string | null, hash: ContentHash | null): void {
		this.lastAfter.delete(path);
		if (text === null || hash === null || text.length > LAST_AFTER_CHARS) {
			return;
		}
		this.lastAfter.set(path, { text, hash });
		for (const oldest of this.lastAfter.keys()) {
			if (this.lastAfter.size <= LAST_AFTER_FILES) {
				break;
			}
			this.lastAfter.delete(oldest);
		}
	}

	private release(hash: ContentHash): void {
		const count = (this.inFlight.get(hash) ?? 1) - 1;
		if (count <= 0) {
			this.inFlight.delete(hash);
		} else {
			this.inFlight.set(hash, count);
		}
	}

	private manifestPath(sessionId: string): string {
		return join(this.chatsDir, manifestName(requireSessionId(sessionId)));
	}

	/** Every chat with checkpoints: its id, the hashes it names, its last change. */
	private allChats(): { readonly id: string; readonly hashes: readonly ContentHash[]; readonly last: number }[] {
		return this.chatIds().map((id) => {
			const entries = this.chat(id).entries();
			return { id, hashes: entries.flatMap(hashesOf), last: entries.reduce((last, entry) => Math.max(last, entry.at), 0) };
		});
	}

	private namedByAnyChat(): Set<ContentHash> {
		return new Set(this.allChats().flatMap((chat) => chat.hashes));
	}

	private chatIds(): string[] {
		let names: string[];
		try {
			names = readdirSync(this.chatsDir);
		} catch {
			return [];
		}
		return names.map(sessionOfManifest).filter((id): id is string => id !== undefined);
	}
}

function hashesOf(entry: CheckpointEntry): ContentHash[] {
	return [entry.before, entry.after].filter((hash): hash is ContentHash => hash !== null);
}

/** The store's folder's blob bytes, for the bench and the tests. */
export async function storedBytes(store: FileCheckpointStore): Promise<number> {
	return (await store.blobs.list()).reduce((sum, file) => sum + file.bytes, 0);
}
