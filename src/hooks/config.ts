// The hooks the person configures, in the shape of the `hooks` object of Claude Code's settings
// (event → matcher groups → `{ type: "command", command, timeout }`), so existing hooks copy over
// unchanged: from the user setting `aside.hooks` and from `.aside/hooks.json` of each workspace
// folder (which may also hold Claude Code's whole settings object, `{ "hooks": { … } }`).
// Parsing never throws and loses nothing it can keep: an event Aside has not, a hook type it does
// not run, a bad matcher or a malformed entry is a problem naming where, and the rest still counts.
import * as z from 'zod';
import { builtinToolFacts, CLAUDE_FILE_TOOLS } from '../tools/toolFacts';
import { isMcpRuleName, mcpNameMatches } from '../mcp/names';

export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code's default: a hook that runs longer is stopped. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;
/** No hook may hold the chat longer than this, whatever its `timeout` says. */
export const MAX_HOOK_TIMEOUT_SECONDS = 600;

/** Where a hook was configured: the user setting, or a workspace folder's file. */
export interface HookOrigin {
	readonly kind: 'user' | 'workspace';
	/** What the person reads in a message: `the setting aside.hooks`, or the file's path. */
	readonly where: string;
	/** A workspace file's folder: its hooks run there (the user's run in the first workspace folder). */
	readonly folder?: string;
}

export interface HookCommand {
	readonly command: string;
	readonly timeoutMs: number;
	readonly origin: HookOrigin;
}

export interface HookGroup {
	readonly event: HookEvent;
	/** As configured ('' when absent). */
	readonly matcher: string;
	readonly matches: (toolName: string) => boolean;
	readonly hooks: readonly HookCommand[];
}

export interface ParsedHooks {
	readonly groups: readonly HookGroup[];
	/** Each names where (`aside.hooks: PreToolUse[0].hooks[1]: …`); the entry it names is left out. */
	readonly problems: readonly string[];
}

export const NO_HOOKS: ParsedHooks = { groups: [], problems: [] };

const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse']);

/** The names a matcher may also use for an Aside tool: Claude Code's (`Bash` for Run), or every one of its file tools for a tool that changes files. */
function claudeNamesOf(toolName: string): readonly string[] {
	const facts = builtinToolFacts(toolName);
	if (facts === undefined) {
		return [];
	}
	return facts.hooksSeeFileChange ? CLAUDE_FILE_TOOLS : [facts.claudeName, ...facts.claudeAliases];
}

const Command = z.object({
	type: z.literal('command', { error: 'only "command" hooks run in Aside' }),
	command: z.string({ error: 'must be text' }).refine((text) => text.trim() !== '', 'is empty'),
	timeout: z.number({ error: 'must be a number of seconds' }).positive('must be more than 0 seconds').max(MAX_HOOK_TIMEOUT_SECONDS, `must be at most ${MAX_HOOK_TIMEOUT_SECONDS} seconds`).optional(),
});

const Group = z.looseObject({
	matcher: z.string({ error: 'must be text' }).optional(),
	hooks: z.array(z.unknown(), { error: 'must be a list of hooks' }),
});

/**
 * Claude Code's matcher on a tool name: empty or `*` matches every tool; `Edit|Write` names
 * alternatives exactly, where an MCP name may also stand for a whole server (`mcp__github`,
 * `mcp__github__*`); anything else is a regular expression that must match the whole name
 * (`mcp__github__.*`). Undefined: not a valid pattern.
 */
export function toolMatcher(matcher: string): ((toolName: string) => boolean) | undefined {
	const pattern = matcher.trim();
	if (pattern === '' || pattern === '*') {
		return () => true;
	}
	let test: (name: string) => boolean;
	const alternatives = pattern.split('|').filter((name) => name !== '');
	if (alternatives.every((name) => /^[A-Za-z0-9_]+$/.test(name) || isMcpRuleName(name))) {
		test = (name) => alternatives.some((alternative) => alternative === name || (isMcpRuleName(alternative) && mcpNameMatches(alternative, name)));
	} else {
		let regex: RegExp;
		try {
			regex = new RegExp(`^(?:${pattern})$`);
		} catch {
			return undefined;
		}
		test = (name) => regex.test(name);
	}
	return (toolName) => test(toolName) || claudeNamesOf(toolName).some(test);
}

function issueText(error: z.ZodError): string {
	return error.issues.map((issue) => `${issue.path.length ? `${issue.path.join('.')} ` : ''}${issue.message}`).join('; ');
}

/** Parses one source's hooks object (or a settings object holding one under `hooks`). */
export function parseHooks(value: unknown, origin: HookOrigin): ParsedHooks {
	const at = origin.where;
	if (value === undefined || value === null) {
		return NO_HOOKS;
	}
	if (typeof value !== 'object' || Array.isArray(value)) {
		return { groups: [], problems: [`${at}: must be an object of events (SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop), each a list of matcher groups.`] };
	}
	const record = value as Record<string, unknown>;
	const events = Object.keys(record).length === 1 && 'hooks' in record && typeof record.hooks === 'object' ? (record.hooks as Record<string, unknown> | null) : record;
	if (!events || Array.isArray(events)) {
		return { groups: [], problems: [`${at}: "hooks" must be an object of events.`] };
	}
	const groups: HookGroup[] = [];
	const problems: string[] = [];
	for (const [event, list] of Object.entries(events)) {
		if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
			problems.push(`${at}: ${event} is not an event Aside runs hooks for (${HOOK_EVENTS.join(', ')}); its hooks are ignored.`);
			continue;
		}
		if (!Array.isArray(list)) {
			problems.push(`${at}: ${event} must be a list of matcher groups ({ "matcher": …, "hooks": [ … ] }).`);
			continue;
		}
		for (const [index, raw] of list.entries()) {
			const where = `${at}: ${event}[${index}]`;
			const group = Group.safeParse(raw);
			if (!group.success) {
				problems.push(`${where}: ${issueText(group.error)}.`);
				continue;
			}
			const matcher = group.data.matcher ?? '';
			const matches = toolMatcher(matcher);
			if (!matches) {
				problems.push(`${where}: the matcher ${JSON.stringify(matcher)} is not a valid pattern; this group is ignored.`);
				continue;
			}
			if (!TOOL_EVENTS.has(event as HookEvent) && matcher.trim() !== '' && matcher.trim() !== '*') {
				problems.push(`${where}: ${event} has no tool to match; the matcher ${JSON.stringify(matcher)} is ignored.`);
			}
			const hooks: HookCommand[] = [];
			for (const [hookIndex, hook] of group.data.hooks.entries()) {
				const parsed = Command.safeParse(hook);
				if (!parsed.success) {
					problems.push(`${where}.hooks[${hookIndex}]: ${issueText(parsed.error)}; this hook is ignored.`);
					continue;
				}
				hooks.push({ command: parsed.data.command, timeoutMs: (parsed.data.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000, origin });
			}
			if (hooks.length > 0) {
				groups.push({ event: event as HookEvent, matcher, matches: TOOL_EVENTS.has(event as HookEvent) ? matches : () => true, hooks });
			}
		}
	}
	return { groups, problems };
}

/** Parses a `.aside/hooks.json` file's text; bad JSON is one problem naming the file. */
export function parseHooksFile(text: string, origin: HookOrigin): ParsedHooks {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return { groups: [], problems: [`${origin.where}: not valid JSON (${error instanceof Error ? error.message : String(error)}); none of its hooks run.`] };
	}
	return parseHooks(value, origin);
}

/** The hooks of `event` (for the tool events, those whose matcher matches `toolName`), in configuration order, each command once. */
export function hooksFor(groups: readonly HookGroup[], event: HookEvent, toolName?: string): readonly HookCommand[] {
	const seen = new Set<string>();
	const chosen: HookCommand[] = [];
	for (const group of groups) {
		if (group.event !== event || (toolName !== undefined && !group.matches(toolName))) {
			continue;
		}
		for (const hook of group.hooks) {
			// Claude Code runs an identical command once per event, however many groups name it.
			const key = `${hook.origin.where}\u0000${hook.command}`;
			if (!seen.has(key)) {
				seen.add(key);
				chosen.push(hook);
			}
		}
	}
	return chosen;
}
