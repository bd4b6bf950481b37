// Reads the root AGENTS.md / AGENTS.local.md of each workspace folder for the
// workspace.instructions reminder: small synchronous reads (it runs at WAIT), capped.
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { InstructionFile } from '../reminders/builtin/workspaceInstructions';

const NAMES = ['AGENTS.md', 'AGENTS.local.md'];
const MAX_BYTES = 64 * 1024;

function readCapped(path: string): { text: string; truncated: boolean } | undefined {
	let fd: number;
	try {
		fd = openSync(path, 'r');
	} catch {
		return undefined;
	}
	try {
		const buffer = Buffer.alloc(MAX_BYTES + 1);
		const length = readSync(fd, buffer, 0, buffer.length, 0);
		const truncated = length > MAX_BYTES;
		return { text: buffer.toString('utf8', 0, Math.min(length, MAX_BYTES)), truncated };
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
	}
}

export function readRootInstructions(): InstructionFile[] {
	const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
	const files: InstructionFile[] = [];
	for (const folder of folders) {
		for (const name of NAMES) {
			const read = readCapped(join(folder.uri.fsPath, name));
			if (read && read.text.trim() !== '') {
				files.push({ path: folders.length > 1 ? `${folder.name}/${name}` : name, ...read });
			}
		}
	}
	return files;
}
