// The folders of a Markdown library (src/base/markdownLibrary.ts) in VS Code: some folders of
// each workspace folder, then some of the user's home. The workspace's are watched through VS
// Code's file watcher; the user's, outside the workspace, through fs.watch on the folder or, while
// it does not exist, on the nearest folder above it (and, for a library of one folder per entry,
// on each entry folder, since fs.watch sees only a folder's own entries).
import { closeSync, type Dirent, existsSync, type FSWatcher, openSync, readdirSync, readSync, statSync, watch } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { Emitter } from '../base/event';
import { Disposable, DisposableStore, MutableDisposable, toDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { MarkdownFolder, MarkdownFolders } from '../base/markdownLibrary';
import { plural } from '../base/words';

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
			this.log.debug(`Not watching ${watched}: ${(error as Error).message}`);
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

export interface MarkdownFolderLayout {
	/** For the log: "Skills", "Agent profiles". */
	readonly name: string;
	/** Relative to each workspace folder, in precedence order. */
	readonly workspaceDirs: readonly string[];
	/** Relative to the home folder, in precedence order. */
	readonly userDirs: readonly string[];
	/** Globs under each workspace folder whose creation, change or deletion may change the library. */
	readonly workspaceGlobs: readonly string[];
	/** `folders`: one folder per entry (its file inside); `md-files`: one `.md` file per entry. */
	readonly entries: 'folders' | 'md-files';
	/** Workspace folders are read only in a trusted workspace (and read again when it is trusted). */
	readonly trustedOnly: boolean;
}

function entriesOf(folder: string, keep: (entry: Dirent) => boolean): string[] {
	try {
		return readdirSync(folder, { withFileTypes: true })
			.filter(keep)
			.map((entry) => entry.name);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT' || code === 'ENOTDIR') {
			return [];
		}
		throw error;
	}
}

export class VsCodeMarkdownFolders extends Disposable implements MarkdownFolders {
	private readonly _onDidChange = this._register(new Emitter<void>());
	readonly onDidChange = this._onDidChange.event;
	private readonly workspaceWatchers = this._register(new MutableDisposable<DisposableStore>());
	private readonly entryWatchers = this._register(new MutableDisposable<DisposableStore>());

	constructor(
		private readonly layout: MarkdownFolderLayout,
		private readonly log: Logger,
		private readonly home: string,
	) {
		super();
		const fire = () => {
			this.watchUserEntries();
			this._onDidChange.fire();
		};
		for (const dir of layout.userDirs) {
			this._register(new FolderWatch(join(home, dir), home, fire, log));
		}
		this.watchUserEntries();
		this.watchWorkspace();
		this._register(
			vscode.workspace.onDidChangeWorkspaceFolders(() => {
				this.watchWorkspace();
				this._onDidChange.fire();
			}),
		);
		if (layout.trustedOnly) {
			this._register(vscode.workspace.onDidGrantWorkspaceTrust(fire));
		}
	}

	folders(): readonly MarkdownFolder[] {
		const readable = !this.layout.trustedOnly || vscode.workspace.isTrusted;
		const workspace = readable ? (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file') : [];
		return [
			...workspace.flatMap((folder) => this.layout.workspaceDirs.map((dir) => ({ path: join(folder.uri.fsPath, dir), scope: 'workspace' as const }))),
			...this.layout.userDirs.map((dir) => ({ path: join(this.home, dir), scope: 'user' as const })),
		];
	}

	list(folder: string): readonly string[] {
		return this.layout.entries === 'folders'
			? entriesOf(folder, (entry) => entry.isDirectory() || entry.isSymbolicLink())
			: entriesOf(folder, (entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.md'));
	}

	read(path: string, maxBytes: number): Uint8Array | undefined {
		let isFile: boolean;
		try {
			isFile = statSync(path).isFile();
		} catch (error) {
			// An entry folder without its file is no entry (scripts, assets of another tool).
			if (this.layout.entries === 'folders' && (error as NodeJS.ErrnoException).code === 'ENOENT') {
				return undefined;
			}
			throw error;
		}
		if (!isFile) {
			if (this.layout.entries === 'folders') {
				return undefined;
			}
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

	/** fs.watch sees only a folder's own entries: each entry folder of the user's is watched for its file. */
	private watchUserEntries(): void {
		if (this.layout.entries !== 'folders') {
			return;
		}
		const store = new DisposableStore();
		for (const dir of this.layout.userDirs.map((relativeDir) => join(this.home, relativeDir))) {
			let names: string[] = [];
			try {
				names = [...this.list(dir)];
			} catch (error) {
				this.log.debug(`${this.layout.name}: cannot list ${dir}: ${(error as Error).message}`);
			}
			for (const name of names) {
				store.add(
					new FolderWatch(join(dir, name), dir, () => {
						this._onDidChange.fire();
					}, this.log),
				);
			}
		}
		this.entryWatchers.value = store;
	}

	private watchWorkspace(): void {
		const store = new DisposableStore();
		for (const folder of vscode.workspace.workspaceFolders ?? []) {
			// The files, and the folders holding them (a deleted folder reports only itself).
			for (const glob of this.layout.workspaceGlobs) {
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
		this.log.debug(`${this.layout.name}: watching ${plural((vscode.workspace.workspaceFolders ?? []).length, 'workspace folder')}.`);
	}
}
