// Grep: lines matching a regular expression, through the TextSearch (ripgrep in VS Code, the
// Node walk as its fallback and in tests).
import * as z from 'zod';
import { ToolError, errorMessage } from './errors';
import { displayPath, resolveInWorkspace } from './paths';
import { plural, truncateChars } from './text';
import type { Tool } from './tool';

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
		`lines longer than ${GREP_MAX_LINE_CHARS} characters are cut. Skips binary files, .git and node_modules (unless glob names them), and usually files that .gitignore lists. Use Read to see a match in context.`,
	kind: 'read',
	input,
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
		const matches = result.matches
			.map((match) => ({ path: displayPath(match.path, context.roots), line: match.line, text: match.text }))
			.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
		if (matches.length === 0) {
			return { content: `No matches for ${pattern} in ${where}${glob === undefined ? '' : ` (files matching ${glob})`}.` };
		}
		const lines = matches.map((match) => `${match.path}:${match.line}: ${truncateChars(match.text.replace(/\r$/, ''), GREP_MAX_LINE_CHARS)}`);
		if (result.truncated) {
			lines.push(`… more matches not shown (stopped at ${plural(matches.length, 'match', 'matches')}); narrow the pattern, path or glob.`);
		}
		return { content: lines.join('\n') };
	},
};
