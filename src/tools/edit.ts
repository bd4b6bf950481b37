// Edit: exact string replacement on the text as the editor has it (unsaved changes included),
// written back through the editor's document model — only when that text is what the agent last
// saw of the file in this chat (staleWrite.ts): a file it never read, or one changed since, is
// refused with a request to Read it (again).
import * as z from 'zod';
import { hasNeutralisedMarker, restoreNeutralisedMarkers } from '../reminders/envelope';
import { type ChangePlan, changeTool } from './changes';
import { ToolError } from './errors';
import { displayPath, resolveInWorkspace } from './paths';
import { requireSeen } from './staleWrite';
import { plural } from '../base/words';
import { formatBytes, utf8Length } from './text';
import type { Tool, ToolContext } from './tool';

/**
 * Edit builds the whole new text and a diff of it, and VS Code replaces the document's whole
 * text: past this the edit costs seconds and hundreds of MB (200 MB took 4.7 s and ~2 GB).
 * The size is checked before the file is read.
 */
export const EDIT_MAX_FILE_BYTES = 10 * 1024 * 1024;

const input = z.object({
	path: z.string().describe('The file to change: relative to the workspace folder, or absolute inside it.'),
	old_string: z.string().min(1).describe('The exact text to replace, including whitespace and indentation, without Read\'s line-number prefixes. Must occur exactly once unless replace_all is set.'),
	new_string: z.string().describe('The text to put in its place (may be empty to delete old_string).'),
	replace_all: z.boolean().optional().describe('Replace every occurrence of old_string instead of requiring exactly one. Default false.'),
});

type EditInput = z.infer<typeof input>;

function countOccurrences(text: string, needle: string): number {
	let count = 0;
	for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
		count++;
	}
	return count;
}

/**
 * How old_string occurs in the file: as given; else in the file's CRLF style (strings written
 * with LF, as Read shows lines); else with neutralised markers restored — the model read outside
 * text with `<system-reminder` shown as `‹system-reminder` (toolResultText), so what it copied
 * names the file's `<`, and new_string, copied alongside, gets the same `<` back.
 */
function findReplacement(before: string, oldString: string, newString: string): { readonly oldText: string; readonly newText: string; readonly count: number } {
	const candidates: [string, string][] = [[oldString, newString]];
	if (hasNeutralisedMarker(oldString)) {
		candidates.push([restoreNeutralisedMarkers(oldString), restoreNeutralisedMarkers(newString)]);
	}
	const crlfFile = before.includes('\r\n');
	for (const [oldText, newText] of candidates) {
		const count = countOccurrences(before, oldText);
		if (count > 0) {
			return { oldText, newText, count };
		}
		if (crlfFile && oldText.includes('\n') && !oldText.includes('\r')) {
			const crlf = oldText.replaceAll('\n', '\r\n');
			const crlfCount = countOccurrences(before, crlf);
			if (crlfCount > 0) {
				return { oldText: crlf, newText: newText.replace(/\r?\n/g, '\r\n'), count: crlfCount };
			}
		}
	}
	return { oldText: oldString, newText: newString, count: 0 };
}

async function planEdit({ path, old_string, new_string, replace_all = false }: EditInput, context: ToolContext): Promise<ChangePlan> {
	const absolute = await resolveInWorkspace(path, context.roots, context.fs, context.planFile);
	const shown = displayPath(absolute, context.roots);
	const stat = await context.fs.stat(absolute);
	if (stat?.type === 'directory') {
		throw new ToolError(`${shown} is a directory, not a file.`);
	}
	if (stat && stat.size > EDIT_MAX_FILE_BYTES) {
		throw tooLarge(shown, stat.size);
	}
	const before = stat ? await context.writer.readText(absolute) : undefined;
	if (before === undefined) {
		throw new ToolError(`File not found: ${shown}. Use Write to create a new file.`);
	}
	// The editor's unsaved text can be larger than the file on disk (a UTF-16 unit is at most 3
	// UTF-8 bytes, so shorter texts need no count).
	if (before.length > EDIT_MAX_FILE_BYTES / 3 && utf8Length(before) > EDIT_MAX_FILE_BYTES) {
		throw tooLarge(shown, utf8Length(before));
	}
	requireSeen(context, absolute, shown, before);
	if (old_string === new_string) {
		throw new ToolError('old_string and new_string are the same, so the edit would change nothing.');
	}
	const { oldText, newText, count } = findReplacement(before, old_string, new_string);
	if (count === 0) {
		throw new ToolError(`old_string was not found in ${shown}. It must match the file exactly, including whitespace, indentation and line breaks; Read the file again if it may have changed.`);
	}
	if (count > 1 && !replace_all) {
		throw new ToolError(`old_string occurs ${count} times in ${shown}. Include more surrounding text to make it unique, or set replace_all to replace all ${count}.`);
	}
	// A function replacement, so `$&` and friends in new_string stay literal.
	const after = replace_all ? before.split(oldText).join(newText) : before.replace(oldText, () => newText);
	const replaced = plural(replace_all ? count : 1, 'occurrence');
	const linked = hardLinks(shown, stat?.nlink);
	return {
		title: linked?.title ?? `Edit ${shown}`,
		changes: [{ path: absolute, shown, before, after }],
		summary: `Edited ${shown}: replaced ${replaced}.`,
		...(linked ? { alwaysAsk: linked.alwaysAsk } : {}),
	};
}

function tooLarge(shown: string, bytes: number): ToolError {
	return new ToolError(`${shown} is ${formatBytes(bytes)}, more than Edit changes (${formatBytes(EDIT_MAX_FILE_BYTES)}); for a change to a file this large, use a command (Run).`);
}

/**
 * A file with more than one hard link is one file under several names, and another name may be
 * outside the workspace, where confinement cannot see it (unlike a symlink, a hard link has no
 * target to check): such an edit is always asked about.
 */
function hardLinks(shown: string, links: number | undefined): { readonly title: string; readonly alwaysAsk: string } | undefined {
	if (links === undefined || links <= 1) {
		return undefined;
	}
	return {
		title: `Edit ${shown}, a file with ${links} hard links (another name for it may be outside the workspace)`,
		alwaysAsk: `${shown} has ${links} hard links: another name for the same file may be outside the workspace.`,
	};
}

export const editTool: Tool<EditInput> = changeTool({
	name: 'Edit',
	description:
		'Replaces an exact string in a file with another, and saves the file. old_string must match the file exactly (whitespace included) and occur once, ' +
		'unless replace_all is set. Works on the text as the editor has it, unsaved changes included. Read the file first: an edit of a file not read in this chat, ' +
		'or changed since it was last read, is refused until it is read again. To create a file, use Write. ' +
		`Refuses files over ${formatBytes(EDIT_MAX_FILE_BYTES)}. A file with more than one hard link is always confirmed by the user, whatever the permission mode.`,
	input,
	async touches({ path }, context) {
		return { reads: [], writes: [await resolveInWorkspace(path, context.roots, context.fs, context.planFile)] };
	},
	plan: planEdit,
});
