// The skills on offer: the SKILL.md of each skill folder in the folders Aside reads
// (src/vscode/skills.ts says which), re-read when a folder says something changed (debounced),
// announced only when the result changed. Precedence, highest first: workspace folders in
// workspace order (`.aside/skills/`, then `.claude/skills/`, then `.github/skills/`), then the
// user's `~/.aside/skills/`; the first skill of a name wins and every other one of that name is
// reported, naming the one used. Each problem is logged once per file content and announced
// through `onDidReportProblems` (the chat shows it as a notice).
import { join } from 'node:path';
import type { Timers } from '../base/clock';
import { byName, libraryProblemsNotice, MarkdownLibrary, type MarkdownFolder, type MarkdownFolders, type MarkdownKind } from '../base/markdownLibrary';
import type { Logger } from '../base/log';
import type { Skill, SkillProblem, Skills } from './skill';
import { MAX_SKILL_BYTES, parseSkillFile } from './skillFile';

/** The folder holding one folder per skill. */
export type SkillFolder = MarkdownFolder;
/** `list` names the folders directly in a folder; `read` gives undefined for a folder without SKILL.md. */
export type SkillFolders = MarkdownFolders;

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
	return libraryProblemsNotice('Skill', 'docs/skills.md', describeSkillProblem, problems);
}

const SKILL_KIND: MarkdownKind<Skill> = {
	noun: 'Skill',
	plural: 'Skills',
	entries: 'skill folders',
	maxPerFolder: MAX_SKILLS_PER_FOLDER,
	maxBytes: MAX_SKILL_BYTES,
	reloadDelayMs: SKILLS_RELOAD_DELAY_MS,
	duplicates: 'library',
	// A folder without SKILL.md is no skill (scripts, assets of another tool): read gives nothing.
	fileOf: (folder, name) => join(folder, name, SKILL_FILE),
	parse: (bytes, path, scope) => {
		const parsed = parseSkillFile(bytes, { path, scope });
		return parsed.ok ? { ok: true, item: parsed.skill, warnings: [] } : parsed;
	},
	finish: (winners) => [...winners].sort(byName),
	fingerprint: (skills) => JSON.stringify(skills.map((skill) => [skill.name, skill.hash, skill.source.path])),
	describe: describeSkillProblem,
};

export class SkillLibrary extends MarkdownLibrary<Skill> implements Skills {
	constructor(folders: SkillFolders, options: { readonly timers: Timers; readonly log: Logger }) {
		super(folders, SKILL_KIND, options);
	}
}
