// Glob: files whose path matches a glob pattern, walked through WorkspaceFs.
import * as nodePath from 'node:path';
import picomatch from 'picomatch';
import * as z from 'zod';
import { ToolError } from './errors';
import { displayPath, resolveInWorkspace } from './paths';
import { plural } from '../base/words';
import { type Tool, touchesNothing } from './tool';
import { skippedFoldersFor, walkFiles } from './walk';

export const GLOB_MAX_RESULTS = 500;
export const GLOB_MAX_ENTRIES = 200_000;

const input = z.object({
	pattern: z.string().min(1).describe('A glob relative to path, e.g. `**/*.ts`, `src/**/test_*.py`, `*.{json,yaml}`. `*` stays within one folder; `**` crosses folders.'),
	path: z.string().optional().describe('The folder to search from: relative to the workspace folder, or absolute inside it. Default: the workspace folder.'),
});

export const globTool: Tool<z.infer<typeof input>> = {
	name: 'Glob',
	description:
		`Finds files whose path (relative to path) matches a glob pattern and returns them sorted by path, at most ${GLOB_MAX_RESULTS}. ` +
		'Hidden files are included; .git and node_modules folders are skipped unless the pattern names them. Use Grep to search file contents.',
	kind: 'read',
	input,
	touches: touchesNothing,
	async run({ pattern: rawPattern, path = '.' }, context) {
		const pattern = rawPattern.replace(/^(\.\/)+/, '');
		if (nodePath.isAbsolute(pattern) || /^[A-Za-z]:/.test(pattern)) {
			throw new ToolError(`The pattern ${pattern} is absolute; patterns are relative to path (put the folder in path).`);
		}
		if (pattern.split('/').includes('..')) {
			throw new ToolError(`The pattern ${pattern} contains "..": patterns cannot leave path (set path to the folder instead).`);
		}
		const base = await resolveInWorkspace(path, context.roots, context.fs);
		const shownBase = displayPath(base, context.roots);
		const stat = await context.fs.stat(base);
		if (stat?.type !== 'directory') {
			throw new ToolError(stat ? `${shownBase} is a file, not a folder.` : `Folder not found: ${shownBase}.`);
		}
		// Start at the pattern's literal prefix (`src` for `src/**/*.ts`) rather than walking everything.
		const scan = picomatch.scan(pattern);
		const prefix = scan.isGlob ? scan.base : nodePath.posix.dirname(pattern) === '.' ? '' : nodePath.posix.dirname(pattern);
		const lexicalStart = nodePath.join(base, ...prefix.split('/').filter((part) => part !== ''));
		const start = await resolveInWorkspace(lexicalStart, context.roots, context.fs);
		const isMatch = picomatch(pattern, { dot: true, windows: false });
		const matches: string[] = [];
		const outcome = (await context.fs.stat(start))?.type === 'directory'
			? await walkFiles(context.fs, start, { signal: context.signal, skip: skippedFoldersFor(pattern), maxEntries: GLOB_MAX_ENTRIES }, (file) => {
				const relative = prefix === '' ? file.relative : `${prefix}/${file.relative}`;
				if (isMatch(relative)) {
					matches.push(displayPath(nodePath.join(lexicalStart, ...file.relative.split('/')), context.roots));
				}
				return true;
			})
			: { complete: true, unreadableFolders: 0 };
		matches.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
		const lines = matches.slice(0, GLOB_MAX_RESULTS);
		if (matches.length === 0) {
			lines.push(`No files match ${pattern}${shownBase === '.' ? '' : ` in ${shownBase}`}.`);
		} else if (matches.length > GLOB_MAX_RESULTS) {
			lines.push(`… and ${plural(matches.length - GLOB_MAX_RESULTS, 'more file')}; narrow the pattern or path.`);
		}
		if (!outcome.complete) {
			lines.push(`The search stopped after ${plural(GLOB_MAX_ENTRIES, 'entry', 'entries')}, so some matches may be missing; narrow the pattern or path.`);
		}
		if (outcome.unreadableFolders > 0) {
			lines.push(`${plural(outcome.unreadableFolders, 'folder')} could not be read.`);
		}
		return { content: lines.join('\n') };
	},
};
