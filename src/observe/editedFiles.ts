// `files.edited`: files the agent read or wrote that then changed outside Aside's tools, reported
// once each at the owner's next WAIT, as a bounded diff. Candidates come only from file events,
// so a WAIT with nothing changed touches nothing however many files are cached; the cache learns
// the new content only in the report's commit, so a request that failed reports it again. A
// delivered full diff also tells the stale-write guard (`seen`) that the agent has the new text.
// The report's text is written in editedFilesReport.ts.
import * as nodePath from 'node:path';
import { ABORTED, isAborted, unlessAborted } from '../base/async';
import type { Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import { EDITED_FILES } from '../reminders/builtin/catalog/files';
import { entryOf } from '../reminders/declaration';
import type { TurnEvent } from '../reminders/turnEvents';
import { displayPath } from '../tools/paths';
import { plural } from '../base/words';
import { decodeUtf8 } from '../tools/text';
import type { WorkspaceFs } from '../tools/tool';
import { type Change, type Prepared, reportBody, type Snapshot } from './editedFilesReport';
import { type CacheEntry, FileCache, type FileCacheLimits, type FileCacheOptions } from './fileCache';
import type { SeenTexts } from './seenTexts';
import { boundedDiff, DEFAULT_DIFF_TIMEOUT_MS, DEFAULT_MAX_DIFF_BYTES, DEFAULT_MAX_DIFF_LINES, type DiffLimits, isBinary, sameContent } from './fileDiff';

/** Diff lines one report holds in all; files past it get the short form. */
export const DEFAULT_MAX_REPORT_LINES = 1000;
/** Files one report describes one by one; the rest are named in a list. */
export const DEFAULT_MAX_REPORTED_FILES = 100;
/** Where candidates come from: a file-system watcher and the editor's document events. */
export interface FileEvents {
	/** A file was created or changed on disk, or a document was saved: its absolute path. */
	readonly onDidChange: Event<string>;
	/** A file was deleted: its absolute path. */
	readonly onDidDelete: Event<string>;
}

export interface EditedFilesLimits extends FileCacheLimits {
	readonly maxDiffLines?: number;
	readonly maxDiffBytes?: number;
}

export interface EditedFilesOptions extends FileCacheOptions, EditedFilesLimits {
	/** The person's settings as they are now, read at every WAIT (see FileCacheOptions.limits). */
	readonly limits?: () => EditedFilesLimits;
	readonly diffTimeoutMs?: number;
	readonly maxReportLines?: number;
	readonly maxReportedFiles?: number;
	/** The workspace folders, for showing paths as tools do; absolute paths without it. */
	readonly roots?: () => readonly string[];
	/** The chat's stale-write guard, told what a delivered report showed in full. */
	readonly seen?: Pick<SeenTexts, 'saw' | 'forget'>;
}

function nextTurn(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

export class EditedFiles extends Disposable {
	readonly cache: FileCache;
	private readonly maxReportLines: number;
	private readonly maxReportedFiles: number;
	private readonly roots: () => readonly string[];
	private readonly seen: EditedFilesOptions['seen'];
	// Cached paths with an event since they were last settled, with the count of their last event.
	private readonly candidates = new Map<string, number>();
	private seq = 0;

	constructor(
		private readonly fs: WorkspaceFs,
		events: FileEvents,
		private readonly options: EditedFilesOptions = {},
	) {
		super();
		this.cache = new FileCache(options);
		this.maxReportLines = options.maxReportLines ?? DEFAULT_MAX_REPORT_LINES;
		this.maxReportedFiles = Math.max(1, options.maxReportedFiles ?? DEFAULT_MAX_REPORTED_FILES);
		this.roots = options.roots ?? (() => []);
		this.seen = options.seen;
		this._register(events.onDidChange((path) => {
			this.onEvent(path);
		}));
		this._register(events.onDidDelete((path) => {
			this.onEvent(path);
		}));
	}

	/** Files with an event not yet settled (reported and committed, or found unchanged). */
	get pendingCount(): number {
		return this.candidates.size;
	}

	/** The agent read this file (its bytes on disk, and their mtime when known). */
	noteRead(path: string, bytes: Uint8Array, mtimeMs?: number): void {
		this.cache.remember(path, bytes, mtimeMs);
	}

	/** One of Aside's own tools wrote this content: it is what the agent knows, and never reported. */
	noteOwnWrite(path: string, content: string | Uint8Array, mtimeMs?: number): void {
		this.cache.remember(path, typeof content === 'string' ? Buffer.from(content, 'utf8') : content, mtimeMs);
	}

	/**
	 * A reopened chat's records say the agent last saw `bytes` of this file, which it no longer
	 * holds: kept as what the agent knows, and examined at the next WAIT as if an event came.
	 */
	noteReopened(path: string, bytes: Uint8Array): void {
		const absolute = nodePath.resolve(path);
		this.cache.remember(absolute, bytes, undefined);
		this.candidates.set(absolute, ++this.seq);
	}

	/** One of Aside's own tools deleted this file: forgotten, so its deletion is never reported as an outside change. */
	noteOwnDelete(path: string): void {
		const absolute = nodePath.resolve(path);
		this.cache.delete(absolute);
		this.candidates.delete(absolute);
		this.seen?.forget(absolute);
	}

	/**
	 * A restore wrote this file back: like an own delete, it is forgotten — never reported as an
	 * outside change, and unseen for the stale-write guard, so the agent reads it again before an Edit.
	 */
	noteRestored(path: string): void {
		this.noteOwnDelete(path);
	}

	/**
	 * At WAIT: compares each candidate with the cache, one file per event-loop turn, and returns the
	 * report, or undefined when nothing changed or `signal` aborted. The cache changes in its commit.
	 */
	async prepare(signal: AbortSignal): Promise<TurnEvent | undefined> {
		if (this.candidates.size === 0 || signal.aborted) {
			return undefined;
		}
		const prepared: Prepared[] = [];
		const budget = { lines: this.maxReportLines };
		for (const [path, seq] of [...this.candidates]) {
			await nextTurn();
			if (isAborted(signal)) {
				return undefined;
			}
			const entry = this.cache.get(path);
			const change = await unlessAborted(entry ? this.examine(path, entry, budget).catch(() => undefined) : Promise.resolve(undefined), signal);
			if (change === ABORTED) {
				return undefined;
			}
			if (entry && change) {
				prepared.push({ path, shown: this.show(path), seq, version: entry.version, change });
			} else {
				// Unchanged, no longer cached, or unreadable right now: settled until its next event.
				this.settle(path, seq);
			}
		}
		return prepared.length > 0 ? this.report(prepared) : undefined;
	}

	private onEvent(path: string): void {
		const absolute = nodePath.resolve(path);
		// One map lookup: events for files the agent never saw cost nothing more.
		if (this.cache.has(absolute)) {
			this.candidates.set(absolute, ++this.seq);
		}
	}

	private settle(path: string, seq: number): void {
		if (this.candidates.get(path) === seq) {
			this.candidates.delete(path);
		}
	}

	/** As the settings are now. */
	private get limits(): DiffLimits {
		const live = this.options.limits?.() ?? {};
		return {
			maxDiffLines: live.maxDiffLines ?? this.options.maxDiffLines ?? DEFAULT_MAX_DIFF_LINES,
			maxDiffBytes: live.maxDiffBytes ?? this.options.maxDiffBytes ?? DEFAULT_MAX_DIFF_BYTES,
			timeoutMs: this.options.diffTimeoutMs ?? DEFAULT_DIFF_TIMEOUT_MS,
		};
	}

	private show(path: string): string {
		return displayPath(path, this.roots());
	}

	private async examine(path: string, entry: CacheEntry, budget: { lines: number }): Promise<Change | undefined> {
		const stat = await this.fs.stat(path);
		if (stat?.type !== 'file') {
			return { kind: 'deleted' };
		}
		const fingerprint: Snapshot = { kind: 'fingerprint', size: stat.size, mtimeMs: stat.mtimeMs };
		if (entry.kind === 'fingerprint' && entry.size === stat.size) {
			if (entry.mtimeMs === undefined) {
				// Fingerprinted by an own write, whose mtime was not known: this is it.
				this.cache.learnMtime(path, stat.mtimeMs);
				return undefined;
			}
			// Same size, new mtime, no bytes to compare: said as "may have changed", never hidden.
			return entry.mtimeMs === stat.mtimeMs ? undefined : { kind: 'maybe', size: stat.size, next: fingerprint };
		}
		if (stat.size > this.cache.maxFileBytes) {
			return { kind: 'changed', why: entry.kind === 'fingerprint' ? 'fingerprint' : 'large', size: stat.size, next: fingerprint };
		}
		const bytes = await this.fs.readFile(path);
		const next: Snapshot = { kind: 'content', bytes, mtimeMs: stat.mtimeMs };
		if (entry.kind === 'fingerprint') {
			return { kind: 'changed', why: 'fingerprint', size: bytes.length, next };
		}
		if (sameContent(entry.bytes, bytes)) {
			return undefined;
		}
		if (isBinary(entry.bytes) || isBinary(bytes)) {
			return { kind: 'changed', why: 'binary', size: bytes.length, next };
		}
		if (budget.lines <= 0) {
			return { kind: 'changed', why: 'budget', size: bytes.length, next };
		}
		const outcome = boundedDiff(this.show(path), entry.bytes, bytes, this.limits);
		if (outcome.kind === 'too-large') {
			return { kind: 'changed', why: outcome.reason, size: bytes.length, next };
		}
		if (outcome.lines > budget.lines) {
			return { kind: 'changed', why: 'budget', size: bytes.length, next };
		}
		budget.lines -= outcome.lines;
		return { kind: 'diff', diff: outcome.text, next };
	}

	private report(prepared: readonly Prepared[]): TurnEvent {
		return {
			...entryOf(EDITED_FILES),
			body: reportBody(prepared, { maxReportedFiles: this.maxReportedFiles, maxFileBytes: this.cache.maxFileBytes, ...this.limits }),
			reason: `${plural(prepared.length, 'file')} you read or wrote changed outside Aside's tools`,
			commit: () => {
				this.apply(prepared);
			},
		};
	}

	/** The request carrying the report was dispatched: the cache now holds what it told. */
	private apply(prepared: readonly Prepared[]): void {
		for (const { path, seq, version, change } of prepared) {
			// A read or own write since then is newer than this report: it stays.
			if (this.cache.get(path)?.version === version) {
				if (change.kind === 'deleted') {
					this.cache.delete(path);
					this.seen?.forget(path);
				} else if (change.next.kind === 'content') {
					this.cache.remember(path, change.next.bytes, change.next.mtimeMs);
					// Only a diff gives the agent the whole new text; a size or "changed" does not.
					const text = change.kind === 'diff' ? decodeUtf8(change.next.bytes) : undefined;
					if (text !== undefined) {
						this.seen?.saw(path, text);
					}
				} else {
					this.cache.rememberFingerprint(path, change.next.size, change.next.mtimeMs);
				}
			}
			this.settle(path, seq);
		}
	}


}
