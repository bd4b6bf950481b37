// A depth-first walk over the files under one folder, shared by Glob and the Node text search.
// Symlinked folders are reported as 'other' by WorkspaceFs and so never entered: no cycles, and
// no way out of the workspace.
import * as nodePath from 'node:path';
import type { WorkspaceFs } from './tool';

/** Larger files are not searched (by ripgrep's --max-filesize, and by the Node search), as Read refuses them. */
export const SEARCH_MAX_FILE_BYTES = 50 * 1024 * 1024;

/** Folders no one means to search unless they name them. */
export const SKIPPED_FOLDERS: readonly string[] = ['.git', 'node_modules'];

/** The skipped folder names that `pattern` does not mention. */
export function skippedFoldersFor(pattern: string | undefined): ReadonlySet<string> {
	return new Set(SKIPPED_FOLDERS.filter((name) => pattern?.includes(name) !== true));
}

export interface WalkedFile {
	readonly absolute: string;
	/** Relative to the walk's start, with `/` separators. */
	readonly relative: string;
}

export interface WalkOptions {
	readonly signal: AbortSignal;
	readonly skip: ReadonlySet<string>;
	/** Stop after visiting this many entries (files and folders). */
	readonly maxEntries: number;
}

export interface WalkOutcome {
	/** False when the walk stopped early: the visitor asked, the entry cap, or the signal. */
	readonly complete: boolean;
	readonly unreadableFolders: number;
}

/** Calls `visit` for every file under `start` in name order; `visit` returns false to stop. */
export async function walkFiles(
	fs: WorkspaceFs,
	start: string,
	options: WalkOptions,
	visit: (file: WalkedFile) => boolean | Promise<boolean>,
): Promise<WalkOutcome> {
	const stack: { absolute: string; relative: string }[] = [{ absolute: start, relative: '' }];
	let visited = 0;
	let unreadableFolders = 0;
	while (stack.length > 0) {
		const folder = stack.pop();
		if (folder === undefined || options.signal.aborted) {
			return { complete: false, unreadableFolders };
		}
		let entries;
		try {
			entries = await fs.readDirectory(folder.absolute);
		} catch {
			unreadableFolders++;
			continue;
		}
		const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		const subfolders: { absolute: string; relative: string }[] = [];
		for (const entry of sorted) {
			if (++visited > options.maxEntries) {
				return { complete: false, unreadableFolders };
			}
			const absolute = nodePath.join(folder.absolute, entry.name);
			const relative = folder.relative === '' ? entry.name : `${folder.relative}/${entry.name}`;
			if (entry.type === 'directory') {
				if (!options.skip.has(entry.name)) {
					subfolders.push({ absolute, relative });
				}
			} else if (entry.type === 'file' && !(await visit({ absolute, relative }))) {
				return { complete: false, unreadableFolders };
			}
		}
		// Reversed so the stack pops them in name order.
		stack.push(...subfolders.reverse());
	}
	return { complete: true, unreadableFolders };
}
