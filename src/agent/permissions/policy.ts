// The permission policy: whether a tool call runs, waits for the person, or is refused — and why,
// in a sentence. Pure. The order (docs/permissions.md):
//   1. an untrusted workspace (Restricted Mode) refuses every file change, command and web fetch,
//      and plan mode every file change and command (a web fetch asks there);
//   2. a deny rule refuses;
//   3. a protected path, or a file the tool says must always be asked about, asks (every mode);
//   4. an ask rule asks;
//   5. allow rules that cover the whole call allow;
//   6. otherwise the mode decides.
import type { ToolKind } from '../../tools/tool';
import type { PermissionMode } from '../../vocabulary/permissionModes';
import { proposeAllowRules } from './alwaysAllow';
import { splitCommandLine } from './commandLine';
import { protectedReason, workspaceRelative } from './protectedPaths';
import { allowedBy, matchesCall, type PermissionRule, type PermissionRules, NO_RULES, type RuleSubject } from './rules';
import { isMcpRuleName } from '../../mcp/names';
import { builtinToolFacts } from '../../tools/toolFacts';

/** What the policy reads besides the mode and the call: the rules, workspace trust, Aside's storage. */
export interface PermissionContext {
	readonly rules: PermissionRules;
	readonly trusted: boolean;
	/** Aside's own storage folders, absolute (protected). */
	readonly storage: readonly string[];
	/** The edit tools the model is offered (`aside.tools.edit`), for what it is told; every one when absent. */
	readonly editTools?: readonly string[];
}

/** No rules, a trusted workspace, no storage inside it. */
export const OPEN_CONTEXT: PermissionContext = { rules: NO_RULES, trusted: true, storage: [] };

export interface PolicyCall {
	readonly tool: string;
	readonly kind: ToolKind;
	/** A command's line (Run; RunOutput and RunStop: their process's). */
	readonly command?: string;
	/** Every file the call declares (Tool.touches: reads and writes), absolute and confined. */
	readonly paths: readonly string[];
	/** The host a web fetch reaches (WebFetch's URL's): what its rules match. */
	readonly domain?: string;
	/** The tool's own reason to ask in every mode (a file with several hard links, a fetch from a local address), if any. */
	readonly alwaysAsk?: string;
}

export type PolicyVerdict = 'allow' | 'ask' | 'deny';

export interface PolicyDecision {
	readonly verdict: PolicyVerdict;
	/** Why, in words the person and the model read: "the rule Run(git push*) in "ask" asks for it". */
	readonly reason: string;
	/** Whether the mode alone decided (no rule, no protected path, no trust or plan refusal). */
	readonly byMode: boolean;
	/** When the mode alone asks: the allow rules that would let calls like this one run without asking (the card's "Always allow"). */
	readonly allowRules?: readonly string[];
}

const KIND_WORDS: Record<ToolKind, string> = { read: 'reading', write: 'a file change', run: 'a command', fetch: 'fetching a web page' };
const MCP_WORDS: Record<ToolKind, string> = { read: 'a read-only MCP tool call', write: 'an MCP tool call', run: 'an MCP tool call', fetch: 'an MCP tool call' };

/** What the mode alone says of a call of `kind`. */
export function modeVerdict(mode: PermissionMode, kind: ToolKind): PolicyVerdict {
	if (kind === 'read') {
		return 'allow';
	}
	if (kind === 'fetch') {
		// It changes nothing, so plan mode offers it; it reaches the network, so only full access runs it unasked.
		return mode === 'full-access' ? 'allow' : 'ask';
	}
	switch (mode) {
		case 'ask':
			return 'ask';
		case 'auto-edit':
			return kind === 'write' ? 'allow' : 'ask';
		case 'full-access':
			return 'allow';
		case 'plan':
			return 'deny';
	}
}

function quoted(rules: readonly PermissionRule[]): string {
	return rules.map((rule) => rule.text).join(', ');
}

export function decidePermission(call: PolicyCall, mode: PermissionMode, context: PermissionContext, roots: readonly string[]): PolicyDecision {
	const changes = call.kind === 'write' || call.kind === 'run';
	if ((changes || call.kind === 'fetch') && !context.trusted) {
		return { verdict: 'deny', reason: 'the workspace is not trusted (Restricted Mode), so Aside only reads and searches', byMode: false };
	}
	if (changes && mode === 'plan') {
		return { verdict: 'deny', reason: 'plan mode is read-only: nothing is changed or run', byMode: false };
	}
	const subject: RuleSubject = {
		tool: call.tool,
		kind: call.kind,
		...(call.command !== undefined ? { command: splitCommandLine(call.command) } : {}),
		...(call.domain !== undefined ? { domain: call.domain } : {}),
		paths: call.paths.map((path) => workspaceRelative(path, roots) ?? path),
	};
	const denied = context.rules.deny.find((rule) => matchesCall(rule, subject));
	if (denied) {
		return { verdict: 'deny', reason: `the rule ${denied.text} in aside.permissions.rules "deny" refuses it`, byMode: false };
	}
	if (builtinToolFacts(call.tool)?.ruledAsRun === true) {
		// RunOutput and RunStop reach only the chat's own background processes: a deny rule refuses them, nothing asks.
		return { verdict: 'allow', reason: 'it reads or stops a background process of this chat, which never asks', byMode: false };
	}
	if (call.kind === 'write') {
		const guarded = call.paths.map((path) => protectedReason(path, roots, context.storage)).find((reason) => reason !== undefined);
		if (guarded !== undefined) {
			return { verdict: 'ask', reason: `${guarded}: Aside asks before changing it in every mode`, byMode: false };
		}
	}
	if (call.alwaysAsk !== undefined) {
		return { verdict: 'ask', reason: call.alwaysAsk, byMode: false };
	}
	const asked = context.rules.ask.find((rule) => matchesCall(rule, subject));
	if (asked) {
		return { verdict: 'ask', reason: `the rule ${asked.text} in aside.permissions.rules "ask" asks for it`, byMode: false };
	}
	const allowed = allowedBy(context.rules.allow, subject);
	if (allowed) {
		return { verdict: 'allow', reason: `allowed by ${quoted(allowed)} in aside.permissions.rules "allow"`, byMode: false };
	}
	const verdict = modeVerdict(mode, call.kind);
	const unallowable = subject.command?.unallowable;
	const what = isMcpRuleName(call.tool) ? MCP_WORDS[call.kind] : KIND_WORDS[call.kind];
	const reason =
		verdict === 'allow'
			? `${mode} mode runs ${what} without asking`
			: `${mode} mode asks before ${what}${unallowable !== undefined && context.rules.allow.length > 0 ? ` (no allow rule covers this line: ${unallowable})` : ''}`;
	const allowRules = verdict === 'ask' ? proposeAllowRules(subject, context.rules.allow) : undefined;
	return { verdict, reason, byMode: true, ...(allowRules ? { allowRules } : {}) };
}
