// A reminder file analysed as the language server analyses it (the same analyzeFolder): with its
// folder's other files, each from its open editor when it has one and from disk otherwise, so
// what the preview decides is what the Problems view shows.
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { analyzeFolder, reminderPathOf } from '../reminderServer/folders';
import type { AnalyzedReminderFile } from '../workspaceReminders/reminderFile';
import type { ReminderVocabulary } from '../workspaceReminders/vocabulary';

/** The file's analysis with its folder, or undefined when it is no `.aside/reminders/*.md` file. */
export async function analyzedReminderFile(uri: vscode.Uri, vocabulary: ReminderVocabulary): Promise<AnalyzedReminderFile | undefined> {
	const path = uri.scheme === 'file' ? reminderPathOf(uri.toString()) : undefined;
	if (path === undefined) {
		return undefined;
	}
	// Opened first, so an unsaved edit of the file itself counts, as the server counts it.
	const target = await vscode.workspace.openTextDocument(uri);
	const open = new Map<string, { readonly uri: string; readonly text: string }>();
	for (const document of [...vscode.workspace.textDocuments, target]) {
		const openPath = document.uri.scheme === 'file' ? reminderPathOf(document.uri.toString()) : undefined;
		if (openPath !== undefined) {
			open.set(openPath, { uri: document.uri.toString(), text: document.getText() });
		}
	}
	return analyzeFolder(dirname(path), open, vocabulary).find((file) => file.path === path)?.parsed;
}
