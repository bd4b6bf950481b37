// `mode.constraints`: what the model may do in the permission mode in effect for this request —
// what runs without asking, what waits for the user, what is refused, the protected paths, and
// that destructive commands stay its own responsibility. On change: the body depends only on the
// mode in effect (a one-message override, else the chat's), the rules and workspace trust, so it
// is delivered at the first request of a chat and again only when one of those changed — an
// override and the return from it are changes, an unchanged mode never repeats it.
import type { PermissionMode } from '../../vocabulary/permissionModes';
import type { PermissionContext } from '../../agent/permissions/policy';
import { PROTECTED_SUMMARY } from '../../agent/permissions/protectedPaths';
import { RULE_LISTS, type PermissionRules } from '../../agent/permissions/rules';
import { WORKSPACE_TOOLS } from '../../tools/registry';
import type { ToolKind } from '../../tools/tool';
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { MODE_CONSTRAINTS } from './catalog/plans';
import { observation } from './observations';

/** The most rules of one list the body names; the rest are counted. */
export const MAX_LISTED_RULES = 20;

// The workspace's tools only: the task list's (TaskWrite, TaskList) are neither reading nor searching, and every mode offers them.
const namesOf = (kind: ToolKind, editTools?: readonly string[]): string =>
	WORKSPACE_TOOLS.filter((tool) => tool.kind === kind && (kind !== 'write' || editTools === undefined || editTools.includes(tool.name)))
		.map((tool) => tool.name)
		.join(', ') || 'none offered';
const reading = (): string => `reading and searching (${namesOf('read')})`;
const commands = (): string => `commands (${namesOf('run')})`;

/**
 * What `mode` lets run freely, asks for and refuses; `changing` names the file changes (only the edit
 * tools offered: the model is not told of one it does not have).
 */
const WHAT_THE_MODE_DOES: Record<PermissionMode, (changing: string) => { readonly free: string; readonly approval: string; readonly refused: string }> = {
	ask: (changing) => ({ free: reading(), approval: `${changing} and ${commands()}: each waits for the user, and a refusal comes back as the tool's result`, refused: 'nothing, by the mode' }),
	'auto-edit': (changing) => ({ free: `${reading()} and ${changing}`, approval: `${commands()}: each waits for the user`, refused: 'nothing, by the mode' }),
	plan: (changing) => ({ free: reading(), approval: 'nothing: this mode changes nothing', refused: `${changing} and ${commands()}: plan mode is read-only, and those tools are not offered` }),
	'full-access': (changing) => ({ free: `${reading()}, ${changing} and ${commands()}`, approval: 'only what a rule or a protected path asks for (below)', refused: 'only what a deny rule refuses' }),
};

/** What `mode` does with a web fetch (WebFetch, a `fetch` tool: every mode offers it; modeVerdict in policy.ts). */
const WEB_FETCHES: Record<PermissionMode, string> = {
	ask: 'each waits for the user',
	'auto-edit': 'each waits for the user',
	plan: 'each waits for the user (offered: a fetch changes nothing)',
	'full-access': 'run without asking',
};

function listed(rules: PermissionRules): string[] {
	return RULE_LISTS.flatMap((list) => {
		const all = rules[list];
		if (all.length === 0) {
			return [];
		}
		const shown = all.slice(0, MAX_LISTED_RULES).map((rule) => rule.text).join(', ');
		return [`  ${list}: ${shown}${all.length > MAX_LISTED_RULES ? ` and ${all.length - MAX_LISTED_RULES} more` : ''}`];
	});
}

/** The body for `mode` under `context`: a pure function of the two, so on-change compares what the model is told. */
export function modeConstraintsBody(mode: PermissionMode, context: PermissionContext): string {
	const responsibility = 'Destructive commands (deleting files, resetting or force-pushing git, dropping data) remain your responsibility whatever runs without asking: avoid them unless the user asked for exactly that.';
	if (!context.trusted) {
		return [
			`Permission mode: ${mode}, but the workspace is not trusted (Restricted Mode): you may only read and search (${namesOf('read')}). Every file change and command is refused, whatever the mode and the rules, until the user trusts the workspace.`,
			responsibility,
		].join('\n');
	}
	const does = WHAT_THE_MODE_DOES[mode](`file changes (${namesOf('write', context.editTools)})`);
	const rules = listed(context.rules);
	return [
		`Permission mode now: ${mode}.`,
		`- Runs without asking: ${does.free}.`,
		`- Needs the user's approval: ${does.approval}.`,
		`- Refused: ${does.refused}.`,
		`- Web fetches (WebFetch): ${WEB_FETCHES[mode]}, unless a rule says otherwise; one that reaches the user's own computer or network (a loopback, private or link-local address) always waits for the user.`,
		...(rules.length === 0
			? []
			: [
					'- The user\'s rules (aside.permissions.rules; deny before ask before allow, and an allowed command line must have every command in it allowed):',
					...rules,
				]),
		`- Protected paths: any change to ${PROTECTED_SUMMARY} needs the user's approval in every mode.`,
		`- ${responsibility}`,
	].join('\n');
}

// A changing prompt observation (observations.ts): after a compaction dropped its delivery the
// model is told its mode again; a change may come mid-turn (the person picks another mode while the
// agent works), so it is looked for at every request.
export const modeConstraints: ReminderDefinition = observation(
	rosterDefinition(MODE_CONSTRAINTS, {
		scope: 'all',
		trigger: ({ facts }) => facts.permissions !== undefined,
		content: ({ facts }) => {
			const permissions = facts.permissions;
			return permissions ? modeConstraintsBody(permissions.mode, permissions.context) : { body: null };
		},
	}),
	'any-request',
);
