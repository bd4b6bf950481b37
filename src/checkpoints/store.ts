// The checkpoint store on disk (Node fs only): content-addressed blobs (blobs.ts) and one
// append-only manifest per chat (manifest.ts) under one folder, `<storage>/checkpoints/` in VS
// Code (src/vscode/checkpoints.ts). Before a write a keep costs a copy of the file's previous
// text aside, unhashed (pending.ts; none when it is the text the file was last kept with) and one
// manifest line — no hashing, no scan, no git. Just after the write (afterWrite.ts, while the tool
// writes), both texts are hashed, kept as blobs and the line settled; the bound, the collector and
// the recovery of a crashed window's copies run after a turn and at startup (bound.ts).
// docs/checkpoints.md says what is kept and why.
import { existsSync, mkdirSync, promises as fs, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../base/clock';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { FileChange } from '../tools/changes';
import { BlobFolder, hashText } from './blobs';
import { appendEntries, appendSettle, pendingId } from './manifest';
import { AfterWrite, type AsideCopy } from './afterWrite';
import { ChatManifests, hashesOf } from './chatManifests';
import { collect, type BoundReport } from './collector';
import { HeldHashes } from './heldHashes';
import { LastKeptTexts } from './lastKept';
import { PendingFolder } from './pending';
import type { ChatCheckpoints, CheckpointEntry, CheckpointRecorder, CheckpointStore, ContentHash } from './types';

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

/** A keep that failed: the write it guarded must not happen (applyChanges says so to the model). */
export class CheckpointError extends Error {}

export class FileCheckpointStore implements CheckpointStore {
	readonly blobs: BlobFolder;
	private readonly chats: ChatManifests;
	readonly dir: string;
	private readonly graceMs: number;
	/** Hashes a keep of this window is writing or has just written, not yet named by its manifest line. */
	private readonly held = new HeldHashes();
	/** The text each file was last kept with as its `after`: a file's next change starts from it. */
	private readonly lastKept: LastKeptTexts;
	/** The previous texts copied aside before a write, until hashed just after it (pending.ts). */
	private readonly pendingCopies: PendingFolder;
	/** The shard folders, made ahead at startup (BlobFolder.makeShards). */
	readonly shardsMade: Promise<void>;
	/** What each keep leaves until just after the write (afterWrite.ts). */
	private readonly afterWrite: AfterWrite;

	constructor(private readonly options: CheckpointStoreOptions) {
		this.dir = options.dir;
		this.blobs = new BlobFolder(join(options.dir, 'blobs'));
		this.chats = new ChatManifests(join(options.dir, 'chats'), options.log);
		this.graceMs = options.graceMs ?? 10 * 60 * 1000;
		mkdirSync(this.blobs.dir, { recursive: true });
		mkdirSync(this.chats.dir, { recursive: true });
		this.lastKept = new LastKeptTexts(this.blobs, this.held);
		this.pendingCopies = new PendingFolder(join(options.dir, 'pending'));
		this.afterWrite = new AfterWrite({
			blobs: this.blobs,
			log: options.log,
			hold: (hash) => {
				this.held.hold(hash);
			},
			release: (hash) => {
				this.held.release(hash);
			},
		});
		this.shardsMade = this.blobs.makeShards();
	}

	recorder(sessionId: string, turnId: string): CheckpointRecorder {
		const manifest = this.chats.pathOf(sessionId);
		return {
			keep: async (changes) => {
				await this.keep(sessionId, manifest, turnId, changes);
			},
		};
	}

	chat(sessionId: string): ChatCheckpoints {
		const entries = this.chats.entries(sessionId);
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
			appendEntries(this.chats.pathOf(toSessionId), copied);
		}
	}

	async importChat(toSessionId: string, entries: readonly CheckpointEntry[], text: ChatCheckpoints['text']): Promise<void> {
		const manifest = this.chats.pathOf(toSessionId);
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
				this.held.release(hash);
			}
		}
	}

	async deleteChat(sessionId: string): Promise<void> {
		// A new text still being kept would settle its line into the manifest removed here.
		await this.settled();
		const gone = new Set(this.chat(sessionId).entries().flatMap(hashesOf));
		this.chats.remove(sessionId);
		this.lastKept.forgetAll();
		const named = this.chats.namedByAny();
		for (const hash of gone) {
			if (!named.has(hash) && !this.held.has(hash)) {
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
		// Blobs may go below: a remembered hash must not be named again without its blob.
		this.lastKept.forgetAll();
		return collect(files, now, maxBytes, { blobs: this.blobs, chats: this.chats, held: this.held, log: this.options.log, graceMs: this.graceMs });
	}

	private async keep(sessionId: string, manifest: string, turnId: string, changes: readonly FileChange[]): Promise<void> {
		const lines: { readonly entry: CheckpointEntry; readonly id?: string }[] = [];
		/** What each line leaves for afterWrite: the previous text copied aside, the new text. */
		const rest: { readonly copy?: AsideCopy; readonly after?: string }[] = [];
		const held: ContentHash[] = [];
		try {
			for (const change of changes) {
				// The text the file was last kept with needs nothing; any other is copied aside unhashed.
				const before = change.before === null ? null : await this.lastKept.hashOf(change.path, change.before, held);
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
				const entry: CheckpointEntry = {
					turnId,
					at: this.options.clock.now(),
					path: change.path,
					shown: change.shown,
					before,
					after: change.after === null ? null : undefined,
				};
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
					this.lastKept.forget(change.path);
					if (id !== undefined && left !== undefined) {
						const after = this.afterWrite.later(manifest, id, left.copy, left.after, change.shown);
						if (left.after !== undefined) {
							this.lastKept.remember(change.path, left.after, after);
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
				this.held.release(hash);
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
				const manifest = this.chats.pathOf(copy.sessionId);
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

	private async put(text: string, held: ContentHash[], shown: string): Promise<ContentHash> {
		try {
			const hash = await this.blobs.put(text);
			this.held.hold(hash, held);
			return hash;
		} catch (error) {
			throw new CheckpointError(`could not keep the content of ${shown}: ${errorMessage(error)}`);
		}
	}
}

/** The store's folder's blob bytes, for the bench and the tests. */
export async function storedBytes(store: FileCheckpointStore): Promise<number> {
	return (await store.blobs.list()).reduce((sum, file) => sum + file.bytes, 0);
}
