// Write: creates a new file. Changing an existing one is Edit's job, so a whole file is never
// overwritten by accident — not even one that appeared after the person approved the Write, or
// one only open in the editor.
import * as z from 'zod';
import { unifiedDiff } from './diff';
import { ToolError } from './errors';
import { displayPath, resolveInWorkspace } from './paths';
import { plural, splitLines } from './text';
import type { Tool, ToolContext } from './tool';

const input = z.object({
	path: z.string().min(1).describe('The new file: relative to the workspace folder, or absolute inside it. Missing parent folders are created.'),
	content: z.string().describe('The complete text of the new file.'),
});

type WriteInput = z.infer<typeof input>;

async function planWrite(path: string, context: ToolContext): Promise<{ readonly absolute: string; readonly shown: string }> {
	const absolute = await resolveInWorkspace(path, context.roots, context.fs);
	const shown = displayPath(absolute, context.roots);
	const stat = await context.fs.stat(absolute);
	if (stat) {
		throw new ToolError(
			stat.type === 'directory'
				? `${shown} is an existing directory.`
				: `${shown} already exists. Write only creates new files; use Edit to change an existing file.`,
		);
	}
	// Deleted on disk but open in the editor: that text is the person's, and creating the file would bury it.
	if ((await context.writer.readText(absolute)) !== undefined) {
		throw new ToolError(`${shown} is open in the editor, with text not saved to disk. Write only creates new files; Read it, then use Edit.`);
	}
	return { absolute, shown };
}

export const writeTool: Tool<WriteInput> = {
	name: 'Write',
	description: 'Creates a new file with the given content and saves it; missing parent folders are created. Refuses a path that already exists: use Edit to change existing files.',
	kind: 'write',
	input,
	async touches({ path }, context) {
		return { reads: [], writes: [await resolveInWorkspace(path, context.roots, context.fs)] };
	},
	async confirm({ path, content }, context) {
		const { shown } = await planWrite(path, context);
		return { title: `Create ${shown}`, target: shown, diff: unifiedDiff('/dev/null', shown, '', content) };
	},
	async run({ path, content }, context) {
		const { absolute, shown } = await planWrite(path, context);
		try {
			await context.writer.create(absolute, content);
		} catch (error) {
			// The writers never overwrite: a file that appeared since the check stays as it is.
			if ((await context.fs.stat(absolute).catch(() => undefined)) !== undefined) {
				throw new ToolError(`${shown} appeared while the Write was being made; it was left as it is and nothing was written. Read it, then use Edit to change it.`);
			}
			throw error;
		}
		context.seen.saw(absolute, content);
		return {
			content: `Created ${shown} (${plural(splitLines(content).length, 'line')}).`,
			detail: { kind: 'diff', path: shown, diff: unifiedDiff('/dev/null', shown, '', content) },
			touched: [{ path: absolute, access: 'written', text: content }],
		};
	},
};
