// What a tool hook reads as `tool_name` and `tool_input`: Claude Code's name for the tool, and
// Aside's own input with Claude Code's field names for the same call beside it, so a hook written
// for Claude Code (`jq -r .tool_input.file_path`, `.tool_input.command`) works unchanged. Aside's
// fields stay; where both name a field alike (Edit's old_string, Glob's pattern) it is already
// there. Each tool's part is a row of the tool facts (src/tools/toolFacts.ts): its Claude Code
// name, the fields it adds, or the several calls it is (ApplyPatch: one per file). Table: docs/hooks.md.
import { type ClaudeToolCall, inputFields } from '../tools/claudeCalls';
import { builtinToolFacts } from '../tools/toolFacts';

/** `input` of tool `name` with Claude Code's field names added (never replacing one of Aside's). */
export function claudeToolInput(name: string, input: unknown, folder: string): unknown {
	const fields = inputFields(input);
	if (!fields) {
		return input;
	}
	const added = builtinToolFacts(name)?.claudeFields?.(fields, folder) ?? {};
	// Aside's own fields win: a hook sees exactly what the tool runs with.
	return { ...added, ...fields };
}

/**
 * The hook inputs of Aside's call `name`: one, under Claude Code's name for the tool (`Bash` for
 * Run), or the several Claude Code calls its row says it is (a patch: one per file it touches, so
 * a hook guarding Claude Code's Edit or Write sees each file).
 */
export function claudeToolCalls(name: string, input: unknown, folder: string): readonly ClaudeToolCall[] {
	const facts = builtinToolFacts(name);
	const claudeName = facts?.claudeName ?? name;
	return facts?.claudeCalls?.(input, folder, claudeName) ?? [{ name: claudeName, input: claudeToolInput(name, input, folder) }];
}
