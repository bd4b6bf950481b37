// The profile folders Aside reads, in VS Code: `.aside/agents/` and `.claude/agents/` of each
// workspace folder (only in a trusted workspace: a cloned repository must not hand the agent its
// own role prompts before you trust it), then `~/.aside/agents/` and `~/.claude/agents/`. The
// workspace's are watched through VS Code's file watcher; the user's, outside the workspace,
// through fs.watch on the folder or, while it does not exist, on the nearest folder above it.
import { closeSync, existsSync, type FSWatcher, openSync, readdirSync, readSync, statSync, watch } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { ProfileFolder, ProfileFolders } from '../agent/subagents/profileLibrary';
import { ProfileLibrary } from '../agent/subagents/profileLibrary';
import { systemTimers } from '../base/clock';
import { Emitter } from '../base/event';
import { Disposable, DisposableStore, MutableDisposable, toDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';

const PROFILE_DIRS = ['.aside/agents', '.claude/agents'];

/** Watches `dir` for changes; while it does not exist, the nearest existing folder above it (up to `top`) for its appearance. */
export class FolderWatch extends Disposable {
	private readonly watcher = this._register(new MutableDisposable());

	constructor(
		private readonly dir: string,
		private readonly top: string,
		private readonly fire: () => void,
		private readonly log: Logger,
	) {
		super();
		this.rewire();
	}

	private rewire(): void {
		let watched = this.dir;
		while (!existsSync(watched) && watched !== this.top && dirname(watched) !== watched) {
			watched = dirname(watched);
		}
		// The segment below `watched` on the way to `dir`: only its appearance matters up there.
		const next = watched === this.dir ? undefined : relative(watched, this.dir).split(sep)[0];
		let fsWatcher: FSWatcher;
		try {
			fsWatcher = watch(watched, { persistent: false }, (_event, name) => {
				if (next === undefined) {
					if (!existsSync(this.dir)) {
						this.rewire();
					}
					this.fire();
				} else if (name === null || name === next) {
					this.rewire();
					this.fire();
				}
			});
		} catch (error) {
			this.log.debug(`Agent profiles: not watching ${watched}: ${(error as Error).message}`);
			this.watcher.value = undefined;
			return;
		}
		fsWatcher.on('error', () => {
			this.rewire();
		});
		this.watcher.value = toDisposable(() => {
			fsWatcher.close();
		});
	}
}

export class VsCodeProfileFolders extends Disposable implements ProfileFolders {
	private readonly _onDidChange = this._register(new Emitter<void>());
	readonly onDidChange = this._onDidChange.event;
	private readonly workspaceWatchers = this._register(new MutableDisposable<DisposableStore>());
	private readonly home = homedir();

	constructor(private readonly log: Logger) {
		super();
		const fire = () => {
			this._onDidChange.fire();
		};
		for (const dir of PROFILE_DIRS) {
			this._register(new FolderWatch(join(this.home, dir), this.home, fire, log));
		}
		this.watchWorkspace();
		this._register(
			vscode.workspace.onDidChangeWorkspaceFolders(() => {
				this.watchWorkspace();
				fire();
			}),
		);
		this._register(vscode.workspace.onDidGrantWorkspaceTrust(fire));
	}

	folders(): readonly ProfileFolder[] {
		const workspace = vscode.workspace.isTrusted ? (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file') : [];
		return [
			...workspace.flatMap((folder) => PROFILE_DIRS.map((dir) => ({ path: join(folder.uri.fsPath, dir), scope: 'workspace' as const }))),
			...PROFILE_DIRS.map((dir) => ({ path: join(this.home, dir), scope: 'user' as const })),
		];
	}

	list(folder: string): readonly string[] {
		try {
			return readdirSync(folder, { withFileTypes: true })
				.filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.md'))
				.map((entry) => entry.name);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === 'ENOENT' || code === 'ENOTDIR') {
				return [];
			}
			throw error;
		}
	}

	read(path: string, maxBytes: number): Uint8Array {
		if (!statSync(path).isFile()) {
			throw new Error('not a file');
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

	private watchWorkspace(): void {
		const store = new DisposableStore();
		for (const folder of vscode.workspace.workspaceFolders ?? []) {
			// The files, and the folders holding them (a deleted folder reports only itself).
			for (const glob of ['{.aside,.claude}/agents/*.md', '{.aside,.claude}/agents', '{.aside,.claude}']) {
				const watcher = store.add(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob)));
				for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) {
					store.add(
						event(() => {
							this._onDidChange.fire();
						}),
					);
				}
			}
		}
		this.workspaceWatchers.value = store;
		this.log.debug(`Agent profiles: watching ${(vscode.workspace.workspaceFolders ?? []).length} workspace folder(s).`);
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
