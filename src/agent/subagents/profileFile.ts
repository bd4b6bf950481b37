// One agent profile file: Markdown with a YAML frontmatter (`name`, `description`, `tools`,
// `model`, `maxSteps`, `reminders`) whose body is the role prompt. The Claude Code format of
// `.claude/agents/*.md` is accepted as it is: `tools` as a comma-separated string or a list, its
// tool names mapped to Aside's, `model: inherit|sonnet|opus|haiku` meaning the parent's model,
// other fields (`color`, …) ignored. Every problem names the file and the field; a file with an
// error is not a profile, one with only warnings is (what the warning names is left out).
import { LineCounter, parseDocument } from 'yaml';
import * as z from 'zod';
import type { AgentProfile, ProfileProblem, ProfileSource, ProfileTools } from './profile';
import { listOf, splitFrontmatter } from '../../base/frontmatter';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName, builtinToolFacts, TOOL_FACTS } from '../../tools/toolFacts';

/** Bigger files are refused unread: a role prompt is a page or two. */
export const MAX_PROFILE_BYTES = 64 * 1024;
/** The largest step budget a profile may ask for. */
export const MAX_PROFILE_STEPS = 200;
/** Characters of the description the listing shows (one line). */
export const MAX_DESCRIPTION_CHARS = 240;
const MAX_NAME_CHARS = 64;
const NAME = /^[a-z0-9][a-z0-9-]*$/;
const REMINDER_TYPE = /^[A-Za-z0-9._-]+$/;

/** `inherit` and Claude's aliases name no model of Aside's providers: the child uses the parent's. */
const PARENT_MODEL = new Set(['inherit', 'sonnet', 'opus', 'haiku']);

export type ParsedProfile =
	| { readonly ok: true; readonly profile: AgentProfile; readonly warnings: readonly ProfileProblem[] }
	| { readonly ok: false; readonly problems: readonly ProfileProblem[] };

const Names = z.union([z.string(), z.array(z.string({ error: 'each entry must be text' }))], { error: 'must be a comma-separated list or a YAML list of names' });

const Frontmatter = z.looseObject({
	name: z
		.string({ error: (issue) => (issue.input === undefined ? 'is missing' : 'must be text') })
		.trim()
		.min(1, 'is empty')
		.max(MAX_NAME_CHARS, `is longer than ${MAX_NAME_CHARS} characters`)
		.regex(NAME, 'may use only lowercase letters, digits and "-", and must start with a letter or digit'),
	description: z.string({ error: (issue) => (issue.input === undefined ? 'is missing' : 'must be text') }).refine((text) => text.trim() !== '', 'is empty'),
	tools: Names.nullish(),
	disallowedTools: Names.nullish(),
	model: z.string({ error: 'must be text (a model id, or inherit)' }).trim().min(1, 'is empty').nullish(),
	maxSteps: z
		.number({ error: `must be a whole number from 1 to ${MAX_PROFILE_STEPS}` })
		.int(`must be a whole number from 1 to ${MAX_PROFILE_STEPS}`)
		.min(1, `must be a whole number from 1 to ${MAX_PROFILE_STEPS}`)
		.max(MAX_PROFILE_STEPS, `must be a whole number from 1 to ${MAX_PROFILE_STEPS}`)
		.nullish(),
	reminders: Names.nullish(),
});

/** The file's frontmatter text and body (trimmed), or why there is none: a profile must have one. */
function profileParts(text: string): { readonly yaml: string; readonly body: string } | string {
	const parts = splitFrontmatter(text);
	if ('error' in parts) {
		return parts.error;
	}
	if (parts.yaml === undefined) {
		return 'the file does not start with a YAML frontmatter (a line "---", the fields, and a closing "---")';
	}
	return { yaml: parts.yaml, body: parts.body.trim() };
}

/** The built-in tool a profile names, whatever the case: by Aside's name, else by one of Claude Code's (`Bash`, `MultiEdit`). */
function toolNamed(base: string): BuiltinToolName | undefined {
	const lower = base.toLowerCase();
	const isIt = (name: string) => name.toLowerCase() === lower;
	return BUILTIN_TOOL_NAMES.find(isIt) ?? BUILTIN_TOOL_NAMES.find((tool) => [TOOL_FACTS[tool].claudeName, ...TOOL_FACTS[tool].claudeAliases].some(isIt));
}

/** Aside's name for a tool a profile lists (Aside's own or Claude Code's), and a note when something of it is dropped. */
function asideTool(listed: string): { readonly name?: string; readonly note?: string } {
	// Claude Code's permission patterns, `Bash(npm test:*)`: the tool is kept, the pattern is not.
	const pattern = /^([A-Za-z]+)\((.*)\)$/.exec(listed);
	const base = pattern?.[1] ?? listed;
	const name = toolNamed(base);
	if (name === undefined) {
		return {};
	}
	return pattern ? { name, note: `"${listed}": the pattern in parentheses is not applied; ${name} follows your permission mode and rules (aside.permissions.*)` } : { name };
}

/** The first line of a description, whitespace collapsed, cut for the listing. Claude's often hold `\n` and examples. */
export function oneLine(description: string): string {
	const first = description.replaceAll('\\n', '\n').split('\n').map((line) => line.trim()).find((line) => line !== '') ?? '';
	const collapsed = first.replace(/\s+/g, ' ');
	const chars = Array.from(collapsed);
	return chars.length <= MAX_DESCRIPTION_CHARS ? collapsed : `${chars.slice(0, MAX_DESCRIPTION_CHARS - 1).join('').trimEnd()}…`;
}

/** A problem's message without yaml's own position and excerpt (the line is given in the file's numbering). */
function yamlMessage(message: string): string {
	const at = message.indexOf(' at line ');
	return (at >= 0 ? message.slice(0, at) : message.split('\n', 1)[0] ?? message).trim();
}

function parseYaml(text: string) {
	return parseDocument(text, { lineCounter: new LineCounter(), prettyErrors: true, uniqueKeys: true });
}

/**
 * Claude Code's agent files often hold unquoted one-line values that strict YAML refuses
 * (`description: Use this agent when… user: "run the tests"`); Claude Code reads them as text.
 * So does Aside, when strict parsing fails: each top-level plain value is read quoted.
 */
function quotePlainValues(yaml: string): string {
	return yaml
		.split('\n')
		.map((line) => {
			const field = /^([A-Za-z_][\w-]*):[ \t]+(\S.*)$/.exec(line);
			const value = field?.[2]?.trimEnd();
			return field && value !== undefined && !/^["'[{|>&*!%@`#]/.test(value) ? `${field[1]}: ${JSON.stringify(value)}` : line;
		})
		.join('\n');
}

/** Whether the bytes are text: no NUL, valid UTF-8. */
function decodeText(bytes: Uint8Array): string | undefined {
	if (bytes.includes(0)) {
		return undefined;
	}
	try {
		return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
	} catch {
		return undefined;
	}
}

/**
 * Parses one profile file from its bytes (at most MAX_PROFILE_BYTES + 1 of them are needed to
 * tell that it is too big). Never throws.
 */
export function parseProfileFile(bytes: Uint8Array, source: Extract<ProfileSource, { kind: 'file' }>): ParsedProfile {
	const problem = (message: string, severity: ProfileProblem['severity'] = 'error'): ProfileProblem => ({ path: source.path, message, severity });
	const fail = (...messages: string[]): ParsedProfile => ({ ok: false, problems: messages.map((message) => problem(message)) });
	if (bytes.length > MAX_PROFILE_BYTES) {
		return fail(`the file is larger than ${MAX_PROFILE_BYTES / 1024} KB; a profile is a frontmatter and a role prompt`);
	}
	const text = decodeText(bytes);
	if (text === undefined) {
		return fail('the file is not UTF-8 text (it looks binary)');
	}
	const parts = profileParts(text);
	if (typeof parts === 'string') {
		return fail(parts);
	}
	let document = parseYaml(parts.yaml);
	if (document.errors.length > 0) {
		const lenient = parseYaml(quotePlainValues(parts.yaml));
		if (lenient.errors.length > 0) {
			// The frontmatter starts on the file's second line.
			return fail(...document.errors.map((error) => `the frontmatter is not valid YAML${error.linePos ? ` (line ${error.linePos[0].line + 1})` : ''}: ${yamlMessage(error.message)}`));
		}
		document = lenient;
	}
	let data: unknown;
	try {
		data = document.toJS({ maxAliasCount: 50 });
	} catch (error) {
		return fail(`the frontmatter cannot be read: ${yamlMessage((error as Error).message)}`);
	}
	if (typeof data !== 'object' || data === null || Array.isArray(data)) {
		return fail('the frontmatter must be a set of fields (name: …, description: …)');
	}
	const checked = Frontmatter.safeParse(data);
	if (!checked.success) {
		return fail(...checked.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : 'frontmatter'}: ${issue.message}`));
	}
	const fields = checked.data;
	if (parts.body === '') {
		return fail('the file has no role prompt: write it below the frontmatter');
	}
	const warnings: ProfileProblem[] = [];
	const toolNames = (field: 'tools' | 'disallowedTools', value: string | readonly string[]): string[] => {
		const names: string[] = [];
		for (const listed of listOf(value)) {
			const { name, note } = asideTool(listed);
			if (name === undefined) {
				warnings.push(problem(`${field}: Aside has no tool "${listed}"; it is left out`, 'warning'));
				continue;
			}
			if (note !== undefined) {
				warnings.push(problem(`${field}: ${note}`, 'warning'));
			}
			if (!names.includes(name)) {
				names.push(name);
			}
		}
		return names;
	};
	const disallowed = fields.disallowedTools ? toolNames('disallowedTools', fields.disallowedTools) : [];
	let tools: ProfileTools;
	if (fields.tools) {
		tools = { kind: 'named', names: toolNames('tools', fields.tools).filter((name) => !disallowed.includes(name)) };
	} else if (disallowed.length > 0) {
		// The parent's tools but these: said as names, so nothing disallowed can come back through `inherit`.
		tools = { kind: 'named', names: BUILTIN_TOOL_NAMES.filter((name) => TOOL_FACTS[name].inProfiles === 'listed' && !disallowed.includes(name)) };
	} else {
		tools = { kind: 'inherit' };
	}
	const reminders: string[] = [];
	for (const type of fields.reminders ? listOf(fields.reminders) : []) {
		if (REMINDER_TYPE.test(type)) {
			reminders.push(type);
		} else {
			warnings.push(problem(`reminders: "${type}" is not a reminder type or key (letters, digits, ".", "_", "-"); it is left out`, 'warning'));
		}
	}
	const model = fields.model && !PARENT_MODEL.has(fields.model.toLowerCase()) ? fields.model : undefined;
	const profile: AgentProfile = {
		name: fields.name,
		description: oneLine(fields.description),
		tools,
		...(model !== undefined ? { model } : {}),
		...(fields.maxSteps !== undefined && fields.maxSteps !== null ? { maxSteps: fields.maxSteps } : {}),
		reminders,
		canSpawn: tools.kind === 'named' && tools.names.some((name) => builtinToolFacts(name)?.inProfiles === 'spawns'),
		prompt: parts.body,
		source,
	};
	return { ok: true, profile, warnings };
}
