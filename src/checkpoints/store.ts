// The checkpoint store on disk (Node fs only): content-addressed blobs (blobs.ts) and one
// append-only manifest per chat (manifest.ts) under one folder, `<storage>/checkpoints/` in VS
// Code (src/vscode/checkpoints.ts). Before a write a keep costs a copy of the file's previous
// text aside, unhashed (pending.ts; none when it is the text the file was last kept with) and one
// manifest line — no hashing, no scan, no git. Just after the write (afterWrite.ts, while the tool
// writes), both texts are hashed, kept as blobs and the line settled; the bound, the collector and
// the recovery of a crashed window's copies run after a turn and at startup (bound.ts).
// docs/checkpoints.md says what is kept and why.
import { existsSync, mkdirSync, promises as fs, readdirSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../base/clock';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { FileChange } from '../tools/changes';
import { BlobFolder, hashText } from './blobs';
import { appendEntries, appendSettle, manifestName, pendingId, readManifest, requireSessionId, sessionOfManifest } from './manifest';
import { AfterWrite, type AsideCopy } from './afterWrite';
import { PendingFolder } from './pending';
import type { ChatCheckpoints, CheckpointEntry, CheckpointRecorder, CheckpointStore, ContentHash } from './types';

/**
 * The last kept texts remembered (lastAfter) hold at most this many characters together (16 MB
 * of ASCII text), for at most LAST_AFTER_FILES files, the ones written last: texts the tools
 * made anyway, kept alive a little longer so a file's next change need not hash its text again.
 */
const LAST_AFTER_CHARS = 16 * 1024 * 1024;
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
	 * starts from it (its `before`), which is then neither hashed nor written again. The files
	 * written last, within LAST_AFTER_CHARS and LAST_AFTER_FILES; forgotten whenever blobs go.
	 */
	private readonly lastAfter = new Map<string, { readonly text: string; readonly hash: Promise<ContentHash | undefined> }>();
	private lastAfterChars = 0;
	/** The previous texts copied aside before a write, until hashed just after it (pending.ts). */
	private readonly pendingCopies: PendingFolder;
	/** The shard folders, made ahead at startup (BlobFolder.makeShards). */
	readonly shardsMade: Promise<void>;
	/** What each keep leaves until just after the write (afterWrite.ts). */
	private readonly afterWrite: AfterWrite;

	constructor(private readonly options: CheckpointStoreOptions) {
		this.dir = options.dir;
		this.blobs = new BlobFolder(join(options.dir, 'blobs'));
		this.chatsDir = join(options.dir, 'chats');
		this.graceMs = options.graceMs ?? 10 * 60 * 1000;
		mkdirSync(this.blobs.dir, { recursive: true });
		mkdirSync(this.chatsDir, { recursive: true });
		this.pendingCopies = new PendingFolder(join(options.dir, 'pending'));
		this.afterWrite = new AfterWrite({
			blobs: this.blobs,
			log: options.log,
			hold: (hash) => {
				this.hold(hash);
			},
			release: (hash) => {
				this.release(hash);
			},
		});
		this.shardsMade = this.blobs.makeShards();
	}

	recorder(sessionId: string, turnId: string): CheckpointRecorder {
		const manifest = this.manifestPath(sessionId);
		return {
			keep: async (changes) => {
				await this.keep(sessionId, manifest, turnId, changes);
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

	async copyChat(fromSessionId: string, toSessionId: string, turnIds: ReadonlySet<string>): Promise<void> {
		await this.settled();
		const copied = this.chat(fromSessionId)
			.entries()
			.filter((entry) => turnIds.has(entry.turnId));
		if (copied.length > 0) {
			// Only manifest lines: the blobs are shared, and go when no chat names them.
			appendEntries(this.manifestPath(toSessionId), copied);
		}
	}

	async importChat(toSessionId: string, entries: readonly CheckpointEntry[], text: ChatCheckpoints['text']): Promise<void> {
		const manifest = this.manifestPath(toSessionId);
		const held: ContentHash[] = [];
		try {
			for (const hash of new Set(entries.flatMap(hashesOf))) {
				const kept = await text(hash);
				if (kept !== undefined) {
					// Hashed again here: only a text that is what its hash says is kept.
					if ((await this.put(kept, held, hash.slice(0, 12))) !== hash) {
						this.options.log.warn(`Aside: an imported checkpoint text did not match its hash ${hash.slice(0, 12)}…; it is left out.`);
					}
				}
			}
			if (entries.length > 0) {
				appendEntries(manifest, entries);
			}
		} finally {
			for (const hash of held) {
				this.release(hash);
			}
		}
	}

	async deleteChat(sessionId: string): Promise<void> {
		// A new text still being kept would settle its line into the manifest removed here.
		await this.settled();
		const path = this.manifestPath(sessionId);
		const gone = new Set(this.chat(sessionId).entries().flatMap(hashesOf));
		rmSync(path, { force: true });
		this.forgetAll();
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
		await this.settled();
		await this.recoverPending();
		const now = this.options.clock.now();
		const files = await this.blobs.list();
		const bytesBefore = files.reduce((sum, file) => sum + file.bytes, 0);
		// Blobs may go below: a remembered hash must not be named again without its blob.
		this.forgetAll();
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

	private async keep(sessionId: string, manifest: string, turnId: string, changes: readonly FileChange[]): Promise<void> {
		const lines: { readonly entry: CheckpointEntry; readonly id?: string }[] = [];
		/** What each line leaves for afterWrite: the previous text copied aside, the new text. */
		const rest: { readonly copy?: AsideCopy; readonly after?: string }[] = [];
		const held: ContentHash[] = [];
		try {
			for (const change of changes) {
				// The text the file was last kept with needs nothing; any other is copied aside unhashed.
				const before = change.before === null ? null : await this.lastKept(change.path, change.before, held);
				const id = before === undefined || change.after !== null ? pendingId() : undefined;
				let copy: AsideCopy | undefined;
				if (change.before !== null && before === undefined && id !== undefined) {
					try {
						copy = { text: change.before, path: await this.pendingCopies.write(sessionId, id, change.before) };
						this.afterWrite.copiesAside.add(copy.path);
					} catch (error) {
						throw new CheckpointError(`could not keep the content of ${change.shown}: ${errorMessage(error)}`);
					}
				}
				const entry: CheckpointEntry = { turnId, at: this.options.clock.now(), path: change.path, shown: change.shown, before, after: change.after === null ? null : undefined };
				lines.push(id === undefined ? { entry } : { entry, id });
				rest.push({ ...(copy ? { copy } : {}), ...(change.after === null ? {} : { after: change.after }) });
			}
			if (lines.length > 0) {
				try {
					appendEntries(manifest, lines);
				} catch (error) {
					throw new CheckpointError(`could not record the checkpoint of ${changes.map((change) => change.shown).join(', ')}: ${errorMessage(error)}`);
				}
				for (const [index, change] of changes.entries()) {
					const id = lines[index]?.id;
					const left = rest[index];
					this.forget(change.path);
					if (id !== undefined && left !== undefined) {
						const after = this.afterWrite.later(manifest, id, left.copy, left.after, change.shown);
						if (left.after !== undefined) {
							this.rememberAfter(change.path, left.after, after);
						}
					}
				}
			}
		} catch (error) {
			// Nothing recorded: no copy is left aside.
			for (const left of rest) {
				if (left.copy) {
					rmSync(left.copy.path, { force: true });
					this.afterWrite.copiesAside.delete(left.copy.path);
				}
			}
			throw error;
		} finally {
			for (const hash of held) {
				this.release(hash);
			}
		}
	}

	/**
	 * The previous texts a crashed window copied aside and never settled (older than the grace
	 * period): each is hashed, moved into the blobs and settled into its chat's manifest, so a
	 * restore has it after all. Returns how many.
	 */
	async recoverPending(): Promise<number> {
		const ours = new Set(this.afterWrite.copiesAside);
		let recovered = 0;
		for (const copy of await this.pendingCopies.leftovers(this.options.clock.now(), this.graceMs, ours)) {
			try {
				const text = await fs.readFile(copy.path, 'utf8');
				const hash = hashText(text);
				this.blobs.adoptFile(copy.path, hash);
				const manifest = this.manifestPath(copy.sessionId);
				if (existsSync(manifest)) {
					appendSettle(manifest, copy.id, { before: hash });
				}
				recovered++;
			} catch (error) {
				this.options.log.warn(`Aside: could not recover the checkpoint copy ${copy.path}: ${errorMessage(error)}`);
			}
		}
		if (recovered > 0) {
			this.options.log.info(`Aside: recovered ${recovered} earlier file content(s) copied aside before a write that the window did not finish keeping.`);
		}
		return recovered;
	}

	async settled(): Promise<void> {
		await this.afterWrite.settled();
	}

	/** Keeps every new text still waiting now, synchronously: the window is closing. */
	flush(): void {
		this.afterWrite.flush();
	}

	private hold(hash: ContentHash, held?: ContentHash[]): void {
		this.inFlight.set(hash, (this.inFlight.get(hash) ?? 0) + 1);
		held?.push(hash);
	}

	private async put(text: string, held: ContentHash[], shown: string): Promise<ContentHash> {
		try {
			const hash = await this.blobs.put(text);
			this.hold(hash, held);
			return hash;
		} catch (error) {
			throw new CheckpointError(`could not keep the content of ${shown}: ${errorMessage(error)}`);
		}
	}

	/** The hash of `text` when it is what `path` was last kept with (then held like a put), else undefined. */
	private async lastKept(path: string, text: string, held: ContentHash[]): Promise<ContentHash | undefined> {
		const last = this.lastAfter.get(path);
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
		this.hold(hash, held);
		return hash;
	}

	private rememberAfter(path: string, text: string, hash: Promise<ContentHash | undefined>): void {
		if (text.length > LAST_AFTER_CHARS) {
			return;
		}
		this.lastAfter.set(path, { text, hash });
		this.lastAfterChars += text.length;
		for (const [oldest, last] of this.lastAfter) {
			if (this.lastAfter.size <= LAST_AFTER_FILES && this.lastAfterChars <= LAST_AFTER_CHARS) {
				break;
			}
			this.forget(oldest, last);
		}
	}

	private forget(path: string, last = this.lastAfter.get(path)): void {
		if (last && this.lastAfter.delete(path)) {
			this.lastAfterChars -= last.text.length;
		}
	}

	private forgetAll(): void {
		this.lastAfter.clear();
		this.lastAfterChars = 0;
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
	return [entry.before, entry.after].filter((hash): hash is ContentHash => hash !== null && hash !== undefined);
}

/** The store's folder's blob bytes, for the bench and the tests. */
export async function storedBytes(store: FileCheckpointStore): Promise<number> {
	return (await store.blobs.list()).reduce((sum, file) => sum + file.bytes, 0);
}
