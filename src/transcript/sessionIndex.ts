// The session index: `index.json` beside the transcripts, one summary per session (id, title,
// dates, turns, last outcome) with the size and modification time of the transcript it was made
// from. The chat list reads it instead of every transcript. It is only ever a cache: an entry
// whose transcript changed behind its back (another window, an older Aside, a crash before the
// index was written) no longer matches the file's size and time and is made again from that one
// transcript; a missing or damaged index is rebuilt from the transcripts. Written atomically
// (temp file + rename), at the end of each turn and when a session closes, not per record.
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import { TURN_OUTCOMES } from '../vocabulary/outcomes';
import { transcriptPath } from './paths';
import type { TranscriptEntry } from './records';
import { byRecency, scanSummary, type SessionSummary, transcriptIds } from './summary';

export const INDEX_FILE = 'index.json';
const INDEX_VERSION = 1;

const IndexEntry = z.object({
	id: z.string().min(1),
	title: z.string().optional(),
	createdAt: z.number(),
	updatedAt: z.number(),
	turns: z.number().int().nonnegative(),
	lastOutcome: z.enum([...TURN_OUTCOMES, 'unfinished']).optional(),
	/** A fork's source chat, as titled when it was forked. */
	forkOf: z.object({ id: z.string().min(1), title: z.string() }).optional(),
	/** Of the transcript when the entry was made: an entry whose file differs is made again. */
	size: z.number().int().nonnegative(),
	mtimeMs: z.number(),
});
type IndexEntry = z.infer<typeof IndexEntry>;

const IndexFile = z.object({ v: z.literal(INDEX_VERSION), sessions: z.array(IndexEntry) });

function entryOf(summary: SessionSummary, size: number, mtimeMs: number): IndexEntry {
	return {
		id: summary.id,
		...(summary.title === undefined ? {} : { title: summary.title }),
		createdAt: summary.createdAt,
		updatedAt: summary.updatedAt,
		turns: summary.turns,
		...(summary.lastOutcome === undefined ? {} : { lastOutcome: summary.lastOutcome }),
		...(summary.forkOf === undefined ? {} : { forkOf: { id: summary.forkOf.id, title: summary.forkOf.title } }),
		size,
		mtimeMs,
	};
}

function summaryOf(entry: IndexEntry): SessionSummary {
	return {
		id: entry.id,
		title: entry.title,
		createdAt: entry.createdAt,
		updatedAt: entry.updatedAt,
		turns: entry.turns,
		lastOutcome: entry.lastOutcome,
		...(entry.forkOf ? { forkOf: entry.forkOf } : {}),
	};
}

interface Stamp {
	readonly size: number;
	readonly mtimeMs: number;
}

function stampOf(path: string): Stamp | undefined {
	try {
		const { size, mtimeMs } = statSync(path);
		return { size, mtimeMs };
	} catch {
		return undefined;
	}
}

export interface SessionIndexOptions {
	readonly log?: Logger;
}

export class SessionIndex {
	readonly path: string;
	/** Loaded on first use; by id. */
	private entries: Map<string, IndexEntry> | undefined;
	/** Entries this window made or changed since the index was last written. */
	private readonly dirty = new Set<string>();
	/** Sessions whose transcripts are gone. */
	private readonly removed = new Set<string>();
	/** Sessions this window appended to since their entry's file time was taken. */
	private readonly unstamped = new Set<string>();
	/** The index file as this window last read or wrote it: unchanged, it need not be read again. */
	private fileStamp: Stamp | undefined;
	private warnedWrite = false;

	constructor(
		readonly dir: string,
		private readonly options: SessionIndexOptions = {},
	) {
		this.path = join(dir, INDEX_FILE);
	}

	/**
	 * Every session in the folder, most recently written first. Reads no transcript whose entry
	 * still matches its file (one stat each); makes the others again, and writes the index when
	 * anything changed.
	 */
	list(): SessionSummary[] {
		const entries = this.load();
		const present = new Set<string>();
		const summaries: SessionSummary[] = [];
		for (const id of transcriptIds(this.dir)) {
			present.add(id);
			const stamp = stampOf(transcriptPath(this.dir, id));
			if (stamp === undefined) {
				continue; // Removed while listing.
			}
			let entry = entries.get(id);
			if (entry?.size === stamp.size && (entry.mtimeMs === stamp.mtimeMs || this.unstamped.has(id))) {
				if (entry.mtimeMs !== stamp.mtimeMs) {
					entry = { ...entry, mtimeMs: stamp.mtimeMs };
					this.put(entry);
				}
				this.unstamped.delete(id);
			} else {
				try {
					entry = entryOf(scanSummary(this.dir, id, stamp.mtimeMs), stamp.size, stamp.mtimeMs);
					this.put(entry);
				} catch (error) {
					this.options.log?.warn(`Transcript ${id}: left out of the session list: ${errorMessage(error)}`);
					this.forget(id);
					continue;
				}
			}
			summaries.push(summaryOf(entry));
		}
		for (const id of entries.keys()) {
			if (!present.has(id)) {
				this.forget(id);
			}
		}
		this.flush();
		return summaries.sort(byRecency);
	}

	/** This window deleted the session's transcript: its entry goes, in the file too. */
	noteRemoved(id: string): void {
		this.forget(id);
		this.flush();
	}

	/** A new session's transcript was created with its header (`size` bytes). */
	noteCreated(id: string, createdAt: number, size: number): void {
		this.put({ id, createdAt, updatedAt: createdAt, turns: 0, size, mtimeMs: -1 });
		this.unstamped.add(id);
	}

	/**
	 * This window's writer appended `record`, taking its file from `sizeBefore` to `sizeAfter`
	 * bytes. The entry follows only when it described exactly the file the writer appended to;
	 * otherwise it is dropped, and the next list makes it again from the transcript.
	 */
	noteAppend(id: string, record: TranscriptEntry, sizeBefore: number, sizeAfter: number): void {
		const entry = this.load().get(id);
		if (entry?.size !== sizeBefore) {
			if (entry) {
				this.forget(id);
			}
			return;
		}
		let { title, turns, lastOutcome, forkOf } = entry;
		// A sub-agent's own messages and ends (`agent`) are not the chat's turns.
		const child = (record.kind === 'user' || record.kind === 'turn-end') && record.agent !== undefined;
		if (child) {
			// Counted in size and time only.
		} else if (record.kind === 'fork' && forkOf === undefined && turns === 0) {
			// Only a fork's own record, its first: one further on was copied from its source's history.
			forkOf = { id: record.source.id, title: record.source.title };
		} else if (record.kind === 'meta' && record.title !== undefined) {
			title = record.title;
		} else if (record.kind === 'user') {
			turns++;
			lastOutcome = 'unfinished';
		} else if (record.kind === 'turn-end' && lastOutcome !== undefined) {
			lastOutcome = record.outcome;
		}
		this.put(
			entryOf(
				{ id, title, createdAt: entry.createdAt, updatedAt: Math.max(entry.updatedAt, record.at), turns, lastOutcome, forkOf },
				sizeAfter,
				entry.mtimeMs,
			),
		);
		this.unstamped.add(id);
	}

	/**
	 * Writes the index if this window changed it: atomically, and merged with what another window
	 * wrote meanwhile (its entries stand unless this window changed or removed the same ones).
	 * Never throws: the index is a cache, and the transcripts are whole without it.
	 */
	flush(): void {
		if (this.entries === undefined || (this.dirty.size === 0 && this.removed.size === 0)) {
			return;
		}
		const stamp = stampOf(this.path);
		if (stamp !== undefined && (stamp.size !== this.fileStamp?.size || stamp.mtimeMs !== this.fileStamp.mtimeMs)) {
			const theirs = this.read();
			if (theirs !== undefined) {
				const merged = new Map(theirs);
				for (const id of this.removed) {
					merged.delete(id);
				}
				for (const id of this.dirty) {
					const entry = this.entries.get(id);
					if (entry) {
						merged.set(id, entry);
					}
				}
				this.entries = merged;
			}
		}
		const temp = `${this.path}.${process.pid}.tmp`;
		try {
			writeFileSync(temp, JSON.stringify({ v: INDEX_VERSION, sessions: [...this.entries.values()] }));
			renameSync(temp, this.path);
			this.fileStamp = stampOf(this.path);
			this.dirty.clear();
			this.removed.clear();
		} catch (error) {
			rmSync(temp, { force: true });
			if (!this.warnedWrite) {
				this.warnedWrite = true;
				this.options.log?.warn(`Could not write the session index ${this.path}: ${errorMessage(error)}. The chat list reads the transcripts instead.`);
			}
		}
	}

	private put(entry: IndexEntry): void {
		this.load().set(entry.id, entry);
		this.dirty.add(entry.id);
		this.removed.delete(entry.id);
	}

	private forget(id: string): void {
		this.load().delete(id);
		this.dirty.delete(id);
		this.unstamped.delete(id);
		this.removed.add(id);
	}

	private load(): Map<string, IndexEntry> {
		if (this.entries === undefined) {
			this.fileStamp = stampOf(this.path);
			// Missing or damaged: every entry is made again from the transcripts by the next list.
			this.entries = (this.fileStamp === undefined ? undefined : this.read()) ?? new Map();
		}
		return this.entries;
	}

	/** The index file's entries, or undefined when it is missing or not a valid index. */
	private read(): Map<string, IndexEntry> | undefined {
		let value: unknown;
		try {
			value = JSON.parse(readFileSync(this.path, 'utf8'));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
				this.options.log?.warn(`The session index ${this.path} cannot be read (${errorMessage(error)}); it is rebuilt from the transcripts.`);
			}
			return undefined;
		}
		const parsed = IndexFile.safeParse(value);
		if (!parsed.success) {
			this.options.log?.warn(`The session index ${this.path} is not valid (${parsed.error.issues[0]?.message ?? 'invalid'}); it is rebuilt from the transcripts.`);
			return undefined;
		}
		return new Map(parsed.data.sessions.map((entry) => [entry.id, entry]));
	}
}
