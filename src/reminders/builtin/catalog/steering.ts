// The person's words and decisions reaching a running agent: their messages, their verdicts on
// tool calls, and what their hooks decided. Each carries the user's authority, so none can be
// switched off.
// Each is added to BUILTIN_REMINDER_TYPES in ../catalog.ts, in the order of docs/reminder-keys.md.
import { declareReminder } from '../../declaration';

export const USER_STEERING = declareReminder({
	type: 'userSteering',
	key: 'steering.user',
	label: 'steering',
	purpose: 'A message the user typed while the agent was working; states that it carries the user\'s authority.',
	introducedIn: '0.1.0',
	configurable: false,
	description: 'Messages typed while the agent works, delivered at its next step with the user\'s authority.',
});

export const PERMISSION_VERDICT = declareReminder({
	type: 'permissionVerdict',
	key: 'permission.verdict',
	label: 'permission',
	purpose: 'The user\'s grant or denial of a tool call, naming the tool; binding for the next call.',
	introducedIn: '0.1.0',
	// Never switchable: the model must always learn that a call was refused.
	configurable: false,
	description: 'Tells the model that you granted or denied a tool call, binding for its next call.',
});

// A turn event carrying the person's own policy (their hooks' decisions): always delivered, like a
// permission verdict's denial — the model must not retry a refused call blind (docs/hooks.md).
export const HOOK_OUTCOME = declareReminder({
	type: 'hookOutcome',
	key: 'hook.outcome',
	label: 'hook',
	purpose: 'What a hook the user configured decided: a PreToolUse hook refused a tool call (it did not run), a PostToolUse hook objected to one, either added context, or a Stop hook kept the turn going; with the hook\'s words.',
	introducedIn: '0.5.0',
	configurable: false,
	description: 'What your hooks decided: a tool call refused, objected to or given context, or a turn kept going by a Stop hook.',
});
