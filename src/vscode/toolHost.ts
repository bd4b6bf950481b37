// The tool interfaces in VS Code: files through vscode.workspace.fs, writes through the
// document model (undo, dirty state, diagnostics), commands through Node in the extension host.
import { stat as nodeStat } from 'node:fs/promises';
import { realPathOnDisk } from '../tools/realPlace';
import * as vscode from 'vscode';
import type { Logger } from '../base/log';
import { NodeCommandRunner } from '../tools/nodeRunner';
import { decodeUtf8 } from '../tools/text';
import { StaleTextError } from '../tools/staleWrite';
import type { DocumentWriter, FileStat, SeenFiles, TextSearch, ToolContext, WorkspaceFs } from '../tools/tool';
import type { KeptOutputs } from '../tools/keptOutputs';
import { createTextSearch } from './ripgrep';

function isMissing(error: unknown): boolean {
	return error instanceof vscode.FileSystemError && (error.code === 'FileNotFound' || error.code === 'FileNotADirectory');
}

/** `stat` follows symlinks; the SymbolicLink bit only matters to readDirectory. */
function typeOf(type: vscode.FileType): FileStat['type'] {
	return type & vscode.FileType.Directory ? 'directory' : type & vscode.FileType.File ? 'file' : 'other';
}

export class VsCodeWorkspaceFs implements WorkspaceFs {
	async stat(path: string): Promise<FileStat | undefined> {
		try {
			const stat = await vscode.workspace.fs.stat(vscode.Uri.file(path));
			const type = typeOf(stat.type);
			// VS Code's stat has no link count; the files are local, so Node's stat gives it (for
			// files only: a write needs it, and a folder's count is its subfolders).
			const nlink =
				type === 'file'
					? await nodeStat(path).then(
							(stats) => stats.nlink,
							() => undefined,
						)
					: undefined;
			return { type, size: stat.size, mtimeMs: stat.mtime, ...(nlink === undefined ? {} : { nlink }) };
		} catch (error) {
			if (isMissing(error)) {
				return undefined;
			}
			throw error;
		}
	}

	async readFile(path: string): Promise<Uint8Array> {
		return vscode.workspace.fs.readFile(vscode.Uri.file(path));
	}

	/** Symlinks are 'other', so walkers never follow them out of the workspace or in circles. */
	async readDirectory(path: string): Promise<readonly { readonly name: string; readonly type: FileStat['type'] }[]> {
		const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.file(path));
		return entries.map(([name, type]) => ({ name, type: type & vscode.FileType.SymbolicLink ? 'other' : typeOf(type) }));
	}

	realPath(path: string): Promise<string | undefined> {
		return realPathOnDisk(path);
	}
}

/** How often replace() tries to save before it reports the edit unsaved, and the pause before the next try (times the try). */
const SAVE_ATTEMPTS = 3;
const SAVE_RETRY_PAUSE_MS = 250;

export class VsCodeDocumentWriter implements DocumentWriter {
	async readText(path: string): Promise<string | undefined> {
		const uri = vscode.Uri.file(path);
		const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
		if (open) {
			return open.getText();
		}
		let bytes: Uint8Array;
		try {
			bytes = await vscode.workspace.fs.readFile(uri);
		} catch (error) {
			if (isMissing(error)) {
				return undefined;
			}
			throw error;
		}
		// Not UTF-8: VS Code's own decoding (files.encoding, guessing), which replace() saves with.
		return decodeUtf8(bytes) ?? (await vscode.workspace.openTextDocument(uri)).getText();
	}

	async replace(path: string, text: string, expected?: string): Promise<void> {
		const uri = vscode.Uri.file(path);
		const document = await vscode.workspace.openTextDocument(uri);
		// The stale-write guard's last look, right before the edit: VS Code refuses a WorkspaceEdit
		// made against an older version of the document, so nothing typed since can be lost.
		if (expected !== undefined && document.getText() !== expected) {
			throw new StaleTextError(path);
		}
		const end = document.lineAt(document.lineCount - 1).range.end;
		const edit = new vscode.WorkspaceEdit();
		edit.replace(uri, new vscode.Range(new vscode.Position(0, 0), end), text);
		if (!(await vscode.workspace.applyEdit(edit))) {
			throw new Error(`VS Code did not apply the edit to ${path}.`);
		}
		// VS Code gives up on a save now and then when the extension host is busy (its will-save
		// participants time out after 1.75 s); moments later the same save goes through.
		for (let attempt = 1; !(await document.save()); attempt++) {
			if (!document.isDirty) {
				// Saved after all (a save of its own by VS Code or the person raced this one).
				return;
			}
			if (attempt === SAVE_ATTEMPTS) {
				throw new Error(`The edit was made but VS Code could not save ${path} (${SAVE_ATTEMPTS} attempts); the change is in the editor, unsaved.`);
			}
			await new Promise((resolve) => setTimeout(resolve, SAVE_RETRY_PAUSE_MS * attempt));
		}
	}

	async create(path: string, text: string): Promise<void> {
		const edit = new vscode.WorkspaceEdit();
		// Written to disk by VS Code's file service, which also creates missing parent folders.
		edit.createFile(vscode.Uri.file(path), { overwrite: false, ignoreIfExists: false, contents: new TextEncoder().encode(text) });
		if (!(await vscode.workspace.applyEdit(edit))) {
			throw new Error(`VS Code could not create ${path} (does it exist already?).`);
		}
	}

	async delete(path: string, expected: string): Promise<void> {
		// The same last look as replace(): the editor's text (unsaved changes included) must still be
		// the text the change was planned against.
		if ((await this.readText(path)) !== expected) {
			throw new StaleTextError(path);
		}
		const edit = new vscode.WorkspaceEdit();
		edit.deleteFile(vscode.Uri.file(path), { ignoreIfNotExists: false });
		if (!(await vscode.workspace.applyEdit(edit))) {
			throw new Error(`VS Code could not delete ${path}.`);
		}
	}
}

/** Local workspace folders, as tools see them. */
export function workspaceRoots(): string[] {
	return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
}

/** Builds a ToolContext per tool call; the folders are read each time, as they can change. */
export class VsCodeToolHost {
	private readonly runner = new NodeCommandRunner();

	private constructor(
		readonly fs: WorkspaceFs,
		private readonly writer: DocumentWriter,
		private readonly search: TextSearch,
		private readonly outputs: KeptOutputs | undefined,
	) {}

	/** `outputs`: where outputs too big for the context are kept whole for Read (keptOutputs.ts). */
	static async create(log?: Logger, outputs?: KeptOutputs): Promise<VsCodeToolHost> {
		const fs = new VsCodeWorkspaceFs();
		return new VsCodeToolHost(fs, new VsCodeDocumentWriter(), await createTextSearch(fs, log), outputs);
	}

	/** `seen`: the current chat's stale-write guard. */
	contextFor(signal: AbortSignal, seen: SeenFiles): ToolContext {
		const kept = this.outputs ? { outputs: this.outputs } : {};
		return { roots: workspaceRoots(), fs: this.fs, writer: this.writer, runner: this.runner, search: this.search, seen, signal, ...kept };
	}
}
