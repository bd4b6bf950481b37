// A library of Markdown files with frontmatter kept in folders (skills, agent profiles): the
// files of the folders Aside reads, highest precedence first, re-read when a folder says
// something changed (debounced), announced only when the result changed. The first item of a
// name wins; a duplicate is reported where the kind says it is a mistake. Each problem is logged
// once per file content, not at every re-read, and announced through `onDidReportProblems` (the
// chat shows it as a notice). What differs per kind — where the file of an entry is, how it
// parses, what the final list is — is its `MarkdownKind`.
import { createHash } from 'node:crypto';
import type { Timers } from './clock';
import { errorMessage } from './errors';
import { Emitter, type Event } from './event';
import { Disposable } from './lifecycle';
import type { Logger } from './log';

export interface MarkdownFolder {
	/** Absolute. */
	readonly path: string;
	readonly scope: 'workspace' | 'user';
}

/** Where the files are, and word when they may have changed. */
export interface MarkdownFolders {
	/** The folders to read now, highest precedence first. */
	folders(): readonly MarkdownFolder[];
	/** The names of the entries directly in `folder` the kind reads; none when it does not exist. */
	list(folder: string): readonly string[];
	/** The file's first `maxBytes` bytes; undefined when there is no such file. Throws when it cannot be read. */
	read(path: string, maxBytes: number): Uint8Array | undefined;
	/** A file or folder may have changed, or the set of folders did (workspace folders, trust). */
	readonly onDidChange: Event<void>;
}

export interface LibraryProblem {
	/** The file (absolute), or the folder for a problem of the folder. */
	readonly path: string;
	readonly message: string;
	readonly severity: 'error' | 'warning';
}

export type ParsedItem<T> = {
	readonly ok: true;
	readonly item: T;
	readonly warnings: readonly LibraryProblem[];
} | { readonly ok: false; readonly problems: readonly LibraryProblem[] };

export interface MarkdownKind<T extends { readonly name: string }> {
	/** Starts each logged problem: "Skill", "Agent profile". */
	readonly noun: string;
	/** Starts the log line of what is on offer: "Skills", "Agent profiles". */
	readonly plural: string;
	/** What a folder holds, for the warning of a folder cut at `maxPerFolder`: "skill folders". */
	readonly entries: string;
	readonly maxPerFolder: number;
	/** A file is read to one byte past this, so the parser can say it is too large. */
	readonly maxBytes: number;
	readonly reloadDelayMs: number;
	/** A second item of a name: a mistake anywhere in the library, or only within one folder (across folders it is precedence). */
	readonly duplicates: 'library' | 'folder';
	/** The file of entry `name` of `folder`; a missing one is no item and nothing to say. */
	fileOf(folder: string, name: string): string;
	parse(bytes: Uint8Array, path: string, scope: MarkdownFolder['scope']): ParsedItem<T>;
	/** The list on offer from the winners by name, in precedence order. */
	finish(winners: readonly T[]): readonly T[];
	/** Equal when the list on offer is the same (then `onDidChange` does not fire). */
	fingerprint(items: readonly T[]): string;
	describe(problem: LibraryProblem): string;
}

/** What the chat's notice says of newly reported problems: each one, then where to read more. */
export function libraryProblemsNotice(noun: string, docs: string, describe: (problem: LibraryProblem) => string, problems: readonly LibraryProblem[]): string {
	const shown = problems.slice(0, 5).map(describe);
	const more = problems.length - shown.length;
	return `${noun} ${problems.length === 1 ? 'problem' : 'problems'}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}. See Aside: Show Log, and ${docs} for the format.`;
}

interface Loaded<T> {
	readonly items: readonly T[];
	readonly problems: readonly LibraryProblem[];
	/** Each problem's identity: its file's content hash and its message. */
	readonly problemKeys: readonly string[];
}

export class MarkdownLibrary<T extends { readonly name: string }> extends Disposable {
	private loaded: Loaded<T>;
	private fingerprint: string;
	/** The identities of the problems of the last read: one seen again is not reported again. */
	private reported = new Set<string>();
	private timer: unknown;

	private readonly _onDidChange = this._register(new Emitter<void>());
	readonly onDidChange: Event<void> = this._onDidChange.event;
	private readonly _onDidReportProblems = this._register(new Emitter<readonly LibraryProblem[]>());
	/**
	 * Problems not reported before (for that file content), after each re-read that found any.
	 * The first read's, made in the constructor before anyone listens, are logged and in `problems()`.
	 */
	readonly onDidReportProblems: Event<readonly LibraryProblem[]> = this._onDidReportProblems.event;

	constructor(
		private readonly folders: MarkdownFolders,
		private readonly kind: MarkdownKind<T>,
		private readonly options: { readonly timers: Timers; readonly log: Logger },
	) {
		super();
		this.loaded = this.read();
		this.fingerprint = kind.fingerprint(this.loaded.items);
		this.report(this.loaded);
		this._register(
			folders.onDidChange(() => {
				this.options.timers.clearTimeout(this.timer);
				this.timer = this.options.timers.setTimeout(() => {
					this.reload();
				}, kind.reloadDelayMs);
			}),
		);
		this._register({
			dispose: () => {
				options.timers.clearTimeout(this.timer);
			},
		});
	}

	current(): readonly T[] {
		return this.loaded.items;
	}

	problems(): readonly LibraryProblem[] {
		return this.loaded.problems;
	}

	/** Reads every folder again now; fires `onDidChange` when the list differs from before. */
	reload(): void {
		this.options.timers.clearTimeout(this.timer);
		this.timer = undefined;
		const loaded = this.read();
		this.report(loaded);
		const fingerprint = this.kind.fingerprint(loaded.items);
		// The same list hands out the same array, so readers may compare by identity.
		this.loaded = fingerprint === this.fingerprint ? { ...loaded, items: this.loaded.items } : loaded;
		if (fingerprint !== this.fingerprint) {
			this.fingerprint = fingerprint;
			this.options.log.info(`${this.kind.plural}: ${loaded.items.map((item) => item.name).join(', ') || 'none'}.`);
			this._onDidChange.fire();
		}
	}

	private report(loaded: Loaded<T>): void {
		const fresh = loaded.problems.filter((_problem, index) => !this.reported.has(loaded.problemKeys[index] ?? ''));
		this.reported = new Set(loaded.problemKeys);
		for (const problem of fresh) {
			this.options.log.warn(`${this.kind.noun} ${this.kind.describe(problem)}`);
		}
		if (fresh.length > 0) {
			this._onDidReportProblems.fire(fresh);
		}
	}

	private read(): Loaded<T> {
		const { kind } = this;
		const byName = new Map<string, T>();
		const problems: LibraryProblem[] = [];
		const problemKeys: string[] = [];
		const add = (problem: LibraryProblem, contentHash: string): void => {
			problems.push(problem);
			problemKeys.push(`${problem.path}\0${contentHash}\0${problem.message}`);
		};
		/** Where each name was taken: in the whole library, or in this folder. */
		const taken = new Map<string, string>();
		for (const folder of this.folders.folders()) {
			let names: readonly string[];
			try {
				names = [...this.folders.list(folder.path)].sort();
			} catch (error) {
				add({ path: folder.path, message: `the folder cannot be read: ${errorMessage(error)}`, severity: 'error' }, '');
				continue;
			}
			if (names.length > kind.maxPerFolder) {
				add({ path: folder.path, message: `the folder has ${names.length} ${kind.entries}; only the first ${kind.maxPerFolder} by name are read`, severity: 'warning' }, String(names.length));
				names = names.slice(0, kind.maxPerFolder);
			}
			if (kind.duplicates === 'folder') {
				taken.clear();
			}
			for (const name of names) {
				const path = kind.fileOf(folder.path, name);
				let bytes: Uint8Array | undefined;
				try {
					bytes = this.folders.read(path, kind.maxBytes + 1);
				} catch (error) {
					add({ path, message: `the file cannot be read: ${errorMessage(error)}`, severity: 'error' }, '');
					continue;
				}
				if (bytes === undefined) {
					continue;
				}
				const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
				const parsed = kind.parse(bytes, path, folder.scope);
				if (!parsed.ok) {
					for (const problem of parsed.problems) {
						add(problem, hash);
					}
					continue;
				}
				for (const warning of parsed.warnings) {
					add(warning, hash);
				}
				const { item } = parsed;
				const first = taken.get(item.name);
				if (first !== undefined) {
					const where = kind.duplicates === 'folder' ? `${first} in the same folder` : first;
					add({ path, message: `name: "${item.name}" is also the name of ${where}, which is used instead`, severity: 'error' }, hash);
					continue;
				}
				taken.set(item.name, path);
				if (!byName.has(item.name)) {
					byName.set(item.name, item);
				}
			}
		}
		return { items: kind.finish([...byName.values()]), problems, problemKeys };
	}
}

/** Names in code-point order, as the libraries list them. */
export function byName<T extends { readonly name: string }>(a: T, b: T): number {
	return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
