// Edit: exact string replacement on the text as the editor has it (unsaved changes included),
// written back through the editor's document model — only when that text is what the agent last
// saw of the file in this chat (staleWrite.ts): a file it never read, or one changed since, is
// refused with a request to Read it (again).
import * as z from 'zod';
import { unifiedDiff } from './diff';
import { ToolError } from './errors';
import { displayPath, resolveInWorkspace } from './paths';
import { changedSinceReadMessage, requireSeen, StaleTextError } from './staleWrite';
import { plural } from './text';
import type { Tool, ToolContext } from './tool';

const input = z.object({
	path: z.string().describe('The file to change: relative to the workspace folder, or absolute inside it.'),
	old_string: z.string().min(1).describe('The exact text to replace, including whitespace and indentation, without Read\'s line-number prefixes. Must occur exactly once unless replace_all is set.'),
	new_string: z.string().describe('The text to put in its place (may be empty to delete old_string).'),
	replace_all: z.boolean().optional().describe('Replace every occurrence of old_string instead of requiring exactly one. Default false.'),
});

type EditInput = z.infer<typeof input>;

interface EditPlan {
	readonly absolute: string;
	readonly shown: string;
	readonly before: string;
	readonly after: string;
	readonly replaced: number;
}

function countOccurrences(text: string, needle: string): number {
	let count = 0;
	for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
		count++;
	}
	return count;
}

async function planEdit({ path, old_string, new_string, replace_all = false }: EditInput, context: ToolContext): Promise<EditPlan> {
	const absolute = await resolveInWorkspace(path, context.roots, context.fs);
	const shown = displayPath(absolute, context.roots);
	const stat = await context.fs.stat(absolute);
	if (stat?.type === 'directory') {
		throw new ToolError(`${shown} is a directory, not a file.`);
	}
	const before = stat ? await context.writer.readText(absolute) : undefined;
	if (before === undefined) {
		throw new ToolError(`File not found: ${shown}. Use Write to create a new file.`);
	}
	requireSeen(context, absolute, shown, before);
	if (old_string === new_string) {
		throw new ToolError('old_string and new_string are the same, so the edit would change nothing.');
	}
	let oldText = old_string;
	let newText = new_string;
	let count = countOccurrences(before, oldText);
	if (count === 0 && before.includes('\r\n') && oldText.includes('\n') && !oldText.includes('\r')) {
		// A CRLF file, with strings written with LF (as Read shows lines): match in the file's style.
		const crlf = oldText.replaceAll('\n', '\r\n');
		count = countOccurrences(before, crlf);
		if (count > 0) {
			oldText = crlf;
			newText = newText.replace(/\r?\n/g, '\r\n');
		}
	}
	if (count === 0) {
		throw new ToolError(`old_string was not found in ${shown}. It must match the file exactly, including whitespace, indentation and line breaks; Read the file again if it may have changed.`);
	}
	if (count > 1 && !replace_all) {
		throw new ToolError(`old_string occurs ${count} times in ${shown}. Include more surrounding text to make it unique, or set replace_all to replace all ${count}.`);
	}
	// A function replacement, so `$&` and friends in new_string stay literal.
	const after = replace_all ? before.split(oldText).join(newText) : before.replace(oldText, () => newText);
	return { absolute, shown, before, after, replaced: replace_all ? count : 1 };
}

export const editTool: Tool<EditInput> = {
	name: 'Edit',
	description:
		'Replaces an exact string in a file with another, and saves the file. old_string must match the file exactly (whitespace included) and occur once, ' +
		'unless replace_all is set. Works on the text as the editor has it, unsaved changes included. Read the file first: an edit of a file not read in this chat, ' +
		'or changed since it was last read, is refused until it is read again. To create a file, use Write.',
	kind: 'write',
	input,
	async confirm(edit, context) {
		const plan = await planEdit(edit, context);
		return { title: `Edit ${plan.shown}`, target: plan.shown, diff: unifiedDiff(plan.shown, plan.shown, plan.before, plan.after) };
	},
	async run(edit, context) {
		const plan = await planEdit(edit, context);
		try {
			await context.writer.replace(plan.absolute, plan.after, plan.before);
		} catch (error) {
			throw error instanceof StaleTextError ? new ToolError(changedSinceReadMessage(plan.shown)) : error;
		}
		context.seen.saw(plan.absolute, plan.after);
		return {
			content: `Edited ${plan.shown}: replaced ${plural(plan.replaced, 'occurrence')}.`,
			detail: { kind: 'diff', path: plan.shown, diff: unifiedDiff(plan.shown, plan.shown, plan.before, plan.after) },
			touched: { path: plan.absolute, text: plan.after },
		};
	},
};
