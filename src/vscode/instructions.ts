// Reads the root instruction files of each workspace folder (every kind `aside.instructions.files`
// names) for the workspace.instructions reminder; a malformed `.instructions.md` is named once in
// the log and in a warning.
import * as vscode from 'vscode';
import type { Logger } from '../base/log';
import { type InstructionKind, MalformedInstructions } from '../observe/instructionSources';
import { readRootInstructionFiles, type RootInstructionsCache } from '../observe/rootInstructions';
import type { InstructionFile } from '../reminders/builtin/workspaceInstructions';

const notices = new WeakMap<Logger, MalformedInstructions>();

/** One per window's log: the roster's reader and the Read observer tell of a malformed file once between them. */
export function malformedInstructionsNotice(log: Logger): MalformedInstructions {
	let notice = notices.get(log);
	if (!notice) {
		notice = new MalformedInstructions((message) => {
			log.warn(message);
			void vscode.window.showWarningMessage(message);
		});
		notices.set(log, notice);
	}
	return notice;
}

export function rootInstructionsReader(kinds: () => readonly InstructionKind[], malformed: MalformedInstructions): () => InstructionFile[] {
	const cache: RootInstructionsCache = new Map();
	return () => {
		const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => ({ path: folder.uri.fsPath, name: folder.name }));
		return readRootInstructionFiles(folders, kinds(), malformed, undefined, cache);
	};
}
