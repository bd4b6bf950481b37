// What a tool hook reads as `tool_input`: Aside's own input, with Claude Code's field names for
// the same call beside it, so a hook written for Claude Code (`jq -r .tool_input.file_path`,
// `.tool_input.command`) works unchanged. Aside's fields stay; where both name a field alike
// (Edit's old_string, Glob's pattern) it is already there. Table: docs/hooks.md.
import * as nodePath from 'node:path';

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
