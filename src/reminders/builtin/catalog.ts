// Every built-in reminder type, declared once (see ../declaration.ts): the key registry
// (BUILTIN_KEYS), the `aside.reminders.*` settings (src/vscode/settings.ts), the labels the chat
// shows and the docs/reminder-keys.md table (keys.spec.ts) all come from this list, in this order.
// A new reminder adds its declaration here, its own file beside this one, its settings in
// package.json and its row in the docs (CONTRIBUTING.md, "Add a reminder").
import { declareReminder, type ReminderDeclaration } from '../declaration';
import { everyTurn, interval, onChange, oneShot } from '../policy';

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

export const SESSION_RESUME = declareReminder({
	type: 'sessionResume',
	key: 'session.resume',
	label: 'session resumed',
	purpose: 'The session was reopened: after a reload or restart, from the chat list, or as a copy of a chat open in another window.',
	introducedIn: '0.1.0',
	configurable: true,
	description: 'Tells the model that the session was reopened, and how (after a reload or restart, from the chat list, or as a copy of a chat open in another window).',
});

export const AGENT_NUDGE = declareReminder({
	type: 'agentNudge',
	key: 'agent.nudge',
	label: 'nudge',
	purpose: 'The final-step nudge (step limit reached: answer now) and the no-tool nudge (an empty reply).',
	introducedIn: '0.1.0',
	configurable: true,
	policy: everyTurn,
	description: 'Asks the model to answer on its final allowed step, and to continue after an empty reply.',
});

export const SESSION_DATE = declareReminder({
	type: 'sessionDate',
	key: 'session.date',
	label: 'date',
	purpose: 'Today\'s date, at the start of a session and whenever it changes.',
	introducedIn: '0.1.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model today\'s date at the start of a session and when the date changes.',
});

export const WORKSPACE_INSTRUCTIONS = declareReminder({
	type: 'workspaceInstructions',
	key: 'workspace.instructions',
	label: 'project instructions',
	purpose: 'Your ~/.claude/CLAUDE.md and the instruction files at the workspace root (AGENTS.md, CLAUDE.md, Copilot, Cline, Cursor, Roo), when new or changed.',
	introducedIn: '0.1.0',
	configurable: true,
	policy: onChange,
	description: 'Gives the model your `~/.claude/CLAUDE.md` and the instruction files at the workspace root (AGENTS.md, CLAUDE.md and the others `aside.instructions.files` names), at the start and whenever they change.',
});

export const EDITED_FILES = declareReminder({
	type: 'editedFiles',
	key: 'files.edited',
	label: 'edited files',
	purpose: 'Files the agent read or wrote that changed outside Aside\'s tools since, with a bounded diff or their new size.',
	introducedIn: '0.1.0',
	configurable: true,
	description: 'Tells the model when a file it read or wrote changed outside Aside\'s tools, with a bounded diff.',
});

export const EDIT_DIAGNOSTICS = declareReminder({
	type: 'editDiagnostics',
	key: 'edit.diagnostics',
	label: 'diagnostics',
	purpose: 'After an edit by Aside\'s tools: the problems it introduced or changed, and those already there as context.',
	introducedIn: '0.1.0',
	configurable: true,
	description: 'After the agent edits a file, tells it the problems (errors, warnings) the edit introduced, with the ones already there as context.',
});

// Notices ride a tool result (ToolResult.notices) rather than an injection: registered, so they
// may go on the wire, but never switchable and never in an injection record.
export const READ_TRUNCATED = declareReminder({
	type: 'readTruncated',
	key: 'read.truncated',
	label: 'truncated read',
	purpose: 'Rides a Read result that was cut short: which lines were shown and how to read the rest.',
	introducedIn: '0.1.0',
	configurable: false,
	description: 'Tells the model which lines of a file a Read showed, and how to read the rest.',
});

export const READ_EMPTY = declareReminder({
	type: 'readEmpty',
	key: 'read.empty',
	label: 'empty file',
	purpose: 'Rides a Read result of an empty file, so the empty content is not mistaken for a failed read.',
	introducedIn: '0.1.0',
	configurable: false,
	description: 'Tells the model that a file it read is empty.',
});

export const CONTEXT_USAGE = declareReminder({
	type: 'contextUsage',
	key: 'context.usage',
	label: 'context use',
	purpose: 'How much of the model\'s context window is in use, once it is at least half full.',
	introducedIn: '0.1.0',
	configurable: true,
	policy: interval(10),
	description: 'Tells the model how full its context window is, once it is at least half full.',
});

// Issue 13 (modes, plans, reviews): declared here so the key registry, settings and docs agree;
// each one's producer lives in its own file beside this one.
export const MODE_CONSTRAINTS = declareReminder({
	type: 'modeConstraints',
	key: 'mode.constraints',
	label: 'mode',
	purpose: 'What the agent may do in the permission mode now in effect: which tools need approval, what is refused, the protected paths; sent at the first delivery of a chat and on each effective change of mode.',
	introducedIn: '0.2.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model what it may do in the permission mode now in effect, at the start of a chat and whenever the mode changes.',
});

export const MODE_PLAN = declareReminder({
	type: 'modePlan',
	key: 'mode.plan',
	label: 'plan mode',
	purpose: 'The plan-mode workflow: the full template (read-only inspection, the proposal tags and shape) at the first request of a plan episode, then a one-line reference at the start of each later user turn of the episode.',
	introducedIn: '0.2.0',
	configurable: true,
	policy: everyTurn,
	description: 'In plan mode, tells the model how to explore and propose a plan: the full guidance once per plan episode, then a one-line reference.',
});

export const PLAN_REFERENCE = declareReminder({
	type: 'planReference',
	key: 'plan.reference',
	label: 'approved plan',
	purpose: 'The approved plan (bounded) and its file, once on a later turn while it may still be relevant; re-armed by compaction.',
	introducedIn: '0.2.0',
	configurable: true,
	policy: oneShot,
	description: 'Reminds the model of the approved plan and where its file is, once on a later turn.',
});

export const PATCH_USER_REVISED = declareReminder({
	type: 'patchUserRevised',
	key: 'patch.user-revised',
	label: 'your revision',
	purpose: 'After the user changed a proposed edit in the diff editor before accepting it: the applied content is authoritative; do not reapply the original.',
	introducedIn: '0.2.0',
	configurable: true,
	description: 'After you change a proposed edit in the diff editor before allowing it, tells the model that your text is what was applied.',
});

export const EDITS_VERIFY = declareReminder({
	type: 'editsVerify',
	key: 'edits.verify',
	label: 'verify',
	purpose: 'After a turn that changed at least two implementation files: suggests verifying the change (tests, build), and asks for evidence when an approved plan\'s verification is pending.',
	introducedIn: '0.2.0',
	configurable: true,
	policy: interval(10),
	description: 'After a turn that changed two or more implementation files, suggests running the tests or the build.',
});

// Issue 14 (tasks and sub-agents).
export const AGENTS_LISTING = declareReminder({
	type: 'agentsListing',
	key: 'agents.listing',
	label: 'agents',
	purpose: 'The agent profiles the Agent tool can start (name, one-line description, where a profile file comes from): in full at the first request of a chat, then only what was added, removed or changed.',
	introducedIn: '0.3.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model which agent profiles it can start with the Agent tool: all of them at the start of a chat, then only the changes when a profile file is added, removed or edited.',
});

export const AGENT_MAX_TURNS = declareReminder({
	type: 'agentMaxTurns',
	key: 'agent.max-turns',
	label: 'step budget',
	purpose: 'A sub-agent reached a share of its step budget (80 % by default): how many steps are left, and to wrap up; once per invocation, inside long tool loops.',
	introducedIn: '0.3.0',
	configurable: true,
	policy: oneShot,
	description: 'Tells a sub-agent, once, that most of its step budget is used, how many steps are left, and to wrap up.',
});

export const TASKS_NUDGE = declareReminder({
	type: 'tasksNudge',
	key: 'tasks.nudge',
	label: 'tasks',
	purpose: 'Open task rows no task write has touched for the stale interval: the open rows with full owner paths, the root\'s own apart from those of retained child agents, asking to reconcile a child\'s result or follow up before changing their status.',
	introducedIn: '0.3.0',
	configurable: true,
	policy: interval(8),
	description: 'Reminds the model of open tasks when no task was written for a while, and asks it to reconcile them.',
});

export const SESSION_RECOVERY = declareReminder({
	type: 'sessionRecovery',
	key: 'session.recovery',
	label: 'recovery',
	purpose: 'Work was cut off — Stop during a tool call or an answer, or a chat reopened after its last turn broke off — naming the tool calls that may have partial effects and that processes may still run.',
	introducedIn: '0.3.0',
	configurable: true,
	description: 'After you stop the agent while a tool or an answer is running, or reopen a chat whose last turn was cut off, tells the model which calls may have left partial effects, to check before continuing.',
});

// Issue 15 (context: compaction, changing prompt observations, prompt caching).
export const SESSION_ENVIRONMENT = declareReminder({
	type: 'sessionEnvironment',
	key: 'session.environment',
	label: 'environment',
	purpose: 'The environment the agent works in — OS, shell, workspace folders — kept out of the stable system prompt: in full at the first request of a chat, again when it changes, and again when compaction removed its delivery from the history.',
	introducedIn: '0.4.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model the operating system, shell and workspace folders, at the start of a chat and whenever they change.',
});

export const CONTEXT_COMPACTION = declareReminder({
	type: 'contextCompaction',
	key: 'context.compaction',
	label: 'compaction coming',
	purpose: 'Context use crossed aside.context.warnAt while automatic compaction is on: the chat will be compacted at aside.context.autoCompactAt, so what must survive belongs in the task list or the plan file; once per crossing.',
	introducedIn: '0.4.0',
	configurable: true,
	policy: everyTurn,
	description: 'Tells the model, once each time context use crosses aside.context.warnAt, that the chat will be compacted soon and to keep what must survive in the task list or plan file.',
});

export const COMPACT_FILE_REFERENCES = declareReminder({
	type: 'compactFileReferences',
	key: 'compact.file-references',
	label: 'files to re-read',
	purpose: 'After a compaction: the files whose contents the summarized part had read and the kept history no longer holds (path, size, when last read), to re-read before relying on them; once per compaction.',
	introducedIn: '0.4.0',
	configurable: true,
	description: 'After the chat is compacted, lists the files the model had read whose contents are no longer in its context, so it re-reads them before relying on them.',
});

// A notice like read.truncated: it frames the summary that stands in for a compacted prefix, in
// the replayed history; registered so it may go on the wire, never switchable, never recorded as a delivery.
export const CONTEXT_SUMMARY = declareReminder({
	type: 'contextSummary',
	key: 'context.summary',
	label: 'summary',
	purpose: 'Frames the summary that replaces the compacted part of a chat in every later request: that the earlier conversation is summarized, and that files must be re-read before relying on them.',
	introducedIn: '0.4.0',
	configurable: false,
	description: 'Frames the summary of a compacted chat.',
});

// Issue 16 (skills).
export const SKILLS_CATALOG = declareReminder({
	type: 'skillsCatalog',
	key: 'skills.catalog',
	label: 'skills',
	purpose: 'The skills of the workspace and the user (name, one-line description, where its SKILL.md is), bounded: in full at the first request of a chat, in full again when the list changes, and again after a compaction dropped its delivery; nothing when there are no skills.',
	introducedIn: '0.5.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model which skills there are (name and description), at the start of a chat and whenever a skill is added, removed or changed.',
});

export const SKILL_ATTACHMENT = declareReminder({
	type: 'skillAttachment',
	key: 'skill.attachment',
	label: 'skill',
	purpose: 'The body of each skill a message names as `$name`, with the skills it requires (`!$name`) first, each once; a requirement cycle or unknown requirement said as such; a skill already in context unchanged said so instead of sent again.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Gives the model the body of each skill you name as `$name` in a message, with the skills it requires.',
});

export const SKILLS_ACTIVATED = declareReminder({
	type: 'skillsActivated',
	key: 'skills.activated',
	label: 'skill activated',
	purpose: 'After a successful Read of a file matching a skill\'s `paths` globs: that skill\'s body, once per context and content.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Gives the model a skill\'s body after it reads a file matching the skill\'s paths, once per chat and content.',
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

// Issue 16 (what the person brings into the chat): @-mentions, staged in the mention stage of the
// turn's first request (src/mentions/, bodies in ./mentions.ts).
export const MENTION_FILE = declareReminder({
	type: 'mentionFile',
	key: 'mention.file',
	label: 'mentioned file',
	purpose: 'A file the user mentioned (`@path`, `@path#L10-40`): its content, bounded, with guidance to Read the rest; that it is already in context when this chat was given it unchanged; or why it is not attached (outside the workspace, binary, over the size cap, not found).',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Attaches the content of a file you mention with @path (a line range with #L10-40) to your message, once per chat and content.',
});

export const MENTION_FOLDER = declareReminder({
	type: 'mentionFolder',
	key: 'mention.folder',
	label: 'mentioned folder',
	purpose: 'A folder the user mentioned (`@path/`): a bounded listing of its entries, or why it is not attached.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Attaches a bounded listing of a folder you mention with @path/ to your message.',
});

export const MENTION_PROBLEMS = declareReminder({
	type: 'mentionProblems',
	key: 'mention.problems',
	label: 'problems',
	purpose: 'The workspace\'s current errors and warnings when the user wrote `@problems`, capped, errors first.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Attaches the workspace\'s current errors and warnings (capped) when you write @problems.',
});

export const MENTION_SELECTION = declareReminder({
	type: 'mentionSelection',
	key: 'mention.selection',
	label: 'selection',
	purpose: 'The active editor\'s selection when the user wrote `@selection`: its file, lines and text, bounded; or that nothing is selected.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Attaches the active editor\'s selection, with its file and lines, when you write @selection.',
});

export const MENTION_CHANGES = declareReminder({
	type: 'mentionChanges',
	key: 'mention.changes',
	label: 'changes',
	purpose: 'The working tree\'s uncommitted diff (through the built-in git extension) when the user wrote `@changes`, bounded; or that there is no repository or nothing changed.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Attaches the working tree\'s uncommitted changes (a bounded diff) when you write @changes.',
});

// A notice like read.truncated (src/tools/readPdf.ts): the seed's large-PDF guidance, positional.
export const READ_PDF_PAGES = declareReminder({
	type: 'readPdfPages',
	key: 'read.pdf-pages',
	label: 'PDF pages',
	purpose: 'Rides a Read result of a PDF that showed only some of its pages (or found no text in them): the page count and to read bounded page ranges.',
	introducedIn: '0.5.0',
	configurable: false,
	description: 'Tells the model how many pages a PDF has, which it was shown, and to Read it with pages: "START-END".',
});

// Issue 18, slice C (forks).
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

// The chat's goal (src/features/goal/chatGoal.ts, docs/goals.md): its facts as an observation, and its token budget's thresholds.
export const GOAL_CURRENT = declareReminder({
	type: 'goalCurrent',
	key: 'goal.current',
	label: 'goal',
	purpose: 'The goal the user set for the chat: its objective, token budget and spend, and the approved plan file it implements; once, that no goal is active after it was completed or cleared.',
	introducedIn: '0.5.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model the goal you set for the chat (objective, token budget and spend, the plan it implements), and once that none is active after you complete or clear it.',
});

export const GOAL_BUDGET = declareReminder({
	type: 'goalBudget',
	key: 'goal.budget',
	label: 'goal budget',
	purpose: 'The goal\'s token budget: each newly passed 50 %, 80 % and 100 % threshold once, and a change of the budget with its old and new limits.',
	introducedIn: '0.5.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model when the goal\'s token spend passes 50 %, 80 % and 100 % of its budget, and when you change the budget.',
});

// Issue 18, slice B (restore): the pending notice after a files or chat restore (sessionRewind.ts).
export const SESSION_REWIND = declareReminder({
	type: 'sessionRewind',
	key: 'session.rewind',
	label: 'rewind',
	purpose: 'The user restored files, the chat or both to before one of their messages: which turns were rolled back and what became of each file, and that earlier statements about those files no longer hold.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'After you restore files, the chat or both to before a message (Restore…), tells the model what was rolled back (turns, files) and that what it said earlier about those files no longer holds.',
});

export const PLAN_REJECTED = declareReminder({
	type: 'planRejected',
	key: 'plan.rejected',
	label: 'plan rejected',
	purpose: 'The user rejected the plan the model proposed, with their note when they wrote one: not to carry it out. Carries the user\'s authority; one-shot, at the next request.',
	introducedIn: '0.6.0',
	configurable: true,
	description: 'After you reject a proposed plan on the plan card, tells the model at the next request that you rejected it, with your note.',
});

/** Every built-in type, in the order of docs/reminder-keys.md. */
export const BUILTIN_REMINDER_TYPES: readonly ReminderDeclaration[] = [
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
	GOAL_CURRENT,
	GOAL_BUDGET,
	SESSION_REWIND,
	PLAN_REJECTED,
];

