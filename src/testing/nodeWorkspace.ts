// The tool interfaces over the real file system, for unit tests: plain fs reads and writes, no
// editor. The runner and the search are the ones the extension itself uses.
import { constants, promises as fsp } from 'node:fs';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { SeenTexts } from '../observe/seenTexts';
import { NodeTextSearch } from '../tools/nodeSearch';
import { NodeCommandRunner } from '../tools/nodeRunner';
import { StaleTextError } from '../tools/staleWrite';
import { decodeUtf8 } from '../tools/text';
import type { DocumentWriter, FileStat, SeenFiles, ToolContext, WorkspaceFs } from '../tools/tool';

export { NodeCommandRunner } from '../tools/nodeRunner';
export { NodeTextSearch } from '../tools/nodeSearch';

function isMissing(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}

function typeOf(stats: { isFile(): boolean; isDirectory(): boolean }): FileStat['type'] {
	return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
}

export class NodeWorkspaceFs implements WorkspaceFs {
	async stat(path: string): Promise<FileStat | undefined> {
		try {
			const stats = await fsp.stat(path);
			return { type: typeOf(stats), size: stats.size, mtimeMs: stats.mtimeMs, nlink: stats.nlink };
		} catch (error) {
			if (isMissing(error)) {
				return undefined;
			}
			throw error;
		}
	}

	async readFile(path: string): Promise<Uint8Array> {
		return fsp.readFile(path);
	}

	/** Symlinks are 'other', as walkers must not follow them (ripgrep does not either). */
	async readDirectory(path: string): Promise<readonly { readonly name: string; readonly type: FileStat['type'] }[]> {
		const entries = await fsp.readdir(path, { withFileTypes: true });
		return entries.map((entry) => ({ name: entry.name, type: typeOf(entry) }));
	}

	async realPath(path: string): Promise<string | undefined> {
		try {
			return await fsp.realpath(path);
		} catch (error) {
			if (isMissing(error)) {
				return undefined;
			}
			throw error;
		}
	}
}

export class NodeDocumentWriter implements DocumentWriter {
	async readText(path: string): Promise<string | undefined> {
		let bytes: Uint8Array;
		try {
			bytes = await fsp.readFile(path);
		} catch (error) {
			if (isMissing(error)) {
				return undefined;
			}
			throw error;
		}
		const text = decodeUtf8(bytes);
		if (text === undefined) {
			throw new Error(`${path} is not valid UTF-8.`);
		}
		return text;
	}

	async replace(path: string, text: string, expected?: string): Promise<void> {
		await fsp.access(path, constants.F_OK);
		if (expected !== undefined && (await this.readText(path)) !== expected) {
			throw new StaleTextError(path);
		}
		await fsp.writeFile(path, text);
	}

	async create(path: string, text: string): Promise<void> {
		await fsp.mkdir(nodePath.dirname(path), { recursive: true });
		// `wx`: never overwrite, and never write through a symlink.
		await fsp.writeFile(path, text, { flag: 'wx' });
	}

	async delete(path: string, expected: string): Promise<void> {
		if ((await this.readText(path)) !== expected) {
			throw new StaleTextError(path);
		}
		await fsp.unlink(path);
	}
}

/** A ToolContext over real folders, with the Node runner and search, and a chat's stale-write guard. */
export function nodeToolContext(roots: readonly string[], signal: AbortSignal = new AbortController().signal, seen: SeenFiles = new SeenTexts()): ToolContext {
	const fs = new NodeWorkspaceFs();
	return { roots, fs, writer: new NodeDocumentWriter(), runner: new NodeCommandRunner(), search: new NodeTextSearch(fs), seen, signal };
}

/** A fresh temporary folder (its real path, so results compare equal) and a way to remove it. */
export function tempWorkspace(prefix = 'aside-tools-'): { readonly root: string; dispose(): void } {
	const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), prefix)));
	return {
		root,
		dispose() {
			rmSync(root, { recursive: true, force: true });
		},
	};
}
