// The workspace's reminder files in VS Code (docs/workspace-reminders.md, "Trust and settings"):
// `.aside/reminders/*.md` of each workspace folder (file scheme), read only in a trusted workspace
// and read again when trust is granted, watched through VS Code's file watcher so a change
// applies at the next WAIT. A file that cannot be used is said once, in the log and the chat (the
// language server shows the details on the file). Whether each may fire is read at every WAIT
// from trust and the settings, so turning one off needs no reload.
import { readdirSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { Emitter, type Event } from '../base/event';
import { Disposable, DisposableStore, MutableDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import { type FolderParser, isReminderOn, ProblemsOnce, readReminderFiles, type ReminderFolderReader, REMINDERS_DIR } from '../workspaceReminders/loading';
import type { UnregisteredFile, WorkspaceReminders } from '../workspaceReminders/registry';
import type { Configuration } from './configuration';

const nodeReader: ReminderFolderReader = {
	list: (folder) => {
		try {
			return readdirSync(folder, { withFileTypes: true })
				.filter((entry) => entry.isFile() || entry.isSymbolicLink())
				.map((entry) => entry.name);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === 'ENOENT' || code === 'ENOTDIR') {
				return [];
			}
			throw error;
		}
	},
	read: (path) => {
		try {
			return readFileSync(path, 'utf8');
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
				return undefined;
			}
			throw error;
		}
	},
};

/** Whether a workspace reminder (by its file's key) may fire now: trust, then the two settings. */
export function workspaceReminderSwitch(configuration: Pick<Configuration, 'current'>): (key: string) => boolean {
	return (key) => isReminderOn(
		{ trusted: vscode.workspace.isTrusted, all: configuration.current.workspaceReminders, each: configuration.current.workspaceReminderSettings },
		key,
	);
}

export class VsCodeWorkspaceReminders extends Disposable {
	private readonly watchers = this._register(new MutableDisposable<DisposableStore>());
	private readonly once = new ProblemsOnce();
	private readonly _onDidReportProblems = this._register(new Emitter<readonly UnregisteredFile[]>());
	/** Files newly found unusable (each said once while it stands). */
	readonly onDidReportProblems: Event<readonly UnregisteredFile[]> = this._onDidReportProblems.event;

	constructor(
		private readonly reminders: WorkspaceReminders,
		private readonly parse: FolderParser,
		private readonly log: Logger,
	) {
		super();
		this.watch();
		this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => {
			this.watch();
			this.load();
		}));
		this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => {
			this.log.info('Workspace reminders: the workspace is trusted now; reading .aside/reminders/.');
			this.load();
		}));
	}

	/**
	 * Reads every folder's files again and hands them to the registry (first at activation).
	 * Returns the problems newly found (also fired, for later loads). Never throws.
	 */
	load(): readonly UnregisteredFile[] {
		if (!vscode.workspace.isTrusted) {
			// Nothing of an untrusted workspace's reminders is read, let alone sent.
			this.reminders.update([]);
			return [];
		}
		const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
		try {
			this.reminders.update(readReminderFiles(folders, nodeReader, this.parse));
		} catch (error) {
			this.log.warn(`Workspace reminders: could not read ${REMINDERS_DIR}: ${(error as Error).message}`);
			return [];
		}
		const count = this.reminders.current.length;
		this.log.debug(`Workspace reminders: ${count} in use.`);
		const fresh = this.once.fresh(this.reminders.problems);
		for (const problem of fresh) {
			this.log.warn(`Workspace reminders: ${problem.message}`);
		}
		if (fresh.length > 0) {
			this._onDidReportProblems.fire(fresh);
		}
		return fresh;
	}

	private watch(): void {
		const store = new DisposableStore();
		for (const folder of vscode.workspace.workspaceFolders ?? []) {
			// The files, and the folders holding them (a deleted folder reports only itself).
			for (const glob of [`${REMINDERS_DIR}/*.md`, REMINDERS_DIR, '.aside']) {
				const watcher = store.add(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob)));
				for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) {
					store.add(event(() => {
						this.load();
					}));
				}
			}
		}
		this.watchers.value = store;
	}
}
