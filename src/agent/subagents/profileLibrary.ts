// The agent profiles on offer: the built-ins and the profile files of the folders Aside reads
// (src/vscode/agentProfiles.ts says which), re-read when a folder says something changed
// (debounced), announced only when the result changed. Precedence, highest first: workspace
// folders (`.aside/agents/` before `.claude/agents/`, folders in workspace order), then the user's
// (`~/.aside/agents/` before `~/.claude/agents/`), then the built-ins: the first profile of a name
// wins. Each problem is logged once per file content, not at every re-read, and announced through
// `onDidReportProblems` (the chat shows it as a notice).
import { join } from 'node:path';
import type { Timers } from '../../base/clock';
import { byName, libraryProblemsNotice, MarkdownLibrary, type MarkdownFolder, type MarkdownFolders, type MarkdownKind } from '../../base/markdownLibrary';
import type { Logger } from '../../base/log';
import { BUILTIN_PROFILES } from './builtinProfiles';
import type { AgentProfile, AgentProfiles, ProfileProblem } from './profile';
import { MAX_PROFILE_BYTES, parseProfileFile } from './profileFile';

export type ProfileFolder = MarkdownFolder;
/** `list` names the `.md` files directly in a folder. */
export type ProfileFolders = MarkdownFolders;

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
	return libraryProblemsNotice('Agent profile', 'docs/agents.md', describeProblem, problems);
}

const PROFILE_KIND: MarkdownKind<AgentProfile> = {
	noun: 'Agent profile',
	plural: 'Agent profiles',
	entries: 'profile files',
	maxPerFolder: MAX_FILES_PER_FOLDER,
	maxBytes: MAX_PROFILE_BYTES,
	reloadDelayMs: RELOAD_DELAY_MS,
	// Within a folder, one name from two files is a mistake; across folders it is precedence.
	duplicates: 'folder',
	fileOf: (folder, name) => join(folder, name),
	parse: (bytes, path, scope) => {
		const parsed = parseProfileFile(bytes, { kind: 'file', path, scope });
		return parsed.ok ? { ok: true, item: parsed.profile, warnings: parsed.warnings } : parsed;
	},
	// A file of a built-in's name takes its place; the others follow by name.
	finish: (winners) => {
		const files = new Map(winners.map((profile) => [profile.name, profile]));
		const builtins = BUILTIN_PROFILES.map((builtin) => files.get(builtin.name) ?? builtin);
		return [...builtins, ...winners.filter((profile) => !builtins.includes(profile)).sort(byName)];
	},
	fingerprint: (profiles) => JSON.stringify(profiles),
	describe: describeProblem,
};

export interface ProfileLibraryOptions {
	readonly timers: Timers;
	readonly log: Logger;
}

export class ProfileLibrary extends MarkdownLibrary<AgentProfile> implements AgentProfiles {
	constructor(folders: ProfileFolders, options: ProfileLibraryOptions) {
		super(folders, PROFILE_KIND, options);
	}
}
