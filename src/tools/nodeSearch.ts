// A TextSearch that walks the folders through WorkspaceFs and tests each line with a JavaScript
// RegExp. The extension's fallback when VS Code's ripgrep cannot be found, and the search in
// unit tests. Slower than ripgrep and ignorant of .gitignore; it skips .git and node_modules.
// The walk and the reads happen here; the regex runs in a worker thread (regexWorker.ts), under
// a time budget, so a pattern that backtracks for minutes never blocks the extension host and
// Stop ends it at once.
import picomatch from 'picomatch';
import { RegexWorker } from './regexWorker';
import { classifyBytes } from './text';
import type { SearchCutShort, TextSearch, TextSearchMatch, TextSearchResult, WorkspaceFs } from './tool';
import { SEARCH_MAX_FILE_BYTES, skippedFoldersFor, walkFiles } from './walk';

/** How long one search may take, walk and regex together, before it stops with what it found. */
export const SEARCH_TIME_BUDGET_MS = 15_000;
const MAX_ENTRIES = 500_000;
/** How many skipped paths of each kind a result names. */
const NAMED_SKIPS = 3;
/** Files read ahead of the regex: enough to keep the worker busy, bounded in memory. */
const AHEAD_FILES = 16;
const AHEAD_BYTES = 16 * 1024 * 1024;

export interface NodeTextSearchOptions {
	/** Default SEARCH_TIME_BUDGET_MS. */
	readonly timeBudgetMs?: number;
	/** Files and folders visited at most per root. Default 500,000. */
	readonly maxEntries?: number;
}

type SearchOptions = Parameters<TextSearch['search']>[1];

class SkipTally {
	count = 0;
	readonly paths: string[] = [];

	add(path: string): void {
		this.count++;
		if (this.paths.length < NAMED_SKIPS) {
			this.paths.push(path);
		}
	}

	get result(): { readonly count: number; readonly paths: readonly string[] } | undefined {
		return this.count === 0 ? undefined : { count: this.count, paths: this.paths };
	}
}

export class NodeTextSearch implements TextSearch {
	constructor(
		private readonly fs: WorkspaceFs,
		private readonly options: NodeTextSearchOptions = {},
	) {}

	async search(pattern: string, options: SearchOptions): Promise<TextSearchResult> {
		const { roots, glob, caseSensitive, maxResults, signal } = options;
		// Like ripgrep's --glob: a glob without `/` matches the file name at any depth.
		const globMatcher = glob === undefined ? undefined : picomatch(glob, { dot: true, windows: false });
		const byName = glob?.includes('/') !== true;
		const inGlob = (relative: string) => globMatcher === undefined || globMatcher(byName ? relative.slice(relative.lastIndexOf('/') + 1) : relative);
		const budgetMs = this.options.timeBudgetMs ?? SEARCH_TIME_BUDGET_MS;
		const maxEntries = this.options.maxEntries ?? MAX_ENTRIES;

		const matches: TextSearchMatch[] = [];
		const tooLarge = new SkipTally();
		const unreadable = new SkipTally();
		let binary = 0;
		let unlistedFolders = 0;
		// Objects, so the checks after the awaits below see what the callbacks set.
		const state: {
			truncated: boolean;
			cutShort: SearchCutShort | undefined;
			failure: Error | undefined;
		} = { truncated: false, cutShort: undefined, failure: undefined };

		// The walk stops on the caller's Stop, the time budget, or a full result.
		const halt = new AbortController();
		// Read through a call, so the checks after an await are not narrowed away by the one before.
		const halted = () => halt.signal.aborted;
		let worker: RegexWorker | undefined;
		const ahead: { readonly path: string; readonly size: number; readonly done: Promise<void>; answered: boolean }[] = [];
		let aheadBytes = 0;
		const stopWith = (cutShort: SearchCutShort): void => {
			state.cutShort ??= cutShort;
			halt.abort();
			void worker?.stop();
		};
		const onAbort = () => {
			stopWith({ reason: 'cancelled' });
		};
		signal.addEventListener('abort', onAbort, { once: true });
		const budget = setTimeout(() => {
			// The worker answers in order: the first file not answered is the one it is on.
			const searching = ahead.find((file) => !file.answered)?.path;
			stopWith({ reason: 'time-budget', budgetMs, ...(searching === undefined ? {} : { searching }) });
		}, budgetMs);

		// Removed only once answered, so the budget can still name the file the worker is on.
		const settleOldest = async (): Promise<void> => {
			const oldest = ahead[0];
			if (oldest) {
				await oldest.done;
				ahead.shift();
				aheadBytes -= oldest.size;
			}
		};

		const searchFile = async (path: string): Promise<boolean> => {
			const stat = await this.fs.stat(path).catch(() => null);
			if (halted()) {
				return false;
			}
			if (stat === null) {
				unreadable.add(path);
				return true;
			}
			if (stat?.type !== 'file') {
				return true;
			}
			if (stat.size > SEARCH_MAX_FILE_BYTES) {
				tooLarge.add(path);
				return true;
			}
			const bytes = await this.fs.readFile(path).catch(() => undefined);
			if (halted()) {
				return false;
			}
			if (bytes === undefined) {
				unreadable.add(path);
				return true;
			}
			if (classifyBytes(bytes) !== 'text') {
				binary++;
				return true;
			}
			worker ??= new RegexWorker(pattern, caseSensitive ? '' : 'i', maxResults);
			const entry = { path, size: bytes.byteLength, done: Promise.resolve(), answered: false };
			// Handled at once, so a stopped worker's rejections are never unhandled; the results
			// land in `matches` in file order, as the worker answers in order.
			entry.done = worker.match(bytes).then(
				(found) => {
					entry.answered = true;
					for (const match of found.matches) {
						matches.push({ path, line: match.line, text: match.text });
					}
					if (found.full) {
						state.truncated = true;
						halt.abort();
					}
				},
				(error: unknown) => {
					// Stopped on purpose: the result says why. Anything else fails the search.
					if (state.cutShort === undefined) {
						state.failure ??= error instanceof Error ? error : new Error('The search failed.');
						halt.abort();
					}
				},
			);
			ahead.push(entry);
			aheadBytes += bytes.byteLength;
			while (ahead.length > AHEAD_FILES || aheadBytes > AHEAD_BYTES) {
				await settleOldest();
			}
			return !halted();
		};

		try {
			for (const root of roots) {
				if (halted()) {
					break;
				}
				const stat = await this.fs.stat(root);
				if (stat?.type === 'file') {
					await searchFile(root);
				} else if (stat?.type === 'directory') {
					const outcome = await walkFiles(this.fs, root, { signal: halt.signal, skip: skippedFoldersFor(glob), maxEntries }, (file) =>
						inGlob(file.relative) ? searchFile(file.absolute) : true,
					);
					unlistedFolders += outcome.unreadableFolders;
					if (!outcome.complete && !halted()) {
						// Neither Stop, the budget nor a full result: the walk reached its entry limit.
						state.cutShort ??= { reason: 'entry-limit', limit: maxEntries };
					}
				}
			}
			while (ahead.length > 0) {
				await settleOldest();
			}
		} finally {
			clearTimeout(budget);
			signal.removeEventListener('abort', onAbort);
			await worker?.stop();
		}
		if (state.failure) {
			throw state.failure;
		}
		const skipped = {
			...(tooLarge.result ? { tooLarge: tooLarge.result } : {}),
			...(unreadable.result ? { unreadable: unreadable.result } : {}),
			...(unlistedFolders > 0 ? { unlistedFolders } : {}),
			...(binary > 0 ? { binary } : {}),
		};
		return {
			matches,
			truncated: state.truncated,
			...(Object.keys(skipped).length > 0 ? { skipped } : {}),
			...(state.cutShort ? { cutShort: state.cutShort } : {}),
		};
	}
}
