// What each built-in reminder type is, for settings and docs: `configurable` types get an
// `aside.reminders.<type>.enabled` setting, and those with an interval an `.interval` one.
export interface BuiltinReminderType {
	readonly type: string;
	readonly key: string;
	readonly label: string;
	/** False for types that carry the user's own words or decisions: they are always delivered. */
	readonly configurable: boolean;
	/** The default interval, in turns, for types with an interval policy. */
	readonly interval?: number;
	/** One sentence for the settings UI. */
	readonly description: string;
}

export const USER_STEERING: BuiltinReminderType = {
	type: 'userSteering',
	key: 'steering.user',
	label: 'steering',
	configurable: false,
	description: 'Messages typed while the agent works, delivered at its next step with the user\'s authority.',
};

export const PERMISSION_VERDICT: BuiltinReminderType = {
	type: 'permissionVerdict',
	key: 'permission.verdict',
	label: 'permission',
	configurable: true,
	description: 'Tells the model that you granted or denied a tool call, binding for its next call.',
};

export const SESSION_RESUME: BuiltinReminderType = {
	type: 'sessionResume',
	key: 'session.resume',
	label: 'session resumed',
	configurable: true,
	description: 'Tells the model that the session was reopened, and how (after a reload or restart, from the chat list, or as a copy of a chat open in another window), and whether its last turn was interrupted.',
};

export const AGENT_NUDGE: BuiltinReminderType = {
	type: 'agentNudge',
	key: 'agent.nudge',
	label: 'nudge',
	configurable: true,
	description: 'Asks the model to answer on its final allowed step, and to continue after an empty reply.',
};

export const CONTEXT_USAGE: BuiltinReminderType = {
	type: 'contextUsage',
	key: 'context.usage',
	label: 'context use',
	configurable: true,
	interval: 10,
	description: 'Tells the model how full its context window is, once it is at least half full.',
};

export const SESSION_DATE: BuiltinReminderType = {
	type: 'sessionDate',
	key: 'session.date',
	label: 'date',
	configurable: true,
	description: 'Tells the model today\'s date at the start of a session and when the date changes.',
};

export const WORKSPACE_INSTRUCTIONS: BuiltinReminderType = {
	type: 'workspaceInstructions',
	key: 'workspace.instructions',
	label: 'project instructions',
	configurable: true,
	description: 'Gives the model the AGENTS.md (and AGENTS.local.md) at the workspace root, at the start and whenever they change.',
};

export const EDITED_FILES: BuiltinReminderType = {
	type: 'editedFiles',
	key: 'files.edited',
	label: 'edited files',
	configurable: true,
	description: 'Tells the model when a file it read or wrote changed outside Aside\'s tools, with a bounded diff.',
};

export const EDIT_DIAGNOSTICS: BuiltinReminderType = {
	type: 'editDiagnostics',
	key: 'edit.diagnostics',
	label: 'diagnostics',
	configurable: true,
	description: 'After the agent edits a file, tells it the problems (errors, warnings) the edit introduced, with the ones already there as context.',
};

export const BUILTIN_REMINDER_TYPES: readonly BuiltinReminderType[] = [USER_STEERING, PERMISSION_VERDICT, SESSION_RESUME, AGENT_NUDGE, CONTEXT_USAGE, SESSION_DATE, WORKSPACE_INSTRUCTIONS, EDITED_FILES, EDIT_DIAGNOSTICS];
