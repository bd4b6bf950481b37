// ApplyPatch: a multi-file patch in the `apply_patch` format (the engine, strict, is
// src/tools/patch/; its grammar in docs/tools.md). The tool confines every path as Edit does,
// reads each file as the editor has it, requires a file it updates or deletes to have been Read
// in this chat and unchanged since (the stale-write guard), and plans every file's text before
// and after; the shared applyChanges then writes all of them or none.
import * as z from 'zod';
import { type ChangePlan, changeTool, type FileChange } from './changes';
import { EDIT_MAX_FILE_BYTES } from './edit';
import { ToolError } from './errors';
import { changeSteps, patchPaths } from './patch/changes';
import { parsePatch } from './patch/parse';
import { runYielding, Work } from './patch/steps';
import { displayPath, resolveInWorkspace } from './paths';
import { requireSeen } from './staleWrite';
import { plural } from '../base/words';
import { formatBytes, utf8Length } from './text';
import type { ToolContext, ToolTouches } from './tool';

/** The longest patch accepted, in characters: a patch is text the model writes out in full. */
export const PATCH_MAX_CHARS = 1_000_000;

const input = z.object({
	patch: z
		.string()
		.min(1)
		.max(PATCH_MAX_CHARS)
		.describe('The whole patch, from "*** Begin Patch" to "*** End Patch".'),
});

type ApplyPatchInput = z.infer<typeof input>;

/** One path the patch names: where it is, and its text now (undefined: it does not exist). */
interface PatchFile {
	readonly absolute: string;
	readonly shown: string;
	readonly text: string | undefined;
	readonly links: number | undefined;
}

async function readFile(path: string, context: ToolContext): Promise<PatchFile> {
	const absolute = await resolveInWorkspace(path, context.roots, context.fs, context.planFile);
	const shown = displayPath(absolute, context.roots);
	const stat = await context.fs.stat(absolute);
	if (stat?.type === 'directory') {
		throw new ToolError(`${shown} is a directory, not a file; the patch cannot change it.`);
	}
	if (stat && stat.size > EDIT_MAX_FILE_BYTES) {
		throw new ToolError(`${shown} is ${formatBytes(stat.size)}, more than ApplyPatch changes (${formatBytes(EDIT_MAX_FILE_BYTES)}); nothing was changed.`);
	}
	// The editor's text, unsaved changes included; a document open for a file not on disk yet counts too.
	const text = await context.writer.readText(absolute);
	if (stat && text === undefined) {
		throw new ToolError(`${shown} could not be read as text; nothing was changed.`);
	}
	if (text !== undefined && text.length > EDIT_MAX_FILE_BYTES / 3 && utf8Length(text) > EDIT_MAX_FILE_BYTES) {
		throw new ToolError(`${shown} is ${formatBytes(utf8Length(text))} in the editor, more than ApplyPatch changes; nothing was changed.`);
	}
	return { absolute, shown, text, links: stat?.nlink };
}

/** Every file the patch names, read once each; two patch paths that are one file are refused. */
async function readFiles(paths: readonly string[], context: ToolContext): Promise<Map<string, PatchFile>> {
	const files = new Map<string, PatchFile>();
	const byAbsolute = new Map<string, string>();
	for (const path of paths) {
		const file = await readFile(path, context);
		const other = byAbsolute.get(file.absolute);
		if (other !== undefined) {
			throw new ToolError(`The patch names one file twice, as ${other} and as ${path} (${file.shown}); name it one way. Nothing was changed.`);
		}
		byAbsolute.set(file.absolute, path);
		files.set(path, file);
	}
	return files;
}

function summaryOf(changes: readonly FileChange[]): string {
	const counts = { created: 0, updated: 0, deleted: 0 };
	for (const change of changes) {
		counts[change.before === null ? 'created' : change.after === null ? 'deleted' : 'updated'] += 1;
	}
	const parts = Object.entries(counts).flatMap(([verb, count]) => (count === 0 ? [] : [`${verb} ${plural(count, 'file')}`]));
	return `Applied the patch: ${parts.join(', ')} (${changes.map((change) => change.shown).join(', ')}).`;
}

async function planPatch({ patch: text }: ApplyPatchInput, context: ToolContext): Promise<ChangePlan> {
	const patch = parsePatch(text);
	const files = await readFiles(patchPaths(patch), context);
	const fileOf = (path: string): PatchFile => {
		const file = files.get(path);
		if (!file) {
			throw new Error(`The patch engine asked for ${path}, which the patch does not name.`);
		}
		return file;
	};
	// Off the thread's back: the hunks are placed in quanta, and Stop ends the work between two.
	const computed = await runYielding(changeSteps(patch, (path) => fileOf(path).text, new Work()), context.signal);
	if (computed.length === 0) {
		throw new ToolError('The patch changes nothing: every file would keep its text.');
	}
	const changes = computed.map((change): FileChange => {
		const file = fileOf(change.path);
		if (change.before !== undefined) {
			// An update or a deletion of a file the model has not seen as it is now: Read it first.
			requireSeen(context, file.absolute, file.shown, change.before);
		}
		return { path: file.absolute, shown: file.shown, before: change.before ?? null, after: change.after ?? null };
	});
	const linked = computed.flatMap((change) => {
		const file = fileOf(change.path);
		return file.links !== undefined && file.links > 1 ? [`${file.shown} has ${file.links} hard links`] : [];
	});
	const title = `Apply a patch to ${changes.length === 1 ? (changes[0]?.shown ?? '') : plural(changes.length, 'file')}`;
	return {
		title: linked.length > 0 ? `${title}, with a file of several hard links (another name for it may be outside the workspace)` : title,
		changes,
		summary: summaryOf(changes),
		...(linked.length > 0 ? { alwaysAsk: `${linked.join('; ')}: another name for the same file may be outside the workspace.` } : {}),
	};
}

/** The files a patch would write, from its text alone (no hunk applied); none when it does not parse. */
async function patchTouches({ patch: text }: ApplyPatchInput, context: ToolContext): Promise<ToolTouches> {
	const paths = patchPaths(parsePatch(text));
	const writes = await Promise.all(paths.map((path) => resolveInWorkspace(path, context.roots, context.fs, context.planFile)));
	return { reads: [], writes };
}

export const applyPatchTool = changeTool({
	name: 'ApplyPatch',
	description:
		'Applies a patch to one or more files at once, all or nothing, and saves them. The patch is in the apply_patch format:\n' +
		'*** Begin Patch\n*** Update File: src/a.ts\n@@ function foo() {\n   const x = 1;\n-  return x;\n+  return x + 1;\n }\n*** Add File: src/b.ts\n+first line\n+second line\n*** Delete File: src/old.ts\n*** End Patch\n' +
		'Paths are relative to the workspace folder. An update has one or more hunks: each starts with "@@" (optionally followed by a line of the file the hunk is below, such as a function header), ' +
		'then its lines: " " context, "-" removed, "+" added, with about 3 lines of context around each change; "*** Move to: <path>" right after "*** Update File" renames the file. ' +
		'Matching is exact: context and removed lines must be the file\'s lines exactly, whitespace included, or the patch is refused with the file and the hunk that did not match, and nothing is changed. ' +
		'Read a file before you update or delete it: a file not read in this chat, or changed since, is refused until it is read again. ' +
		'A file with more than one hard link is always confirmed by the user, whatever the permission mode.',
	input,
	touches: patchTouches,
	plan: planPatch,
});
