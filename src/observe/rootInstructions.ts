// The root instruction files of the workspace folders, for the roster's `workspace.instructions`
// observation: every kind `aside.instructions.files` names, broad to specific, each capped. Small
// synchronous reads (the roster runs at WAIT). Path-scoped `.instructions.md` files are left to
// the Read observer (instructionFiles.ts); a malformed one is skipped and told of once.
import { closeSync, openSync, readSync } from 'node:fs';
import * as nodePath from 'node:path';
import type { InstructionFile } from '../reminders/builtin/workspaceInstructions';
import { type InstructionKind, type MalformedInstructions, isScopedFile, rootInstructionPaths, scopedBody, scopeOf } from './instructionSources';

export const MAX_ROOT_INSTRUCTION_BYTES = 64 * 1024;

export interface RootFolder {
	/** Absolute. */
	readonly path: string;
	/** The workspace folder's name, which prefixes paths when there are several. */
	readonly name: string;
}

function readCapped(path: string, maxBytes: number): { text: string; truncated: boolean } | undefined {
	let fd: number;
	try {
		fd = openSync(path, 'r');
	} catch {
		return undefined;
	}
	try {
		const buffer = Buffer.alloc(maxBytes + 1);
		const length = readSync(fd, buffer, 0, buffer.length, 0);
		const truncated = length > maxBytes;
		return { text: buffer.toString('utf8', 0, Math.min(length, maxBytes)), truncated };
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
	}
}

export function readRootInstructionFiles(folders: readonly RootFolder[], kinds: readonly InstructionKind[], malformed: MalformedInstructions, maxBytes = MAX_ROOT_INSTRUCTION_BYTES): InstructionFile[] {
	const files: InstructionFile[] = [];
	for (const folder of folders) {
		for (const path of rootInstructionPaths(folder.path, kinds)) {
			const relative = nodePath.relative(folder.path, path).split(nodePath.sep).join('/');
			const shown = folders.length > 1 ? `${folder.name}/${relative}` : relative;
			const read = readCapped(path, maxBytes);
			if (!read) {
				continue;
			}
			let text = read.text;
			if (isScopedFile(path, folder.path)) {
				const scope = scopeOf(text);
				if (scope.kind === 'malformed') {
					malformed.note(shown, scope.reason);
					continue;
				}
				if (scope.kind === 'paths') {
					continue;
				}
				text = scopedBody(text);
			}
			if (text.trim() !== '') {
				files.push({ path: shown, text, truncated: read.truncated });
			}
		}
	}
	return files;
}
