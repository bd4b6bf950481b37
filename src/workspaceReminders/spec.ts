// A workspace reminder as its file declares it (`.aside/reminders/<name>.md`: YAML frontmatter,
// then the body; docs/workspace-reminders.md). This is what the parser gives the two readers of
// these files: the agent, which registers each valid one with the reminder engine under
// `workspace.<key>`, and the language server, which reports the problems on the file as the
// person types. A file with any error is never registered (its problems say why).
import type { PermissionMode } from '../vocabulary/permissionModes';

/** The `policy` field: `every | on-change | once | interval: N` (N whole turns, at least 1). */
export type WorkspaceReminderPolicy = { readonly kind: 'every' } | { readonly kind: 'on-change' } | { readonly kind: 'once' } | { readonly kind: 'interval'; readonly turns: number };

/**
 * The `when` field: a trigger on what happened in the turn; every condition given must hold.
 * Globs are workspace-relative (picomatch), each a string or a list of them.
 */
export interface WorkspaceReminderWhen {
	/** After a successful Read of a matching file. */
	readonly read?: readonly string[];
	/** After the agent's own successful edit (Edit, Write, ApplyPatch) of a matching file. */
	readonly edited?: readonly string[];
	/** Only while the chat is in that permission mode. */
	readonly mode?: PermissionMode;
	/** After a call of that tool (Aside's tool name). */
	readonly tool?: string;
}

export interface WorkspaceReminderSpec {
	/** The file's own key, `[A-Za-z0-9._-]+`; on the wire it is `workspace.<key>`. */
	readonly key: string;
	/** The row label (defaults to the key). */
	readonly label: string;
	readonly policy: WorkspaceReminderPolicy;
	/** Absent: a roster reminder evaluated at every WAIT under its policy. */
	readonly when?: WorkspaceReminderWhen;
	/** The body as written, with its `{{files}}`, `{{date}}`, `{{mode}}` placeholders unexpanded. */
	readonly body: string;
}

/** A zero-based position, as the Language Server Protocol counts (line, UTF-16 character). */
export interface FilePosition {
	readonly line: number;
	readonly character: number;
}

export interface FileRange {
	readonly start: FilePosition;
	readonly end: FilePosition;
}

/** One problem of a reminder file: what is wrong and where, in words the person can act on. */
export interface ReminderFileProblem {
	readonly severity: 'error' | 'warning';
	/** Stable id of the kind of problem (`unknown-field`, `reserved-key`, `reminder-marker`, …). */
	readonly code: string;
	readonly message: string;
	readonly range: FileRange;
}

/** What parsing one file gives: the reminder when the file has no error, and every problem found. */
export interface ParsedReminderFile {
	readonly spec?: WorkspaceReminderSpec;
	readonly problems: readonly ReminderFileProblem[];
}

/** The placeholders a body may use, and nothing else. */
export const REMINDER_PLACEHOLDERS = ['files', 'date', 'mode'] as const;
export type ReminderPlaceholder = (typeof REMINDER_PLACEHOLDERS)[number];

/** The prefix of every workspace reminder's key on the wire. */
export const WORKSPACE_KEY_PREFIX = 'workspace.';
