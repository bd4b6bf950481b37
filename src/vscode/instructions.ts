// Reads the person's own `~/.claude/CLAUDE.md` and the root instruction files of each workspace
// folder (every kind `aside.instructions.files` names) for the workspace.instructions reminder,
// within the total bound; a malformed `.instructions.md` or Cursor rule is named once in the log
// and in a warning, and files that lead outside the workspace or past the bound are named in the
// chat, once per change.
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { Logger } from '../base/log';
import { boundFiles, type InstructionBound, leftOutLine, leftOutNotice } from '../observe/instructionBound';
import { type InstructionKind, MalformedInstructions } from '../observe/instructionSources';
import { outsideNotice, readRootInstructions, type RootInstructionsCache } from '../observe/rootInstructions';
import { userInstructionsRead, userMemoryFile } from '../observe/userInstructions';
import { WORKSPACE_INSTRUCTIONS } from '../reminders/builtin/catalog/files';
import type { InstructionReading } from '../reminders/builtin/workspaceInstructions';
import type { ReminderConfig } from '../reminders/config';
import type { Configuration } from './configuration';

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

export interface RootInstructionSettings {
	readonly kinds: () => readonly InstructionKind[];
	readonly bound: () => InstructionBound;
	readonly malformed: MalformedInstructions;
	readonly log: Logger;
	/** Says a sentence in the chat. */
	readonly tell?: (text: string) => void;
}

/** Calls `tell` with a text when it differs from the last one it was given (undefined resets). */
function onceEach(tell: (text: string) => void): (text: string | undefined) => void {
	let last: string | undefined;
	return (text) => {
		if (text !== undefined && text !== last) {
			tell(text);
		}
		last = text;
	};
}

/** The shown names of the person's own instruction files Aside reads now (for the Restricted Mode notice). */
export function userInstructionsShown(configuration: Configuration, reminders: ReminderConfig): () => readonly string[] {
	return () => (reminders.isEnabled(WORKSPACE_INSTRUCTIONS.type) ? userInstructionsRead(
		userMemoryFile(homedir(), process.env),
		configuration.current.instructionFiles,
	) : []);
}

export function rootInstructionsReader({ kinds, bound, malformed, log, tell }: RootInstructionSettings): () => InstructionReading {
	const cache: RootInstructionsCache = new Map();
	const user = userMemoryFile(homedir(), process.env);
	const say = (text: string) => {
		log.warn(`Aside: ${text}`);
		tell?.(text);
	};
	const outside = onceEach(say);
	const leftOut = onceEach(say);
	return () => {
		// Restricted Mode (docs/permissions.md): none of an untrusted workspace's, the person's own still; read again at every WAIT, so trust applies at once.
		const folders = !vscode.workspace.isTrusted ? [] : (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => ({ path: folder.uri.fsPath, name: folder.name }));
		const read = readRootInstructions(folders, kinds(), malformed, { cache, user });
		outside(outsideNotice(read.outside));
		const limits = bound();
		const bounded = boundFiles(read.files, limits);
		leftOut(leftOutNotice(bounded, limits));
		const line = leftOutLine(bounded, limits);
		return { files: bounded.files, requested: read.requested, ...(line === undefined ? {} : { leftOut: line }) };
	};
}
