// The permission rules (`aside.permissions.rules`), shaped like Claude Code's: lists of `Tool` or
// `Tool(pattern)` under "deny", "ask" and "allow". Each rule is checked with zod on its own: a bad
// one is dropped with a message naming it and why, and the others still apply. How a rule
// matches a call is in matchesCall / allowedBy (the order the lists are read in: policy.ts).
import { isIP } from 'node:net';
import picomatch from 'picomatch';
import * as z from 'zod';
import { BUILTIN_TOOLS } from '../../tools/registry';
import { AGENT_TOOL_NAME } from '../subagents/agentTool';
import { type Tool, type ToolKind, touchesNothing } from '../../tools/tool';
import { builtinToolFacts, PROCESS_RULE_TOOL, WRITE_RULE_TOOL } from '../../tools/toolFacts';
import { commandOfPart, type CommandLine } from './commandLine';
import { isMcpRuleName, mcpNameMatches } from '../../mcp/names';

export const RULE_LISTS = ['deny', 'ask', 'allow'] as const;
export type RuleList = (typeof RULE_LISTS)[number];

/** A tool as a rule can name it. */
export interface RuleTool {
	readonly name: string;
	readonly kind: ToolKind;
	/** Whether its calls declare the files they touch (Tool.touches), so a path pattern can match them. */
	readonly namesFiles: boolean;
}

/** The tools rules may name: the built-in ones. */
export function ruleToolsOf(tools: readonly Tool[]): RuleTool[] {
	return tools.map((tool) => ({ name: tool.name, kind: tool.kind, namesFiles: tool.kind !== 'run' && tool.touches !== touchesNothing }));
}

// Agent is the loop's own tool (src/agent/subagents/agentTool.ts): a rule may deny or ask for it by name.
const BUILTIN_RULE_TOOLS: readonly RuleTool[] = [...ruleToolsOf(BUILTIN_TOOLS), { name: AGENT_TOOL_NAME, kind: 'read', namesFiles: false }];

/** `Edit(…)` covers every tool that changes files (Edit, Write, ApplyPatch), as in Claude Code: the tool whose row says so. */
export const EDIT_FAMILY = WRITE_RULE_TOOL;

export interface PermissionRule {
	readonly list: RuleList;
	/** As written (trimmed), for messages: `Run(npm test*)`. */
	readonly text: string;
	readonly tool: string;
	/** The pattern between the parentheses; absent for a bare `Tool`. */
	readonly pattern?: string;
	/** Whether the pattern matches a command part or a workspace-relative path. */
	readonly test?: (subject: string) => boolean;
}

export interface PermissionRules {
	readonly deny: readonly PermissionRule[];
	readonly ask: readonly PermissionRule[];
	readonly allow: readonly PermissionRule[];
}

export const NO_RULES: PermissionRules = { deny: [], ask: [], allow: [] };

/** The setting's own shape: an object; each list and each rule in it is checked by parsePermissionRules. */
export const PermissionRulesSetting = z.record(z.string(), z.unknown());
export type PermissionRulesSetting = z.infer<typeof PermissionRulesSetting>;

// An MCP rule names a server or a tool of one (names.ts): `mcp__server`, `mcp__server__tool`, `mcp__server__*`.
const RULE = /^(mcp__[A-Za-z0-9_-]+(?:__\*)?|[A-Za-z][A-Za-z0-9_]*)\s*(\(.*)?$/s;
const RUN_OPERATORS = /[;&|()`\n\r]|\$\(/;

/**
 * A Run pattern: `*` stands for any characters (spaces too), everything else is itself, and the
 * whole command must match. A final ` *` also matches nothing, so `git push *` is `git push` with
 * or without arguments, never `git pushd`.
 */
function commandMatcher(pattern: string, caseless: boolean): (subject: string) => boolean {
	const normalized = pattern.trim().replace(/\s+/g, ' ');
	const words = normalized.endsWith(' *') ? normalized.slice(0, -2) : normalized;
	const source = words
		.split('*')
		.map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
		.join('.*');
	const regex = new RegExp(`^${source}${words === normalized ? '' : '(?: .*)?'}$`, caseless ? 'is' : 's');
	return (subject) => regex.test(subject);
}

/** A path pattern: a glob over workspace-relative paths with `/` (picomatch; dot files included). */
function pathMatcher(pattern: string, caseless: boolean): (subject: string) => boolean {
	return picomatch(pattern.replace(/^\.\//, ''), { dot: true, nocase: caseless, windows: false });
}

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * A WebFetch pattern, as Claude Code writes it: `domain:example.com` matches that host exactly;
 * `domain:*.example.com` matches every host under it (docs.example.com, a.b.example.com), not
 * example.com itself. Hosts are compared in lower case; an IP address is a host too. A string is
 * what is wrong with the pattern.
 */
function domainMatcher(pattern: string): ((subject: string) => boolean) | string {
	const match = /^domain:(.*)$/s.exec(pattern);
	if (!match) {
		return 'a WebFetch pattern names a host: domain:example.com, or domain:*.example.com for the hosts under it';
	}
	const domain = (match[1] ?? '').trim().toLowerCase().replace(/\.$/, '');
	const under = domain.startsWith('*.');
	const host = under ? domain.slice(2) : domain.replace(/^\[(.*)\]$/, '$1');
	if (host === '*' || domain === '*') {
		return 'write WebFetch alone to match every fetch; domain: names one host, or *.example.com for the hosts under it';
	}
	if (!HOST.test(host) && !(!under && isIP(host) !== 0)) {
		return `"${match[1] ?? ''}" is not a host name such as example.com (no scheme, path or port)`;
	}
	return under ? (subject) => subject.endsWith(`.${host}`) : (subject) => subject === host;
}

/** One rule's text, checked and compiled; zod issues name what is wrong. */
function ruleSchema(list: RuleList, tools: readonly RuleTool[]) {
	return z.unknown().transform((value, context): PermissionRule => {
		const fail = (message: string): never => {
			context.addIssue({ code: 'custom', message });
			return z.NEVER;
		};
		if (typeof value !== 'string') {
			return fail('a rule must be a string such as "Run(npm test*)"');
		}
		const text = value.trim();
		if (text === '') {
			return fail('the rule is empty');
		}
		const parsed = RULE.exec(text);
		if (!parsed) {
			return fail('expected Tool or Tool(pattern), for example Run(npm test*) or Edit(src/**)');
		}
		const [, name = '', rest] = parsed;
		// The servers' tools come and go: a rule may name one that is not connected now.
		if (isMcpRuleName(name)) {
			return rest === undefined ? { list, text, tool: name } : fail(`an MCP rule names a server or a tool, with no pattern: write ${name} alone`);
		}
		const tool = tools.find((candidate) => candidate.name === name);
		if (!tool) {
			return fail(`there is no tool named "${name}" (the tools are ${tools.map((candidate) => candidate.name).join(', ')}; names are case-sensitive)`);
		}
		if (rest === undefined) {
			return { list, text, tool: name };
		}
		if (!rest.endsWith(')')) {
			return fail('the pattern has no closing ")"');
		}
		const pattern = rest.slice(1, -1).trim();
		if (pattern === '') {
			return fail(`the pattern is empty: write ${name} alone to match every call`);
		}
		// Deny and ask rules restrict, so they match whatever the case; an allow rule matches exactly.
		const caseless = list !== 'allow';
		if (tool.kind === 'fetch') {
			const test = domainMatcher(pattern);
			return typeof test === 'string' ? fail(test) : { list, text, tool: name, pattern, test };
		}
		if (tool.kind === 'run') {
			if (RUN_OPERATORS.test(pattern)) {
				return fail('a Run pattern matches one command of a command line, so it cannot contain ;, &, |, (, ), a backtick or $( — write one rule per command');
			}
			return { list, text, tool: name, pattern, test: commandMatcher(pattern, caseless) };
		}
		if (!tool.namesFiles && name !== EDIT_FAMILY) {
			return fail(`${name} names no files, so a pattern cannot match its calls: write ${name} alone`);
		}
		if (pattern.includes('\\')) {
			return fail('write path patterns with /, not \\');
		}
		if (/^([/~]|[A-Za-z]:)/.test(pattern) || pattern.split('/').includes('..')) {
			return fail('a path pattern is relative to the workspace folder (for example src/** or **/*.lock), never absolute and without ..');
		}
		try {
			return { list, text, tool: name, pattern, test: pathMatcher(pattern, caseless) };
		} catch (error) {
			return fail(`the pattern is not a valid glob (${error instanceof Error ? error.message : String(error)})`);
		}
	});
}

export interface ParsedRules {
	readonly rules: PermissionRules;
	/** One sentence per dropped list or rule, naming it and why (after `The setting "aside.permissions.rules" `). */
	readonly problems: readonly string[];
}

/** The rules of the setting's value: every valid rule, and a problem for each one that is not. */
export function parsePermissionRules(value: unknown, tools: readonly RuleTool[] = BUILTIN_RULE_TOOLS): ParsedRules {
	const problems: string[] = [];
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return { rules: NO_RULES, problems: value === undefined ? [] : ['must be an object such as { "allow": ["Run(npm test*)"], "ask": [], "deny": [] }; no rules apply'] };
	}
	const rules: Record<RuleList, PermissionRule[]> = { deny: [], ask: [], allow: [] };
	for (const [key, entries] of Object.entries(value)) {
		const list = RULE_LISTS.find((name) => name === key);
		if (list === undefined) {
			problems.push(`has a list named ${JSON.stringify(key)}, which is not one of "allow", "ask", "deny"; it is ignored`);
			continue;
		}
		if (!Array.isArray(entries)) {
			problems.push(`has a "${list}" that is not a list of rules; it is ignored`);
			continue;
		}
		const schema = ruleSchema(list, tools);
		for (const entry of entries) {
			const parsed = schema.safeParse(entry);
			if (parsed.success) {
				rules[list].push(parsed.data);
			} else {
				const shown = typeof entry === 'string' ? entry : JSON.stringify(entry);
				problems.push(`has a bad rule in "${list}": ${JSON.stringify(shown.slice(0, 200))} (${parsed.error.issues[0]?.message ?? 'invalid'}); that rule is ignored, the others apply`);
			}
		}
	}
	return { rules, problems };
}

/** What a rule can see of a call. */
export interface RuleSubject {
	readonly tool: string;
	readonly kind: ToolKind;
	/** A command's line, split (Run; RunOutput and RunStop: their process's). */
	readonly command?: CommandLine;
	/** The files it declares (reads and writes), workspace-relative with `/`. */
	readonly paths: readonly string[];
	/** The host a web fetch reaches, in lower case. */
	readonly domain?: string;
}

function namesTool(rule: PermissionRule, subject: RuleSubject): boolean {
	if (isMcpRuleName(rule.tool)) {
		return mcpNameMatches(rule.tool, subject.tool);
	}
	return (
		rule.tool === subject.tool ||
		(rule.tool === EDIT_FAMILY && subject.kind === 'write') ||
		(rule.tool === PROCESS_RULE_TOOL && builtinToolFacts(subject.tool)?.ruledAsRun === true)
	);
}

/** Whether `rule` (a deny or ask rule) matches the call: a bare rule always; a pattern on any command part or any path. */
export function matchesCall(rule: PermissionRule, subject: RuleSubject): boolean {
	if (!namesTool(rule, subject)) {
		return false;
	}
	const { test } = rule;
	if (!test) {
		return true;
	}
	if (subject.command) {
		return subject.command.parts.some((part) => test(part) || test(commandOfPart(part)));
	}
	if (subject.domain !== undefined) {
		return test(subject.domain);
	}
	return subject.paths.some((path) => test(path));
}

/**
 * The allow rules that together cover the whole call, or undefined: a bare rule covers every call
 * of its tool; with patterns, every command part (and a line with nothing a rule cannot see) or
 * every path the call declares must match one of them.
 */
export function allowedBy(rules: readonly PermissionRule[], subject: RuleSubject): readonly PermissionRule[] | undefined {
	const named = rules.filter((rule) => namesTool(rule, subject));
	const bare = named.find((rule) => rule.test === undefined);
	if (bare) {
		return [bare];
	}
	const { command, domain } = subject;
	const subjects = command ? (command.unallowable === undefined ? command.parts : []) : domain !== undefined ? [domain] : subject.paths;
	if (subjects.length === 0) {
		return undefined;
	}
	const used = new Set<PermissionRule>();
	for (const item of subjects) {
		const rule = named.find((candidate) => candidate.test?.(item));
		if (!rule) {
			return undefined;
		}
		used.add(rule);
	}
	return [...used];
}

/** Whether any rule names `tool` (a read is only looked at closely when one does). */
export function rulesName(rules: PermissionRules, tool: string, kind: ToolKind): boolean {
	return RULE_LISTS.some((list) => rules[list].some((rule) => namesTool(rule, { tool, kind, paths: [] })));
}
