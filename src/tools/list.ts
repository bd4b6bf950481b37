// List: the entries of one directory, folders marked with a trailing `/`.
import * as z from 'zod';
import { ToolError } from './errors';
import { displayPath, resolveInWorkspace } from './paths';
import { plural } from '../base/words';
import { type Tool, touchesNothing } from './tool';

export const LIST_MAX_ENTRIES = 1000;

const input = z.object({
	path: z.string().optional().describe('The directory to list: relative to the workspace folder, or absolute inside it. Default: the workspace folder.'),
});

export const listTool: Tool<z.infer<typeof input>> = {
	name: 'List',
	description:
		`Lists the entries of one directory (not recursive), sorted by name, one per line; directories end with \`/\`. At most ${LIST_MAX_ENTRIES} entries are shown. ` +
		'Hidden entries and ignored folders such as node_modules are included. Use Glob to find files by pattern across folders.',
	kind: 'read',
	input,
	touches: touchesNothing,
	async run({ path = '.' }, context) {
		const absolute = await resolveInWorkspace(path, context.roots, context.fs);
		const shown = displayPath(absolute, context.roots);
		const stat = await context.fs.stat(absolute);
		if (!stat) {
			throw new ToolError(`Directory not found: ${shown}.`);
		}
		if (stat.type !== 'directory') {
			throw new ToolError(`${shown} is a file, not a directory; use Read to see its contents.`);
		}
		const entries = (await context.fs.readDirectory(absolute))
			.map((entry) => (entry.type === 'directory' ? `${entry.name}/` : entry.name))
			.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
		if (entries.length === 0) {
			return { content: `${shown} is empty.` };
		}
		const shownEntries = entries.slice(0, LIST_MAX_ENTRIES);
		const rest = entries.length - shownEntries.length;
		const lines = rest > 0 ? [...shownEntries, `… and ${plural(rest, 'more entry', 'more entries')} not shown; use Glob to narrow down.`] : shownEntries;
		return { content: lines.join('\n') };
	},
};
