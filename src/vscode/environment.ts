// The session.environment reminder's reader in VS Code: the platform and kernel release of the
// extension host, VS Code's default shell for terminals (`vscode.env.shell`), and the local
// workspace folders as the tools see them. Read at turn starts, so a folder added while a chat is
// open is in the next turn's section.
import { release } from 'node:os';
import * as vscode from 'vscode';
import type { EnvironmentFacts } from '../reminders/builtin/sessionEnvironment';
import { workspaceRoots } from './toolHost';

export function readEnvironment(): EnvironmentFacts {
	return { platform: process.platform, arch: process.arch, release: release(), shell: vscode.env.shell || undefined, folders: workspaceRoots() };
}
