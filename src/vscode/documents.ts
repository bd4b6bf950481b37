// Editor documents for the edit-diagnostics observer: language servers only check open
// documents (the built-in TypeScript extension only those in an editor tab, unless its
// experimental project diagnostics are on), and diagnostics are keyed by the editor's URI strings.
import * as vscode from 'vscode';
import type { DocumentOpener } from '../agent/editDiagnosticsObserver';

function openDocument(path: string): vscode.TextDocument | undefined {
	const uri = vscode.Uri.file(path).toString();
	return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri);
}

/** The documents a tab shows, as the TypeScript extension counts them: a diff's two sides too. */
function urisOf(tab: vscode.Tab): vscode.Uri[] {
	const input: unknown = tab.input;
	if (input instanceof vscode.TabInputText) {
		return [input.uri];
	}
	return input instanceof vscode.TabInputTextDiff ? [input.original, input.modified] : [];
}

export const vscodeDocuments: DocumentOpener = {
	uriOf: (path) => vscode.Uri.file(path).toString(),
	isOpen: (path) => openDocument(path) !== undefined,
	open: async (path) => {
		await vscode.workspace.openTextDocument(vscode.Uri.file(path));
	},
	isShown: (path) => {
		const uri = vscode.Uri.file(path).toString();
		return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => urisOf(tab).some((shown) => shown.toString() === uri)));
	},
	show: async (path) => {
		const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
		// A preview tab (the next one Aside shows replaces it, unless the edit pinned it), and the
		// person keeps typing where they were.
		await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true });
	},
	hasDiagnostics: (path) => vscode.languages.getDiagnostics(vscode.Uri.file(path)).length > 0,
	lineCount: (path) => openDocument(path)?.lineCount,
};
