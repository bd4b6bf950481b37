// How Claude Code would describe a call of Aside's to a hook: the fields it names differently
// (`file_path`, Bash's `timeout`) and a patch as the Write, Edit and MultiEdit calls that would make
// it. The rows of the tool facts (toolFacts.ts) point here; src/hooks/claudeInput.ts applies them.
import * as nodePath from 'node:path';
import { parsePatch } from './patch/parse';
import type { Hunk, Patch } from './patch/patch';

/** One hook input of a call as Claude Code would describe it: its tool's name there, and its input. */
export interface ClaudeToolCall {
	readonly name: string;
	readonly input: unknown;
}

/** A call's input as fields, or undefined when it is not an object. */
export function inputFields(input: unknown): Readonly<Record<string, unknown>> | undefined {
	return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
}

/** Claude Code's `file_path` is absolute: a relative `path` is taken from `folder` (the first workspace folder). */
export function claudeFilePath(fields: Readonly<Record<string, unknown>>, folder: string): Record<string, unknown> {
	const { path } = fields;
	return typeof path === 'string' && path !== '' ? { file_path: nodePath.resolve(folder, path) } : {};
}

/** A hunk as Claude Code's Edit would say it: the lines it replaces, and what they become. */
function edit(hunk: Hunk): { old_string: string; new_string: string } {
	const side = (kind: 'remove' | 'add') => hunk.lines.filter((line) => line.kind === 'context' || line.kind === kind).map((line) => line.text).join('\n');
	return { old_string: side('remove'), new_string: side('add') };
}

/**
 * Each file a patch touches, in the order written, as the Claude Code call that would change it (a
 * delete, which Claude Code has no tool for, keeps the name `own`).
 */
function patchCalls(patch: Patch, source: string, folder: string, own: string): ClaudeToolCall[] {
	const calls: ClaudeToolCall[] = [];
	for (const operation of patch.operations) {
		const filePath = nodePath.resolve(folder, operation.path);
		if (operation.kind === 'add') {
			calls.push({ name: 'Write', input: { file_path: filePath, content: operation.text, patch: source } });
		} else if (operation.kind === 'delete') {
			calls.push({ name: own, input: { file_path: filePath, deleted: true, patch: source } });
		} else {
			const edits = operation.hunks.map(edit);
			const moveTo = operation.moveTo === undefined ? {} : { move_to: nodePath.resolve(folder, operation.moveTo) };
			const [only] = edits;
			calls.push(
				edits.length === 1 && only !== undefined
					? { name: 'Edit', input: { file_path: filePath, ...only, ...moveTo, patch: source } }
					: { name: 'MultiEdit', input: { file_path: filePath, edits, ...moveTo, patch: source } },
			);
			if (operation.moveTo !== undefined) {
				calls.push({ name: 'Write', input: { file_path: nodePath.resolve(folder, operation.moveTo), moved_from: filePath, patch: source } });
			}
		}
	}
	return calls;
}

/**
 * A patch call (its `patch` field) as one Claude Code call per file it touches, so a hook guarding
 * Claude Code's Edit or Write sees each file (a delete is named `own`, the patch tool's name there);
 * undefined for a patch that does not parse (the tool refuses it), which hooks see as the one call it is.
 */
export function claudePatchCalls(input: unknown, folder: string, own: string): readonly ClaudeToolCall[] | undefined {
	const source = inputFields(input)?.patch;
	if (typeof source !== 'string') {
		return undefined;
	}
	try {
		return patchCalls(parsePatch(source), source, folder, own);
	} catch {
		return undefined;
	}
}
