// The skill folders Aside reads, in VS Code: `.aside/skills/`, `.claude/skills/` and
// `.github/skills/` of each workspace folder, then the user's `~/.aside/skills/`. Workspace skills
// are read only in a trusted workspace, and again once it is trusted (Restricted Mode,
// docs/permissions.md); the user's always. How the folders are read and watched is
// src/vscode/markdownFolders.ts.
import { homedir } from 'node:os';
import { systemTimers } from '../base/clock';
import type { Logger } from '../base/log';
import { SkillLibrary } from '../skills/skillLibrary';
import { type MarkdownFolderLayout, VsCodeMarkdownFolders } from './markdownFolders';

export const WORKSPACE_SKILL_DIRS = ['.aside/skills', '.claude/skills', '.github/skills'];
export const USER_SKILL_DIR = '.aside/skills';

const SKILL_LAYOUT: MarkdownFolderLayout = {
	name: 'Skills',
	workspaceDirs: WORKSPACE_SKILL_DIRS,
	userDirs: [USER_SKILL_DIR],
	workspaceGlobs: ['{.aside,.claude,.github}/skills/*/SKILL.md', '{.aside,.claude,.github}/skills/*', '{.aside,.claude,.github}/skills', '{.aside,.claude,.github}'],
	entries: 'folders',
	trustedOnly: true,
};

export class VsCodeSkillFolders extends VsCodeMarkdownFolders {
	constructor(log: Logger, home: string = homedir()) {
		super(SKILL_LAYOUT, log, home);
	}
}

/** The window's skills, kept current. */
export class WindowSkills extends SkillLibrary {
	constructor(folders: VsCodeSkillFolders, log: Logger) {
		super(folders, { timers: systemTimers, log });
		this._register(folders);
	}
}

export function vscodeSkills(log: Logger): WindowSkills {
	return new WindowSkills(new VsCodeSkillFolders(log), log);
}
