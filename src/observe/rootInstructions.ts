// The root instruction files of the workspace folders, for the roster's `workspace.instructions`
// observation: the person's own `~/.claude/CLAUDE.md` first, then every kind
// `aside.instructions.files` names, broad to specific, each capped. Small synchronous reads (the
// roster runs at WAIT). Path-scoped `.instructions.md` and Cursor rules are left to the Read
// observer (instructionFiles.ts); Cursor rules the model may ask for are listed; a malformed one is
// skipped and told of once. A workspace file whose real path is outside every workspace folder (a
// symlink out) is not read, and named.
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import type { InstructionFile } from '../reminders/builtin/workspaceInstructions';
import { isInside } from '../tools/paths';
import { scopedBody } from './instructionScope';
import { type InstructionKind, type MalformedInstructions, rootInstructionPaths, type ScopedSource, scopedSourceOf } from './instructionSources';
import type { UserInstructionFile } from './userInstructions';

export const MAX_ROOT_INSTRUCTION_BYTES = 64 * 1024;

/** What a file gave when last read, by path and shown path: reused while its size and mtime stay the same. */
export type RootInstructionsCache = Map<string, { readonly size: number; readonly mtimeMs: number } & ReadOne>;

export interface RequestedRule {
	readonly path: string;
	readonly description: string;
}

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

export interface RootInstructionsOptions {
	readonly maxFileBytes?: number;
	/** Kept between calls (one per window): an unchanged file is not read or parsed again. */
	readonly cache?: RootInstructionsCache;
	/** The person's own memory file, read first when the `CLAUDE.md` kind is on, in every workspace (it is theirs). */
	readonly user?: UserInstructionFile;
}

export interface RootInstructions {
	/** In order, broad to specific. */
	readonly files: InstructionFile[];
	/** Files that lead outside every workspace folder: not read. Shown path and where it leads. */
	readonly outside: readonly { readonly shown: string; readonly real: string }[];
	/** Rules given only when the model asks (Cursor's "agent requested"), by shown path, in order. */
	readonly requested: readonly RequestedRule[];
}

function realOf(path: string): string | undefined {
	try {
		return realpathSync(path);
	} catch {
		return undefined;
	}
}

/** Every root instruction file of `folders` for these kinds, in order, and those skipped because they lead outside. */
export function readRootInstructions(
	folders: readonly RootFolder[],
	kinds: readonly InstructionKind[],
	malformed: MalformedInstructions,
	options: RootInstructionsOptions = {},
): RootInstructions {
	const maxFileBytes = options.maxFileBytes ?? MAX_ROOT_INSTRUCTION_BYTES;
	const cache: RootInstructionsCache = options.cache ?? (new Map() as RootInstructionsCache);
	const files: InstructionFile[] = [];
	const outside: { shown: string; real: string }[] = [];
	const requested: RequestedRule[] = [];
	const take = (path: string, shown: string, source: ScopedSource | undefined, personal = false) => {
		let stat: { size: number; mtimeMs: number };
		try {
			stat = statSync(path);
		} catch {
			return;
		}
		// By the path shown too: a folder added or removed changes it.
		const key = `${path}\0${shown}`;
		let known = cache.get(key);
		if (known?.size !== stat.size || known.mtimeMs !== stat.mtimeMs) {
			known = { size: stat.size, mtimeMs: stat.mtimeMs, ...readOne(path, shown, source, maxFileBytes, personal) };
			cache.set(key, known);
		}
		if (known.malformed !== undefined) {
			malformed.note(shown, known.malformed);
		} else if (known.requested !== undefined) {
			requested.push({ path: shown, description: known.requested });
		} else if (known.file) {
			files.push(known.file);
		}
	};
	// Symlinked or not: it is the person's, not the workspace's.
	if (options.user && kinds.includes('CLAUDE.md')) {
		take(options.user.path, options.user.shown, undefined, true);
	}
	const realRoots = folders.map((folder) => realOf(folder.path) ?? folder.path);
	for (const folder of folders) {
		for (const path of rootInstructionPaths(folder.path, kinds)) {
			const relative = nodePath.relative(folder.path, path).split(nodePath.sep).join('/');
			const shown = folders.length > 1 ? `${folder.name}/${relative}` : relative;
			// Checked at every read, before the cache: a link can be pointed elsewhere at any time.
			const real = realOf(path);
			if (real === undefined) {
				continue;
			}
			if (!realRoots.some((root) => isInside(real, root))) {
				outside.push({ shown, real });
				continue;
			}
			take(real, shown, scopedSourceOf(path, folder.path));
		}
	}
	return { files, outside, requested };
}

/** What the person is told of the files that lead outside the workspace; undefined when none do. */
export function outsideNotice(outside: RootInstructions['outside']): string | undefined {
	if (outside.length === 0) {
		return undefined;
	}
	const named = outside.map(({ shown, real }) => `${shown} (to ${real})`).join(', ');
	return `Instruction files not given to the model: ${named} ${outside.length === 1 ? 'leads' : 'lead'} outside the workspace folders. Aside gives only files inside them; copy the text into the workspace to use it.`;
}

interface ReadOne {
	readonly file: InstructionFile | undefined;
	readonly malformed?: string;
	/** A Cursor rule given on request: its description. */
	readonly requested?: string;
}

function readOne(path: string, shown: string, source: ScopedSource | undefined, maxBytes: number, personal: boolean): ReadOne {
	const read = readCapped(path, maxBytes);
	if (!read) {
		return { file: undefined };
	}
	let text = read.text;
	if (source) {
		const scope = source.scopeOf(text);
		switch (scope.kind) {
			case 'malformed':
				return { file: undefined, malformed: scope.reason };
			case 'requested':
				return { file: undefined, requested: scope.description };
			// Path-scoped: the Read observer's (instructionFiles.ts). Manual: only what a person attaches.
			case 'paths':
			case 'manual':
				return { file: undefined };
			case 'root':
				text = scopedBody(text);
		}
	}
	return { file: text.trim() === '' ? undefined : { path: shown, text, truncated: read.truncated, ...(personal ? { personal } : {}) } };
}
