// The profile folders Aside reads, in VS Code: `.aside/agents/` and `.claude/agents/` of each
// workspace folder (only in a trusted workspace: a cloned repository must not hand the agent its
// own role prompts before you trust it), then `~/.aside/agents/` and `~/.claude/agents/`. How the
// folders are read and watched is src/vscode/markdownFolders.ts.
import { homedir } from 'node:os';
import { ProfileLibrary } from '../agent/subagents/profileLibrary';
import { systemTimers } from '../base/clock';
import type { Logger } from '../base/log';
import { type MarkdownFolderLayout, VsCodeMarkdownFolders } from './markdownFolders';

const PROFILE_DIRS = ['.aside/agents', '.claude/agents'];

const PROFILE_LAYOUT: MarkdownFolderLayout = {
	name: 'Agent profiles',
	workspaceDirs: PROFILE_DIRS,
	userDirs: PROFILE_DIRS,
	workspaceGlobs: ['{.aside,.claude}/agents/*.md', '{.aside,.claude}/agents', '{.aside,.claude}'],
	entries: 'md-files',
	trustedOnly: true,
};

export class VsCodeProfileFolders extends VsCodeMarkdownFolders {
	constructor(log: Logger) {
		super(PROFILE_LAYOUT, log, homedir());
	}
}

/** The window's agent profiles: built-ins and the profile files, kept current. */
export class WindowAgentProfiles extends ProfileLibrary {
	constructor(folders: VsCodeProfileFolders, log: Logger) {
		super(folders, { timers: systemTimers, log });
		this._register(folders);
	}
}

export function vscodeAgentProfiles(log: Logger): WindowAgentProfiles {
	return new WindowAgentProfiles(new VsCodeProfileFolders(log), log);
}
