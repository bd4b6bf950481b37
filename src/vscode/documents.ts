// Editor documents for the edit-diagnostics observer: language servers only check open
// documents, and diagnostics are keyed by the editor's URI strings.
import * as vscode from 'vscode';
import type { DocumentOpener } from '../agent/observers';

export const vscodeDocuments: DocumentOpener = {
	uriOf: (path) => vscode.Uri.file(path).toString(),
	isOpen: (path) => {
		const uri = vscode.Uri.file(path).toString();
		return vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri);
	},
	hasDiagnostics: (path) => vscode.languages.getDiagnostics(vscode.Uri.file(path)).length > 0,
	open: async (path) => {
		await vscode.workspace.openTextDocument(vscode.Uri.file(path));
	},
};
