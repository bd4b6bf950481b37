// Grep: lines matching a regular expression, through the TextSearch (ripgrep in VS Code, the
// Node walk as its fallback and in tests).
import * as z from 'zod';
import { errorMessage } from '../base/errors';
import { ToolError } from './errors';
import { displayPath, resolveInWorkspace } from './paths';
import { plural } from '../base/words';
import { formatBytes, truncateChars } from './text';
import { type TextSearchResult, type Tool, touchesNothing } from './tool';
import { SEARCH_MAX_FILE_BYTES } from './walk';

export const GREP_MAX_RESULTS = 250;
export const GREP_MAX_LINE_CHARS = 300;

const input = z.object({
	pattern: z.string().min(1).describe('A regular expression (ripgrep syntax, close to JavaScript\'s). Escape special characters to match them literally, e.g. `foo\\(`.'),
	path: z.string().optional().describe('A file or folder to search in: relative to the workspace folder, or absolute inside it. Default: every workspace folder.'),
	glob: z.string().optional().describe('Only search files matching this glob, e.g. `*.ts` (matched against the file name) or `src/**/*.ts` (against the path).'),
	caseSensitive: z.boolean().optional().describe('Default true. Set false to ignore case.'),
});

export const grepTool: Tool<z.infer<typeof input>> = {
	name: 'Grep',
	description:
		`Searches file contents for a regular expression and returns matching lines as \`path:line: text\`, sorted by path and line, at most ${GREP_MAX_RESULTS}; ` +
		`lines longer than ${GREP_MAX_LINE_CHARS} characters are cut. Skips binary files, files over ${formatBytes(SEARCH_MAX_FILE_BYTES)}, .git and node_modules (unless glob names them), and usually files that .gitignore lists; ` +
		'says which files it could not search and when a search was cut short. Use Read to see a match in context.',
	kind: 'read',
	input,
	touches: touchesNothing,
	async run({ pattern, path, glob, caseSensitive = true }, context) {
		try {
			new RegExp(pattern, caseSensitive ? '' : 'i');
		} catch (error) {
			throw new ToolError(`Invalid regular expression ${pattern}: ${errorMessage(error).replace(/^Invalid regular expression: \/.*\/\w*: /, '')}`);
		}
		let roots = context.roots;
		let where = 'the workspace';
		if (path !== undefined) {
			const absolute = await resolveInWorkspace(path, context.roots, context.fs);
			where = displayPath(absolute, context.roots);
			if (!(await context.fs.stat(absolute))) {
				throw new ToolError(`Not found: ${where}.`);
			}
			roots = [absolute];
		}
		const result = await context.search.search(pattern, { roots, glob, caseSensitive, maxResults: GREP_MAX_RESULTS, signal: context.signal });
		const notes = searchNotes(result, result.matches.length > 0, (absolute) => displayPath(absolute, context.roots));
		const matches = result.matches
			.map((match) => ({ path: displayPath(match.path, context.roots), line: match.line, text: match.text }))
			.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
		if (matches.length === 0) {
			return { content: [`No matches for ${pattern} in ${where}${glob === undefined ? '' : ` (files matching ${glob})`}.`, ...notes].join('\n') };
		}
		const lines = matches.map((match) => `${match.path}:${match.line}: ${truncateChars(match.text.replace(/\r$/, ''), GREP_MAX_LINE_CHARS)}`);
		if (result.truncated) {
			lines.push(`… more matches not shown (stopped at ${plural(matches.length, 'match', 'matches')}); narrow the pattern, path or glob.`);
		}
		return { content: [...lines, ...notes].join('\n') };
	},
};

function named(paths: readonly string[], count: number, shown: (absolute: string) => string): string {
	return `(${paths.map(shown).join(', ')}${count > paths.length ? ', …' : ''})`;
}

/**
 * What the search did not cover, in words, one line per kind: files it skipped (binary ones only
 * when nothing matched: skipping them is what a code search does, and with matches they are
 * noise), and why it stopped early.
 */
function searchNotes(result: TextSearchResult, matched: boolean, shown: (absolute: string) => string): string[] {
	const notes: string[] = [];
	const { tooLarge, unreadable, unlistedFolders = 0, binary = 0 } = result.skipped ?? {};
	const skipped: string[] = [];
	if (tooLarge) {
		skipped.push(`${plural(tooLarge.count, 'file')} over ${formatBytes(SEARCH_MAX_FILE_BYTES)} ${named(tooLarge.paths, tooLarge.count, shown)}`);
	}
	if (unreadable) {
		skipped.push(`${plural(unreadable.count, 'unreadable file')} ${named(unreadable.paths, unreadable.count, shown)}`);
	}
	if (unlistedFolders > 0) {
		skipped.push(`${plural(unlistedFolders, 'folder')} that could not be listed`);
	}
	if (binary > 0 && !matched) {
		skipped.push(plural(binary, 'binary or non-UTF-8 file'));
	}
	if (skipped.length > 0) {
		notes.push(`Not searched: ${skipped.join('; ')}.`);
	}
	const cut = result.cutShort;
	if (cut?.reason === 'time-budget') {
		notes.push(
			`The search stopped when its ${cut.budgetMs / 1000} s time budget ran out${cut.searching === undefined ? '' : `, while it was searching ${shown(cut.searching)}`}; the files after it were not searched. ` +
				'Without ripgrep, Grep runs a JavaScript regular expression, and nested repetition such as (a+)+ can make one line take that long: simplify the pattern or narrow the path.',
		);
	} else if (cut?.reason === 'entry-limit') {
		notes.push(`The search stopped after ${plural(cut.limit, 'file and folder', 'files and folders')}, before it had covered every file; narrow the path or glob.`);
	} else if (cut?.reason === 'cancelled') {
		notes.push('The search was stopped before it finished.');
	}
	return notes;
}
