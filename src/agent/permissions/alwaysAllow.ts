// "Always allow": the allow rules that would let a call like this one run without asking from now
// on, proposed from the call itself (docs/permissions.md), and their merge into the person's own
// `aside.permissions.rules` (user settings only: the rules are an application-scope setting). A
// proposal is shown before anything is saved, and every rule proposed is checked to parse and to
// cover the call: what the card shows is what would allow it.
import { allowedBy, EDIT_FAMILY, parsePermissionRules, type PermissionRule, type RuleSubject } from './rules';
import { isMcpRuleName } from '../../mcp/names';

/** More than this many rules for one call is no longer "this", it is a list to write by hand. */
const MAX_PROPOSED = 3;

/** Subcommand-like words after the program: `npm run build`, `git status`, `make test`. */
const MAX_SUBCOMMANDS = 2;
const PROGRAM = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9_:-]*$/;

/**
 * Programs whose next word is code, a command or a script to run rather than a subcommand: a
 * prefix rule over them would allow anything, so only the exact command is proposed.
 */
const RUNS_ANYTHING = new Set([
	'sudo', 'doas', 'su', 'env', 'xargs', 'exec', 'eval', 'command', 'builtin', 'nohup', 'nice', 'time', 'timeout', 'watch', 'strace', 'ssh',
	'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh', 'pwsh', 'powershell', 'cmd',
	'python', 'python3', 'node', 'deno', 'bun', 'ruby', 'perl', 'php', 'lua', 'osascript',
]);

/** A character picomatch would read as a pattern rather than as itself. */
const GLOB_SPECIAL = /[*?[\]{}()!+@,]/;

/**
 * The rule for one command of a line: `program sub… *` (the program with up to two subcommand
 * words, with or without more arguments) when it has a subcommand, else the command exactly.
 */
function commandRule(part: string): string {
	const words = part.split(' ');
	const [program = ''] = words;
	if (!PROGRAM.test(program) || RUNS_ANYTHING.has(program.toLowerCase())) {
		return `Run(${part})`;
	}
	let count = 0;
	while (count < MAX_SUBCOMMANDS && SUBCOMMAND.test(words[count + 1] ?? '')) {
		count++;
	}
	return count === 0 ? `Run(${part})` : `Run(${words.slice(0, count + 1).join(' ')} *)`;
}

/** The rule for one file: every change under its folder (`src/**`), the file itself at the top level. */
function pathRule(path: string): string | undefined {
	const segments = path.split('/');
	const folders = segments.slice(0, -1);
	// A folder named like a pattern (`[id]`, `(group)`) cannot be written as itself: its parent stands in.
	const plain = folders.findIndex((segment) => GLOB_SPECIAL.test(segment));
	const kept = plain < 0 ? folders : folders.slice(0, plain);
	if (kept.length > 0) {
		return `${EDIT_FAMILY}(${kept.join('/')}/**)`;
	}
	const name = segments.at(-1) ?? '';
	return name === '' || GLOB_SPECIAL.test(name) ? undefined : `${EDIT_FAMILY}(${name})`;
}

/** One rule of the proposal, parsed as the setting would parse it; undefined when it would be refused. */
function parsedAllowRule(text: string): PermissionRule | undefined {
	const { rules, problems } = parsePermissionRules({ allow: [text] });
	return problems.length === 0 ? rules.allow[0] : undefined;
}

/**
 * The allow rules that would let this call, and calls like it, run without asking — only for the
 * commands or files the rules in place do not cover already — or undefined when no allow rule can
 * express it (a line with a substitution or a redirection, a path outside the workspace or named
 * like a pattern, more than three rules). `existing`: the allow rules in effect. The caller offers
 * it only when the mode alone asked (never over a protected path, an ask rule, or in plan mode).
 */
export function proposeAllowRules(subject: RuleSubject, existing: readonly PermissionRule[]): readonly string[] | undefined {
	let items: readonly RuleSubject[];
	let ruleFor: (item: RuleSubject) => string | undefined;
	if (isMcpRuleName(subject.tool)) {
		// An MCP tool: the rule is its name (its server's calls are not split into patterns).
		items = [subject];
		ruleFor = (item) => item.tool;
	} else if (subject.kind === 'run') {
		const { command } = subject;
		if (!command || command.unallowable !== undefined) {
			return undefined;
		}
		items = command.parts.map((part) => ({ ...subject, command: { parts: [part] } }));
		ruleFor = (item) => commandRule(item.command?.parts[0] ?? '');
	} else if (subject.kind === 'fetch') {
		// A web fetch: its host, exactly (Claude Code's `WebFetch(domain:…)`).
		if (subject.domain === undefined) {
			return undefined;
		}
		items = [subject];
		ruleFor = (item) => `${item.tool}(domain:${item.domain ?? ''})`;
	} else if (subject.kind === 'write') {
		// Shallow files first, so one rule for `src/**` stands for `src/lib/a.ts` as well.
		const paths = [...new Set(subject.paths)].sort((a, b) => a.split('/').length - b.split('/').length);
		items = paths.map((path) => ({ ...subject, paths: [path] }));
		ruleFor = (item) => pathRule(item.paths[0] ?? '');
	} else {
		return undefined;
	}
	if (items.length === 0) {
		return undefined;
	}
	const proposed: PermissionRule[] = [];
	for (const item of items) {
		if (allowedBy([...existing, ...proposed], item)) {
			continue;
		}
		const text = ruleFor(item);
		const rule = text === undefined ? undefined : parsedAllowRule(text);
		if (!rule || !allowedBy([rule], item)) {
			return undefined;
		}
		proposed.push(rule);
	}
	if (proposed.length === 0 || proposed.length > MAX_PROPOSED || !allowedBy([...existing, ...proposed], subject)) {
		return undefined;
	}
	return proposed.map((rule) => rule.text);
}

/** What saving the rules did to the setting's value. */
export type AllowRulesMerge =
	| { readonly ok: true; readonly value: Record<string, unknown>; readonly added: readonly string[] }
	| { readonly ok: false; readonly reason: string };

/**
 * `rules` added at the end of "allow" in the setting's user value, which is otherwise kept as
 * written: every list, every rule (valid or not) and their order. A rule already there is not
 * added twice. A value that is not an object, or an "allow" that is not a list, cannot take them
 * without losing something, so it is left alone.
 */
export function mergeAllowRules(value: unknown, rules: readonly string[]): AllowRulesMerge {
	if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
		return { ok: false, reason: 'its value in your user settings is not an object such as { "allow": [] }' };
	}
	const current = (value ?? {}) as Record<string, unknown>;
	const allow: unknown = current.allow ?? [];
	if (!Array.isArray(allow)) {
		return { ok: false, reason: 'its "allow" in your user settings is not a list' };
	}
	const entries: readonly unknown[] = allow;
	const present = new Set(entries.map((entry) => (typeof entry === 'string' ? entry.trim() : entry)));
	const added = [...new Set(rules)].filter((rule) => !present.has(rule));
	return { ok: true, value: { ...current, allow: [...entries, ...added] }, added };
}

/** The person's own value of `aside.permissions.rules`: read from, and written to, their user settings only. */
export interface UserRulesSetting {
	/** The value in the user settings (not the effective one); undefined when unset there. */
	read(): unknown;
	write(value: Record<string, unknown>): PromiseLike<void>;
}

export type SavedRules = { readonly ok: true; readonly added: readonly string[] } | { readonly ok: false; readonly reason: string };

/** Merges `rules` into the user settings' "allow" and writes the result when something was added. */
export async function saveAllowRules(setting: UserRulesSetting, rules: readonly string[]): Promise<SavedRules> {
	const merged = mergeAllowRules(setting.read(), rules);
	if (!merged.ok) {
		return merged;
	}
	if (merged.added.length > 0) {
		await setting.write(merged.value);
	}
	return { ok: true, added: merged.added };
}
