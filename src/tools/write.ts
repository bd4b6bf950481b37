// Write: creates a new file. Changing an existing one is Edit's job, so a whole file is never
// overwritten by accident — not even one that appeared after the person approved the Write, or
// one only open in the editor.
import * as z from 'zod';
import { type ChangePlan, changeTool } from './changes';
import { ToolError } from './errors';
import { displayPath, resolveInWorkspace } from './paths';
import { plural } from '../base/words';
import { splitLines } from './text';
import type { Tool, ToolContext } from './tool';

const input = z.object({
	path: z.string().min(1).describe('The new file: relative to the workspace folder, or absolute inside it. Missing parent folders are created.'),
	content: z.string().describe('The complete text of the new file.'),
});

type WriteInput = z.infer<typeof input>;

async function planWrite({ path, content }: WriteInput, context: ToolContext): Promise<ChangePlan> {
	const absolute = await resolveInWorkspace(path, context.roots, context.fs, context.planFile);
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
	return { title: `Create ${shown}`, changes: [{ path: absolute, shown, before: null, after: content }], summary: `Created ${shown} (${plural(splitLines(content).length, 'line')}).` };
}

export const writeTool: Tool<WriteInput> = changeTool({
	name: 'Write',
	description: 'Creates a new file with the given content and saves it; missing parent folders are created. Refuses a path that already exists: use Edit to change existing files.',
	input,
	async touches({ path }, context) {
		return { reads: [], writes: [await resolveInWorkspace(path, context.roots, context.fs, context.planFile)] };
	},
	plan: planWrite,
});
