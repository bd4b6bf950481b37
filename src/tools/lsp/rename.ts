// LSP rename as a change like any other: the rename provider's edits (VS Code's
// executeDocumentRenameProvider) become the codebase's ChangePlan — every file's text before and
// after — so it is reviewed in the diff editor (one decision for all its files), checkpointed and
// seen by the observers exactly as an Edit or ApplyPatch is, and applied all or nothing.
import { plural } from '../../base/words';
import { sanitizeUntrusted } from '../../reminders/envelope';
import type { ChangePlan, FileChange } from '../changes';
import { ToolError } from '../errors';
import { displayPath, resolveInWorkspace } from '../paths';
import type { ToolContext } from '../tool';
import { shownPath } from './format';
import type { LspInput } from './input';
import { nothingFound } from './operations';
import type { CodeFileEdit, CodePosition, LanguageFeatures } from './port';
import { targetOf } from './target';

/** Where each line of `text` starts, as VS Code counts lines (\r\n, \n or \r ends one). */
function lineStarts(text: string): number[] {
	const starts = [0];
	const breaks = /\r\n|\r|\n/g;
	for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
		starts.push(match.index + match[0].length);
	}
	return starts;
}

function offsetOf(starts: readonly number[], text: string, at: CodePosition, shown: string): number {
	const start = starts[at.line];
	if (start === undefined) {
		throw new ToolError(`The rename's edits do not fit ${shown} as it is now (no line ${at.line + 1}); nothing was changed. Try again.`);
	}
	const end = starts[at.line + 1] ?? text.length;
	return Math.min(start + at.character, end);
}

/** `text` with the edits made (the ranges are in `text`, and do not overlap). */
export function applyTextEdits(text: string, edits: CodeFileEdit['edits'], shown: string): string {
	const starts = lineStarts(text);
	const placed = edits
		.map((edit) => ({ from: offsetOf(starts, text, edit.range.start, shown), to: offsetOf(starts, text, edit.range.end, shown), newText: edit.newText }))
		.sort((a, b) => b.from - a.from);
	let result = text;
	for (const edit of placed) {
		result = `${result.slice(0, edit.from)}${edit.newText}${result.slice(edit.to)}`;
	}
	return result;
}

/** The word the rename starts from, for the title and the summary. */
function wordAt(line: string | undefined, character: number): string {
	if (line === undefined) {
		return 'the symbol';
	}
	const before = /[\p{L}\p{N}_$]*$/u.exec(line.slice(0, character))?.[0] ?? '';
	const after = /^[\p{L}\p{N}_$]*/u.exec(line.slice(character))?.[0] ?? '';
	return `${before}${after}` || 'the symbol';
}

async function fileChange(file: CodeFileEdit, context: ToolContext): Promise<FileChange> {
	const shown = shownPath(file.path, context.roots);
	let path: string;
	try {
		path = await resolveInWorkspace(file.path, context.roots, context.fs);
	} catch {
		throw new ToolError(`The rename would also change ${shown}, which is outside the workspace folders; nothing was changed.`);
	}
	const before = await context.writer.readText(path);
	if (before === undefined) {
		throw new ToolError(`The rename would change ${shown}, which could not be read as text; nothing was changed.`);
	}
	const shownInside = displayPath(path, context.roots);
	return { path, shown: shownInside, before, after: applyTextEdits(before, file.edits, shownInside) };
}

/** The rename as a plan: every file the provider would change, its text before and after. */
export async function planRename(input: LspInput, context: ToolContext, features: LanguageFeatures): Promise<ChangePlan> {
	const newName = input.new_name;
	if (newName === undefined) {
		throw new ToolError('rename needs `new_name`: the name the symbol gets.');
	}
	const target = await targetOf(input, context, features);
	const oldName = wordAt((await features.lines(target.path))?.[target.at.line], target.at.character);
	const answer = await features.rename(target.path, target.at, newName);
	const where = `${shownPath(target.path, context.roots)}:${target.at.line + 1}:${target.at.character + 1}`;
	if (!answer.ok || answer.files.length === 0) {
		const language = await features.language(target.path).catch(() => undefined);
		if (language !== undefined && language.providers.length === 0) {
			throw new ToolError(await nothingFound(features, target.path, 'renames', where, context.roots));
		}
		throw new ToolError(answer.ok ? `Nothing to rename at ${where}: the language features proposed no edit.` : `The rename at ${where} was refused: ${sanitizeUntrusted(answer.reason)}`);
	}
	const changes: FileChange[] = [];
	for (const file of answer.files) {
		changes.push(await fileChange(file, context));
	}
	const changed = changes.filter((change) => change.after !== change.before);
	if (changed.length === 0) {
		throw new ToolError(`Renaming ${sanitizeUntrusted(oldName)} to ${sanitizeUntrusted(newName)} changes no file's text.`);
	}
	const edits = answer.files.reduce((count, file) => count + file.edits.length, 0);
	const files = changed.length === 1 ? (changed[0]?.shown ?? '') : plural(changed.length, 'file');
	return {
		title: `Rename ${sanitizeUntrusted(oldName)} to ${sanitizeUntrusted(newName)} in ${files}`,
		changes: changed,
		summary: `Renamed ${sanitizeUntrusted(oldName)} to ${sanitizeUntrusted(newName)}: ${plural(edits, 'edit')} in ${plural(changed.length, 'file')} (${changed.map((change) => change.shown).join(', ')}).`,
	};
}
