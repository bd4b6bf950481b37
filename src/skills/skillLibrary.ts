// The skills on offer: the SKILL.md of each skill folder in the folders Aside reads
// (src/vscode/skills.ts says which), re-read when a folder says something changed (debounced),
// announced only when the result changed. Precedence, highest first: workspace folders in
// workspace order (`.aside/skills/`, then `.claude/skills/`, then `.github/skills/`), then the
// user's `~/.aside/skills/`; the first skill of a name wins and every other one of that name is
// reported, naming the one used. Each problem is logged once per file content and announced
// through `onDidReportProblems` (the chat shows it as a notice).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Timers } from '../base/clock';
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { Skill, SkillProblem, Skills } from './skill';
import { MAX_SKILL_BYTES, parseSkillFile } from './skillFile';

export interface SkillFolder {
	/** Absolute: the folder holding one folder per skill. */
	readonly path: string;
	readonly scope: 'workspace' | 'user';
}

/** Where skills are, and word when they may have changed. */
export interface SkillFolders {
	/** The folders to read now, highest precedence first. */
	folders(): readonly SkillFolder[];
	/** The names of the folders directly in `folder`; none when it does not exist. */
	list(folder: string): readonly string[];
	/** The file's first `maxBytes` bytes; undefined when there is no such file. Throws when it cannot be read. */
	read(path: string, maxBytes: number): Uint8Array | undefined;
	readonly onDidChange: Event<void>;
}

export const SKILL_FILE = 'SKILL.md';
/** How long changes are gathered before the folders are read again (an editor saves in bursts). */
export const SKILLS_RELOAD_DELAY_MS = 250;
/** Skill folders read per folder at most: a folder with more is cut, with a warning. */
export const MAX_SKILLS_PER_FOLDER = 100;

export function describeSkillProblem(problem: SkillProblem): string {
	return `${problem.path}: ${problem.message}${problem.severity === 'error' ? ' (the skill is skipped)' : ''}`;
}

/** What the chat's notice says of newly reported problems: each one, then where to read more. */
export function skillProblemsNotice(problems: readonly SkillProblem[]): string {
	const shown = problems.slice(0, 5).map(describeSkillProblem);
	const more = problems.length - shown.length;
	return `Skill ${problems.length === 1 ? 'problem' : 'problems'}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}. See Aside: Show Log, and docs/skills.md for the format.`;
}

interface Loaded {
	readonly skills: readonly Skill[];
	readonly problems: readonly SkillProblem[];
	readonly problemKeys: readonly string[];
}

export class SkillLibrary extends Disposable implements Skills {
	private loaded: Loaded;
	private fingerprint: string;
	private reported = new Set<string>();
	private timer: unknown;

	private readonly _onDidChange = this._register(new Emitter<void>());
	readonly onDidChange: Event<void> = this._onDidChange.event;
	private readonly _onDidReportProblems = this._register(new Emitter<readonly SkillProblem[]>());
	/** Problems not reported before (for that file content), after each re-read that found any; the first read's are in `problems()`. */
	readonly onDidReportProblems: Event<readonly SkillProblem[]> = this._onDidReportProblems.event;

	constructor(
		private readonly folders: SkillFolders,
		private readonly options: { readonly timers: Timers; readonly log: Logger },
	) {
		super();
		this.loaded = this.read();
		this.fingerprint = this.fingerprintOf(this.loaded.skills);
		this.report(this.loaded);
		this._register(folders.onDidChange(() => {
			this.options.timers.clearTimeout(this.timer);
			this.timer = this.options.timers.setTimeout(() => {
				this.reload();
			}, SKILLS_RELOAD_DELAY_MS);
		}));
		this._register({
			dispose: () => {
				options.timers.clearTimeout(this.timer);
			},
		});
	}

	current(): readonly Skill[] {
		return this.loaded.skills;
	}

	problems(): readonly SkillProblem[] {
		return this.loaded.problems;
	}

	/** Reads every folder again now; fires `onDidChange` when the skills differ from before. */
	reload(): void {
		this.options.timers.clearTimeout(this.timer);
		this.timer = undefined;
		const loaded = this.read();
		this.report(loaded);
		const fingerprint = this.fingerprintOf(loaded.skills);
		// The same list hands out the same array, so readers may compare by identity.
		this.loaded = fingerprint === this.fingerprint ? { ...loaded, skills: this.loaded.skills } : loaded;
		if (fingerprint !== this.fingerprint) {
			this.fingerprint = fingerprint;
			this.options.log.info(`Skills: ${loaded.skills.map((skill) => skill.name).join(', ') || 'none'}.`);
			this._onDidChange.fire();
		}
	}

	private fingerprintOf(skills: readonly Skill[]): string {
		return JSON.stringify(skills.map((skill) => [skill.name, skill.hash, skill.source.path]));
	}

	private report(loaded: Loaded): void {
		const fresh = loaded.problems.filter((_problem, index) => !this.reported.has(loaded.problemKeys[index] ?? ''));
		this.reported = new Set(loaded.problemKeys);
		for (const problem of fresh) {
			this.options.log.warn(`Skill ${describeSkillProblem(problem)}`);
		}
		if (fresh.length > 0) {
			this._onDidReportProblems.fire(fresh);
		}
	}

	private read(): Loaded {
		const byName = new Map<string, Skill>();
		const problems: SkillProblem[] = [];
		const problemKeys: string[] = [];
		const add = (problem: SkillProblem, contentHash: string): void => {
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
			if (names.length > MAX_SKILLS_PER_FOLDER) {
				add({ path: folder.path, message: `the folder has ${names.length} skill folders; only the first ${MAX_SKILLS_PER_FOLDER} by name are read`, severity: 'warning' }, String(names.length));
				names = names.slice(0, MAX_SKILLS_PER_FOLDER);
			}
			for (const name of names) {
				const path = join(folder.path, name, SKILL_FILE);
				let bytes: Uint8Array | undefined;
				try {
					bytes = this.folders.read(path, MAX_SKILL_BYTES + 1);
				} catch (error) {
					add({ path, message: `the file cannot be read: ${errorMessage(error)}`, severity: 'error' }, '');
					continue;
				}
				if (bytes === undefined) {
					// A folder without SKILL.md is no skill (scripts, assets of another tool): nothing to say.
					continue;
				}
				const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
				const parsed = parseSkillFile(bytes, { path, scope: folder.scope });
				if (!parsed.ok) {
					for (const problem of parsed.problems) {
						add(problem, hash);
					}
					continue;
				}
				const { skill } = parsed;
				const winner = byName.get(skill.name);
				if (winner !== undefined) {
					add({ path, message: `name: "${skill.name}" is also the name of ${winner.source.path}, which is used instead`, severity: 'error' }, hash);
					continue;
				}
				byName.set(skill.name, skill);
			}
		}
		const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		return { skills, problems, problemKeys };
	}
}
