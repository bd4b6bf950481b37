// The root instruction files of the workspace folders, for the roster's `workspace.instructions`
// observation: every kind `aside.instructions.files` names, broad to specific, each capped. Small
// synchronous reads (the roster runs at WAIT). Path-scoped `.instructions.md` files are left to
// the Read observer (instructionFiles.ts); a malformed one is skipped and told of once.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import type { InstructionFile } from '../reminders/builtin/workspaceInstructions';
import { type InstructionKind, type MalformedInstructions, isScopedFile, rootInstructionPaths, scopedBody, scopeOf } from './instructionSources';

export const MAX_ROOT_INSTRUCTION_BYTES = 64 * 1024;

/** What a file gave when last read, by path and shown path: reused while its size and mtime stay the same. */
export type RootInstructionsCache = Map<string, { readonly size: number; readonly mtimeMs: number; readonly file: InstructionFile | undefined; readonly malformed?: string }>;

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

/**
 * Every root instruction file of `folders` for these kinds, in order. With a `cache` kept between
 * calls (one per window), an unchanged file is not read or parsed again.
 */
export function readRootInstructionFiles(
	folders: readonly RootFolder[],
	kinds: readonly InstructionKind[],
	malformed: MalformedInstructions,
	maxBytes = MAX_ROOT_INSTRUCTION_BYTES,
	cache: RootInstructionsCache = new Map(),
): InstructionFile[] {
	const files: InstructionFile[] = [];
	for (const folder of folders) {
		for (const path of rootInstructionPaths(folder.path, kinds)) {
			const relative = nodePath.relative(folder.path, path).split(nodePath.sep).join('/');
			const shown = folders.length > 1 ? `${folder.name}/${relative}` : relative;
			let stat: { size: number; mtimeMs: number };
			try {
				stat = statSync(path);
			} catch {
				continue;
			}
			// By the path shown too: a folder added or removed changes it.
			const key = `${path}\0${shown}`;
			let known = cache.get(key);
			if (known?.size !== stat.size || known.mtimeMs !== stat.mtimeMs) {
				known = { size: stat.size, mtimeMs: stat.mtimeMs, ...readOne(path, shown, isScopedFile(path, folder.path), maxBytes) };
				cache.set(key, known);
			}
			if (known.malformed !== undefined) {
				malformed.note(shown, known.malformed);
			} else if (known.file) {
				files.push(known.file);
			}
		}
	}
	return files;
}

function readOne(path: string, shown: string, scoped: boolean, maxBytes: number): { readonly file: InstructionFile | undefined; readonly malformed?: string } {
	const read = readCapped(path, maxBytes);
	if (!read) {
		return { file: undefined };
	}
	let text = read.text;
	if (scoped) {
		const scope = scopeOf(text);
		if (scope.kind === 'malformed') {
			return { file: undefined, malformed: scope.reason };
		}
		if (scope.kind === 'paths') {
			// The Read observer's (instructionFiles.ts).
			return { file: undefined };
		}
		text = scopedBody(text);
	}
	return { file: text.trim() === '' ? undefined : { path: shown, text, truncated: read.truncated } };
}
