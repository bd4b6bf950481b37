// FileEvents for the edited-files observer: the workspace's file watcher and saved documents,
// as absolute paths of `file:` resources.
import * as vscode from 'vscode';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { FileEvents } from '../observe/editedFiles';

export class VsCodeFileEvents extends Disposable implements FileEvents {
	private readonly _onDidChange = this._register(new Emitter<string>());
	readonly onDidChange: Event<string> = this._onDidChange.event;
	private readonly _onDidDelete = this._register(new Emitter<string>());
	readonly onDidDelete: Event<string> = this._onDidDelete.event;

	constructor() {
		super();
		const changed = (uri: vscode.Uri): void => {
			if (uri.scheme === 'file') {
				this._onDidChange.fire(uri.fsPath);
			}
		};
		const deleted = (uri: vscode.Uri): void => {
			if (uri.scheme === 'file') {
				this._onDidDelete.fire(uri.fsPath);
			}
		};
		const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/*'));
		this._register(watcher.onDidChange(changed));
		this._register(watcher.onDidCreate(changed));
		this._register(watcher.onDidDelete(deleted));
		this._register(vscode.workspace.onDidSaveTextDocument((document) => {
			changed(document.uri);
		}));
		this._register(vscode.workspace.onDidRenameFiles((event) => {
			for (const { oldUri, newUri } of event.files) {
				deleted(oldUri);
				changed(newUri);
			}
		}));
	}
}
