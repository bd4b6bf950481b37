// What a tool hook reads as `tool_name` and `tool_input`: Claude Code's name for the tool, and
// Aside's own input with Claude Code's field names for the same call beside it, so a hook written
// for Claude Code (`jq -r .tool_input.file_path`, `.tool_input.command`) works unchanged. Aside's
// fields stay; where both name a field alike (Edit's old_string, Glob's pattern) it is already
// there. ApplyPatch is one input per file it touches. Table: docs/hooks.md.
import * as nodePath from 'node:path';
import { parsePatch } from '../tools/patch/parse';
import type { Hunk, Patch } from '../tools/patch/patch';
import { CLAUDE_TOOL_NAMES } from './config';

function record(input: unknown): Record<string, unknown> | undefined {
	return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
}

/** Claude Code's `file_path` is absolute: a relative path is taken from `folder` (the first workspace folder). */
function absolute(path: unknown, folder: string): string | undefined {
	return typeof path === 'string' && path !== '' ? nodePath.resolve(folder, path) : undefined;
}

/** `input` of tool `name` with Claude Code's field names added (never replacing one of Aside's). */
export function claudeToolInput(name: string, input: unknown, folder: string): unknown {
	const fields = record(input);
	if (!fields) {
		return input;
	}
	const added: Record<string, unknown> = {};
	switch (name) {
		case 'Read':
		case 'Write':
		case 'Edit': {
			const filePath = absolute(fields.path, folder);
			if (filePath !== undefined) {
				added.file_path = filePath;
			}
			break;
		}
		case 'Run':
			// Bash's `timeout` is in milliseconds, as Run's timeout_ms.
			if (typeof fields.timeout_ms === 'number') {
				added.timeout = fields.timeout_ms;
			}
			break;
		case 'Grep':
			if (fields.caseSensitive === false) {
				added['-i'] = true;
			}
			break;
		default:
			break;
	}
	// Aside's own fields win: a hook sees exactly what the tool runs with.
	return { ...added, ...fields };
}

/** One hook input of a call as Claude Code would describe it: its tool's name there, and its input. */
export interface ClaudeToolCall {
	readonly name: string;
	readonly input: unknown;
}

/** A hunk as Claude Code's Edit would say it: the lines it replaces, and what they become. */
function edit(hunk: Hunk): { old_string: string; new_string: string } {
	const side = (kind: 'remove' | 'add') => hunk.lines.filter((line) => line.kind === 'context' || line.kind === kind).map((line) => line.text).join('\n');
	return { old_string: side('remove'), new_string: side('add') };
}

/** Each file an ApplyPatch touches, in the order written, as the Claude Code call that would change it (a delete, which Claude Code has no tool for, keeps the name ApplyPatch). */
function patchCalls(patch: Patch, source: string, folder: string): ClaudeToolCall[] {
	const calls: ClaudeToolCall[] = [];
	for (const operation of patch.operations) {
		const filePath = nodePath.resolve(folder, operation.path);
		if (operation.kind === 'add') {
			calls.push({ name: 'Write', input: { file_path: filePath, content: operation.text, patch: source } });
		} else if (operation.kind === 'delete') {
			calls.push({ name: 'ApplyPatch', input: { file_path: filePath, deleted: true, patch: source } });
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
 * The hook inputs of Aside's call `name`: one, under Claude Code's name for the tool (`Bash` for
 * Run); for ApplyPatch one per file it touches, so a hook guarding Claude Code's Edit or Write
 * sees each file. A patch that does not parse is one input as it is (the tool refuses it).
 */
export function claudeToolCalls(name: string, input: unknown, folder: string): readonly ClaudeToolCall[] {
	const source = record(input)?.patch;
	if (name === 'ApplyPatch' && typeof source === 'string') {
		try {
			return patchCalls(parsePatch(source), source, folder);
		} catch {
			return [{ name, input }];
		}
	}
	return [{ name: CLAUDE_TOOL_NAMES[name] ?? name, input: claudeToolInput(name, input, folder) }];
}
