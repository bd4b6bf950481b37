// A TextSearch that walks the folders through WorkspaceFs and tests each line with a JavaScript
// RegExp. The extension's fallback when VS Code's ripgrep cannot be found, and the search in
// unit tests. Slower than ripgrep and ignorant of .gitignore; it skips .git and node_modules.
import picomatch from 'picomatch';
import { classifyBytes, splitLines } from './text';
import type { TextSearch, TextSearchMatch, WorkspaceFs } from './tool';
import { skippedFoldersFor, walkFiles } from './walk';

/** Larger files are skipped, like Read refuses them. */
const MAX_FILE_BYTES = 50 * 1024 * 1024;
const MAX_ENTRIES = 500_000;

export class NodeTextSearch implements TextSearch {
	constructor(private readonly fs: WorkspaceFs) {}

	async search(
		pattern: string,
		options: { readonly roots: readonly string[]; readonly glob?: string; readonly caseSensitive: boolean; readonly maxResults: number; readonly signal: AbortSignal },
	): Promise<{ readonly matches: readonly TextSearchMatch[]; readonly truncated: boolean }> {
		const { roots, glob, caseSensitive, maxResults, signal } = options;
		const regex = new RegExp(pattern, caseSensitive ? '' : 'i');
		// Like ripgrep's --glob: a glob without `/` matches the file name at any depth.
		const globMatcher = glob === undefined ? undefined : picomatch(glob, { dot: true, windows: false });
		const byName = glob?.includes('/') !== true;
		const inGlob = (relative: string) => globMatcher === undefined || globMatcher(byName ? relative.slice(relative.lastIndexOf('/') + 1) : relative);
		const matches: TextSearchMatch[] = [];
		// An object, so the check after the awaits below sees what searchFile set.
		const state = { truncated: false };

		const searchFile = async (path: string): Promise<boolean> => {
			const stat = await this.fs.stat(path);
			if (stat?.type !== 'file' || stat.size > MAX_FILE_BYTES) {
				return true;
			}
			const bytes = await this.fs.readFile(path).catch(() => undefined);
			if (bytes === undefined || classifyBytes(bytes) !== 'text') {
				return true;
			}
			const lines = splitLines(new TextDecoder().decode(bytes));
			for (const [index, text] of lines.entries()) {
				if (regex.test(text)) {
					if (matches.length === maxResults) {
						state.truncated = true;
						return false;
					}
					matches.push({ path, line: index + 1, text });
				}
			}
			return true;
		};

		for (const root of roots) {
			if (signal.aborted || state.truncated) {
				break;
			}
			const stat = await this.fs.stat(root);
			if (stat?.type === 'file') {
				await searchFile(root);
			} else if (stat?.type === 'directory') {
				await walkFiles(this.fs, root, { signal, skip: skippedFoldersFor(glob), maxEntries: MAX_ENTRIES }, (file) => (inGlob(file.relative) ? searchFile(file.absolute) : true));
			}
		}
		return { matches, truncated: state.truncated };
	}
}
