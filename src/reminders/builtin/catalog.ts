// Every built-in reminder type, declared once (see ../declaration.ts): the key registry
// (BUILTIN_KEYS), the `aside.reminders.*` settings (src/vscode/settings.ts), the labels the chat
// shows and the docs/reminder-keys.md table (keys.spec.ts) all come from this list, in this order.
// A new reminder adds its declaration to the file of its area in ./catalog/ and to the list
// below (a chat feature's, to its feature's `reminders`), its own file beside this one, its
// settings in package.json and its row in the docs (CONTRIBUTING.md, "Add a reminder").
import { declareReminder, type ReminderDeclaration } from '../declaration';
import { interval } from '../policy';
import { HOOK_OUTCOME, PERMISSION_VERDICT, USER_STEERING } from './catalog/steering';
import { SESSION_DATE, SESSION_ENVIRONMENT, SESSION_RECOVERY, SESSION_RESUME } from './catalog/session';
import { EDITED_FILES, EDIT_DIAGNOSTICS, READ_EMPTY, READ_PDF_PAGES, READ_TRUNCATED, WORKSPACE_INSTRUCTIONS } from './catalog/files';
import { COMPACT_FILE_REFERENCES, CONTEXT_COMPACTION, CONTEXT_SUMMARY, CONTEXT_USAGE } from './catalog/context';
import { EDITS_VERIFY, MODE_CONSTRAINTS, MODE_PLAN, PATCH_USER_REVISED, PLAN_REFERENCE, PLAN_REJECTED } from './catalog/plans';
import { AGENTS_LISTING, AGENT_MAX_TURNS, AGENT_NUDGE, TASKS_NUDGE } from './catalog/agents';
import { SKILLS_ACTIVATED, SKILLS_CATALOG, SKILL_ATTACHMENT } from './catalog/skills';
import { MENTION_CHANGES, MENTION_FILE, MENTION_FOLDER, MENTION_PROBLEMS, MENTION_SELECTION } from './catalog/mentions';

// Forks (docs/forks.md).
export const SESSION_FORK = declareReminder({
	type: 'sessionFork',
	key: 'session.fork',
	label: 'fork',
	purpose: 'This chat is a fork: the source chat it was copied from and, for a worktree fork, the worktree folder, branch and base commit, sparse and regenerated from the fork\'s durable record; once, with the first request, the report of the files restored into the worktree.',
	introducedIn: '0.5.0',
	configurable: true,
	policy: interval(20),
	description: 'Tells the model that the chat is a fork of another one (and, in a git worktree, which folder, branch and base commit), at its first request and then every few turns.',
});

// Restore: the pending notice after a files or chat restore (sessionRewind.ts).
export const SESSION_REWIND = declareReminder({
	type: 'sessionRewind',
	key: 'session.rewind',
	label: 'rewind',
	purpose: 'The user restored files, the chat or both to before one of their messages: which turns were rolled back and what became of each file, and that earlier statements about those files no longer hold.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'After you restore files, the chat or both to before a message (Restore…), tells the model what was rolled back (turns, files) and that what it said earlier about those files no longer holds.',
});

const TYPES: ReminderDeclaration[] = [
	USER_STEERING,
	PERMISSION_VERDICT,
	SESSION_RESUME,
	AGENT_NUDGE,
	SESSION_DATE,
	WORKSPACE_INSTRUCTIONS,
	EDITED_FILES,
	EDIT_DIAGNOSTICS,
	READ_TRUNCATED,
	READ_EMPTY,
	CONTEXT_USAGE,
	MODE_CONSTRAINTS,
	MODE_PLAN,
	PLAN_REFERENCE,
	PATCH_USER_REVISED,
	EDITS_VERIFY,
	AGENTS_LISTING,
	AGENT_MAX_TURNS,
	TASKS_NUDGE,
	SESSION_RECOVERY,
	SESSION_ENVIRONMENT,
	CONTEXT_COMPACTION,
	COMPACT_FILE_REFERENCES,
	CONTEXT_SUMMARY,
	SKILLS_CATALOG,
	SKILL_ATTACHMENT,
	SKILLS_ACTIVATED,
	HOOK_OUTCOME,
	MENTION_FILE,
	MENTION_FOLDER,
	MENTION_PROBLEMS,
	MENTION_SELECTION,
	MENTION_CHANGES,
	READ_PDF_PAGES,
	SESSION_FORK,
	SESSION_REWIND,
	PLAN_REJECTED,
];

/**
 * Every built-in type, in the order of docs/reminder-keys.md: the core's above, then the chat
 * features' (src/features/), registered by the feature list when it loads (keys.ts).
 */
export const BUILTIN_REMINDER_TYPES: readonly ReminderDeclaration[] = TYPES;

/** Adds the chat features' types after the core's (only keys.ts calls it, keeping the key registry equal). */
export function addReminderTypes(declarations: readonly ReminderDeclaration[]): void {
	for (const declaration of declarations) {
		if (TYPES.some((type) => type.type === declaration.type || type.key === declaration.key)) {
			throw new Error(`The reminder type ${declaration.type} (${declaration.key}) is declared twice.`);
		}
	}
	TYPES.push(...declarations);
}
