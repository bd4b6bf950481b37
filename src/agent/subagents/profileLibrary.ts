// The agent profiles on offer: the built-ins and the profile files of the folders Aside reads
// (src/vscode/agentProfiles.ts says which), re-read when a folder says something changed
// (debounced), announced only when the result changed. Precedence, highest first: workspace
// folders (`.aside/agents/` before `.claude/agents/`, folders in workspace order), then the user's
// (`~/.aside/agents/` before `~/.claude/agents/`), then the built-ins: the first profile of a name
// wins. Each problem is logged once per file content, not at every re-read, and announced through
// `onDidReportProblems` (the chat shows it as a notice).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Timers } from '../../base/clock';
import { errorMessage } from '../../base/errors';
import { Emitter, type Event } from '../../base/event';
import { Disposable } from '../../base/lifecycle';
import type { Logger } from '../../base/log';
import { BUILTIN_PROFILES } from './builtinProfiles';
import type { AgentProfile, AgentProfiles, ProfileProblem } from './profile';
import { MAX_PROFILE_BYTES, parseProfileFile } from './profileFile';

export interface ProfileFolder {
	/** Absolute. */
	readonly path: string;
	readonly scope: 'workspace' | 'user';
}

/** Where profile files are, and word when they may have changed. */
export interface ProfileFolders {
	/** The folders to read now, highest precedence first. */
	folders(): readonly ProfileFolder[];
	/** The names of the `.md` files directly in `folder`; none when it does not exist. */
	list(folder: string): readonly string[];
	/** The file's first `maxBytes` bytes (or all of it when shorter). Throws when it cannot be read. */
	read(path: string, maxBytes: number): Uint8Array;
	/** A file or folder may have changed, or the set of folders did (workspace folders, trust). */
	readonly onDidChange: Event<void>;
}

/** How long changes are gathered before the folders are read again (an editor saves in bursts). */
export const RELOAD_DELAY_MS = 250;
/** Files read per folder at most: a folder with more is cut, with a warning. */
export const MAX_FILES_PER_FOLDER = 100;

/** A problem as one line for the log and the chat: the file, then what is wrong. */
export function describeProblem(problem: ProfileProblem): string {
	return `${problem.path}: ${problem.message}${problem.severity === 'error' ? ' (the profile is skipped)' : ''}`;
}

/** What the chat's notice says of newly reported problems (`onDidReportProblems`): each one, then where to read more. */
export function problemsNotice(problems: readonly ProfileProblem[]): string {
	const shown = problems.slice(0, 5).map(describeProblem);
	const more = problems.length - shown.length;
	return `Agent profile ${problems.length === 1 ? 'problem' : 'problems'}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}. See Aside: Show Log, and docs/agents.md for the format.`;
}

interface Loaded {
	readonly profiles: readonly AgentProfile[];
	readonly problems: readonly ProfileProblem[];
	/** Each problem's identity: its file's content hash and its message. */
	readonly problemKeys: readonly string[];
}

export interface ProfileLibraryOptions {
	readonly timers: Timers;
	readonly log: Logger;
}

export class ProfileLibrary extends Disposable implements AgentProfiles {
	private loaded: Loaded;
	private fingerprint: string;
	/** The identities of the problems of the last read: one seen again is not reported again. */
	private reported = new Set<string>();
	private timer: unknown;

	private readonly _onDidChange = this._register(new Emitter<void>());
	readonly onDidChange: Event<void> = this._onDidChange.event;
	private readonly _onDidReportProblems = this._register(new Emitter<readonly ProfileProblem[]>());
	/**
	 * Problems not reported before (for that file content), after each re-read that found any.
	 * The first read's, made in the constructor before anyone listens, are logged and in `problems()`.
	 */
	readonly onDidReportProblems: Event<readonly ProfileProblem[]> = this._onDidReportProblems.event;

	constructor(
		private readonly folders: ProfileFolders,
		private readonly options: ProfileLibraryOptions,
	) {
		super();
		this.loaded = this.read();
		this.fingerprint = JSON.stringify(this.loaded.profiles);
		this.report(this.loaded);
		this._register(
			folders.onDidChange(() => {
				this.schedule();
			}),
		);
		this._register({
			dispose: () => {
				options.timers.clearTimeout(this.timer);
			},
		});
	}

	current(): readonly AgentProfile[] {
		return this.loaded.profiles;
	}

	problems(): readonly ProfileProblem[] {
		return this.loaded.problems;
	}

	/** Reads every folder again now; fires `onDidChange` when the profiles differ from before. */
	reload(): void {
		this.options.timers.clearTimeout(this.timer);
		this.timer = undefined;
		const loaded = this.read();
		this.loaded = loaded;
		this.report(loaded);
		const fingerprint = JSON.stringify(loaded.profiles);
		if (fingerprint !== this.fingerprint) {
			this.fingerprint = fingerprint;
			this.options.log.info(`Agent profiles: ${loaded.profiles.map((profile) => profile.name).join(', ')}.`);
			this._onDidChange.fire();
		}
	}

	private schedule(): void {
		this.options.timers.clearTimeout(this.timer);
		this.timer = this.options.timers.setTimeout(() => {
			this.reload();
		}, RELOAD_DELAY_MS);
	}

	private report(loaded: Loaded): void {
		const fresh = loaded.problems.filter((_problem, index) => !this.reported.has(loaded.problemKeys[index] ?? ''));
		this.reported = new Set(loaded.problemKeys);
		for (const problem of fresh) {
			this.options.log.warn(`Agent profile ${describeProblem(problem)}`);
		}
		if (fresh.length > 0) {
			this._onDidReportProblems.fire(fresh);
		}
	}

	private read(): Loaded {
		const byName = new Map<string, AgentProfile>();
		const problems: ProfileProblem[] = [];
		const problemKeys: string[] = [];
		const add = (problem: ProfileProblem, contentHash: string): void => {
			problems.push(problem);
			problemKeys.push(`${problem.path}\0${contentHash}\0${problem.message}`);
		};
		for (const folder of this.folders.folders()) {
			let names: readonly string[];
			try {
				names = [...this.folders.list(folder.path)].sort();
			} catch (error) {
				add({ path: folder.path, message: `the folder cannot be read: ${errorMessage(error)}`, severity: 'error' }, '');
				continue;
			}
			if (names.length > MAX_FILES_PER_FOLDER) {
				add({ path: folder.path, message: `the folder has ${names.length} profile files; only the first ${MAX_FILES_PER_FOLDER} by name are read`, severity: 'warning' }, String(names.length));
				names = names.slice(0, MAX_FILES_PER_FOLDER);
			}
			// Within a folder, one name from two files is a mistake; across folders it is precedence.
			const inFolder = new Map<string, string>();
			for (const name of names) {
				const path = join(folder.path, name);
				let bytes: Uint8Array;
				try {
					bytes = this.folders.read(path, MAX_PROFILE_BYTES + 1);
				} catch (error) {
					add({ path, message: `the file cannot be read: ${errorMessage(error)}`, severity: 'error' }, '');
					continue;
				}
				const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
				const parsed = parseProfileFile(bytes, { kind: 'file', path, scope: folder.scope });
				if (!parsed.ok) {
					for (const problem of parsed.problems) {
						add(problem, hash);
					}
					continue;
				}
				for (const warning of parsed.warnings) {
					add(warning, hash);
				}
				const { profile } = parsed;
				const twin = inFolder.get(profile.name);
				if (twin !== undefined) {
					add({ path, message: `name: "${profile.name}" is also the name of ${twin} in the same folder, which is used instead`, severity: 'error' }, hash);
					continue;
				}
				inFolder.set(profile.name, path);
				if (!byName.has(profile.name)) {
					byName.set(profile.name, profile);
				}
			}
		}
		const builtins = BUILTIN_PROFILES.map((builtin) => byName.get(builtin.name) ?? builtin);
		const files = [...byName.values()].filter((profile) => !builtins.includes(profile)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		return { profiles: [...builtins, ...files], problems, problemKeys };
	}
}
