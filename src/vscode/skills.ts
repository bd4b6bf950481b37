// The skill folders Aside reads, in VS Code: `.aside/skills/`, `.claude/skills/` and
// `.github/skills/` of each workspace folder, then the user's `~/.aside/skills/`. Workspace skills
// are read in a Restricted Mode window too, as AGENTS.md is: a skill is text for the model, nothing
// in it runs, and the tools it might lead the model to use stay under the permission mode. The
// workspace's are watched through VS Code's file watcher; the user's, outside the workspace,
// through fs.watch on the folder and on each skill folder in it.
import { closeSync, type Dirent, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { systemTimers } from '../base/clock';
import { Emitter } from '../base/event';
import { Disposable, DisposableStore, MutableDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { SkillFolder, SkillFolders } from '../skills/skillLibrary';
import { SkillLibrary } from '../skills/skillLibrary';
import { FolderWatch } from './agentProfiles';

export const WORKSPACE_SKILL_DIRS = ['.aside/skills', '.claude/skills', '.github/skills'];
export const USER_SKILL_DIR = '.aside/skills';

function subfolders(folder: string): Dirent[] {
	try {
		return readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory() || entry.isSymbolicLink());
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT' || code === 'ENOTDIR') {
			return [];
		}
		throw error;
	}
}

export class VsCodeSkillFolders extends Disposable implements SkillFolders {
	private readonly _onDidChange = this._register(new Emitter<void>());
	readonly onDidChange = this._onDidChange.event;
	private readonly workspaceWatchers = this._register(new MutableDisposable<DisposableStore>());
	private readonly userSkillWatchers = this._register(new MutableDisposable<DisposableStore>());
	private readonly userDir: string;

	constructor(private readonly log: Logger, home: string = homedir()) {
		super();
		this.userDir = join(home, USER_SKILL_DIR);
		const fire = () => {
			this.watchUserSkills();
			this._onDidChange.fire();
		};
		this._register(new FolderWatch(this.userDir, home, fire, log));
		this.watchUserSkills();
		this.watchWorkspace();
		this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => {
			this.watchWorkspace();
			this._onDidChange.fire();
		}));
	}

	folders(): readonly SkillFolder[] {
		const workspace = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
		return [
			...workspace.flatMap((folder) => WORKSPACE_SKILL_DIRS.map((dir) => ({ path: join(folder.uri.fsPath, dir), scope: 'workspace' as const }))),
			{ path: this.userDir, scope: 'user' as const },
		];
	}

	list(folder: string): readonly string[] {
		return subfolders(folder).map((entry) => entry.name);
	}

	read(path: string, maxBytes: number): Uint8Array | undefined {
		try {
			if (!statSync(path).isFile()) {
				return undefined;
			}
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
				return undefined;
			}
			throw error;
		}
		const fd = openSync(path, 'r');
		try {
			const buffer = Buffer.alloc(maxBytes);
			const length = readSync(fd, buffer, 0, maxBytes, 0);
			return buffer.subarray(0, length);
		} finally {
			closeSync(fd);
		}
	}

	/** fs.watch sees only a folder's own entries: each skill folder is watched for its SKILL.md. */
	private watchUserSkills(): void {
		const store = new DisposableStore();
		let entries: Dirent[] = [];
		try {
			entries = subfolders(this.userDir);
		} catch (error) {
			this.log.debug(`Skills: cannot list ${this.userDir}: ${(error as Error).message}`);
		}
		for (const entry of entries) {
			store.add(new FolderWatch(join(this.userDir, entry.name), this.userDir, () => {
				this._onDidChange.fire();
			}, this.log));
		}
		this.userSkillWatchers.value = store;
	}

	private watchWorkspace(): void {
		const store = new DisposableStore();
		for (const folder of vscode.workspace.workspaceFolders ?? []) {
			// The files, and the folders holding them (a deleted folder reports only itself).
			for (const glob of ['{.aside,.claude,.github}/skills/*/SKILL.md', '{.aside,.claude,.github}/skills/*', '{.aside,.claude,.github}/skills', '{.aside,.claude,.github}']) {
				const watcher = store.add(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob)));
				for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) {
					store.add(event(() => {
						this._onDidChange.fire();
					}));
				}
			}
		}
		this.workspaceWatchers.value = store;
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
