// The host⇄webview protocol, declared once and imported by both sides; each side validates every
// incoming message at its one entry point, logging and dropping an invalid one. The webview posts
// `ready`; the host answers with a complete `snapshot`, then small deltas, each with `seq` one more
// than the last: a webview that sees a gap posts `ready` again. Enums are the domain's own lists.
import * as z from 'zod';
import { PERMISSION_MODES } from '../vocabulary/permissionModes';
import { PLAN_DECISIONS } from '../vocabulary/planDecisions';
import { RESTORE_SCOPES, RESTORED_FILE_ACTIONS } from '../vocabulary/restore';
import { COMPACTION_CAUSES, RECORDED_STOPS, TURN_OUTCOMES } from '../vocabulary/outcomes';
import { SKILL_DESCRIPTION_CHARS } from './mentions';
import { GOAL_HOST_MESSAGES, GOAL_VIEW_MESSAGES } from './goal';
import { TASKS_HOST_MESSAGES, TasksView } from './tasks';
import { seq } from './sequence';
import { rowSchema } from './rowMarks';
import { SlashCommandView } from './slashCommands';

export { SlashCommandView } from './slashCommands';

/** Bumped when a change would make an older webview bundle misread the host (or the reverse). */
export const PROTOCOL_VERSION = 11;

/** The longest message the protocol carries at all; the setting `aside.chat.maxMessageLength` is lower. */
export const MAX_MESSAGE_CHARS = 1_000_000;

// ── View state ───────────────────────────────────────────────────────────────

export const MENTION_CHIP_KINDS = ['file', 'folder', 'problems', 'selection', 'changes'] as const;
/** `pending`: the turn's first request is not recorded yet; then what its `mention.*` entry said. */
export const MENTION_CHIP_STATES = ['pending', 'attached', 'in-context', 'rejected'] as const;

/** Lines of a file, 1-based and inclusive. */
export const LineRangeView = z.object({ start: z.number().int().positive(), end: z.number().int().positive() });

/** One `@`-mention of a user message, found by the host with the agent's own parser (src/view/mentionChips.ts). */
export const MentionChipView = z.object({
	kind: z.enum(MENTION_CHIP_KINDS),
	/** As written, without the `@`: `src/a.ts#L10-40`, `docs/`, `"my notes.md"`, `problems`. */
	label: z.string().min(1).max(4000),
	/** A file or folder mention: the path as written (no quotes, no range), for `mention.open`. */
	path: z.string().min(1).max(4000).optional(),
	range: LineRangeView.optional(),
	state: z.enum(MENTION_CHIP_STATES),
	/** A rejected mention: why, in a sentence. */
	detail: z.string().max(2000).optional(),
});
export type MentionChipView = z.infer<typeof MentionChipView>;

/** What one hook event added to the message (SessionStart, UserPromptSubmit): its text, as the model got it. */
export const HookContextView = z.object({ event: z.string().min(1), text: z.string() });
export type HookContextView = z.infer<typeof HookContextView>;

export const UserTurnItem = rowSchema({
	kind: z.literal('user'),
	id: z.string().min(1),
	text: z.string(),
	/** Milliseconds since the epoch. */
	at: z.number(),
	/** The mentions in `text`, in order (the text itself stays as typed); absent when there are none. */
	mentions: z.array(MentionChipView).optional(),
	/** The hook context the message carried (pending reserved context first, then its own); absent when none. */
	hookContext: z.array(HookContextView).optional(),
	/** The child agent invocation (its owner path) whose conversation this row belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
	/** Set when the message is the request an approval sent (`text` holds the whole plan, for the model): that plan-decision's id and the plan file. */
	implementsPlan: z.object({ decision: z.string().min(1), file: z.string() }).optional(),
});
export type UserTurnItem = z.infer<typeof UserTurnItem>;

/**
 * A plan the answer proposed (the host found it between the proposal tags; the view never looks
 * for them): the answer before it, the plan's Markdown, and the answer after it.
 */
export const ProposalView = z.object({ id: z.string().min(1), before: z.string(), plan: z.string(), after: z.string() });
export type ProposalView = z.infer<typeof ProposalView>;

/** What the model answered in one response (its text; tool calls show as tool rows). */
export const AssistantItem = rowSchema({
	kind: z.literal('assistant'),
	id: z.string().min(1),
	at: z.number(),
	text: z.string(),
	/** Why it stopped: 'interrupted' when the person stopped it, 'failed' when the request broke. */
	stop: z.enum(RECORDED_STOPS),
	model: z.string().optional(),
	/** Set when the answer proposed a plan: the same text, in its parts. */
	proposal: ProposalView.optional(),
	/** The child agent invocation (its owner path) whose conversation this row belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
});
export type AssistantItem = z.infer<typeof AssistantItem>;

/** A harness notice that rode a tool result, kept as structure (never found by scanning text). */
export const NoticeView = z.object({ key: z.string(), body: z.string() });

export const ToolItem = rowSchema({
	kind: z.literal('tool'),
	id: z.string().min(1),
	at: z.number(),
	callId: z.string(),
	name: z.string(),
	/** The input as the model sent it, pretty JSON (long values cut for the view). */
	input: z.string(),
	/** What the model read back (cut for the view past a limit, saying so). */
	result: z.string(),
	isError: z.boolean(),
	durationMs: z.number().optional(),
	verdict: z.enum(['granted', 'denied']).optional(),
	/** The unified diff of an edit. */
	diff: z.string().optional(),
	notices: z.array(NoticeView),
	/** The child agent invocation (its owner path) whose conversation this row belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
});
export type ToolItem = z.infer<typeof ToolItem>;

export const ReminderEntryView = z.object({ type: z.string(), key: z.string(), label: z.string(), body: z.string(), reason: z.string() });
export type ReminderEntryView = z.infer<typeof ReminderEntryView>;

/** One injection record: every reminder one request carried, bodies complete. */
export const RemindersItem = rowSchema({
	kind: z.literal('reminders'),
	id: z.string().min(1),
	at: z.number(),
	phase: z.enum(['turn-start', 'mid-turn']),
	entries: z.array(ReminderEntryView).min(1),
	/** The child agent invocation (its owner path) whose conversation this row belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
});
export type RemindersItem = z.infer<typeof RemindersItem>;

export const TurnEndItem = rowSchema({
	kind: z.literal('turn-end'),
	id: z.string().min(1),
	at: z.number(),
	outcome: z.enum(TURN_OUTCOMES),
	error: z.string().optional(),
	/** The child agent invocation (its owner path) whose conversation this row belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
	/** The chat's last turn failed: the row offers Retry (`turn.retry` with this turn). */
	retry: z.object({ turnId: z.string().min(1) }).optional(),
});
export type TurnEndItem = z.infer<typeof TurnEndItem>;

/** The person's decision on a proposed plan (the plan card's Approve, Revise or Reject). */
export const PlanDecisionItem = rowSchema({
	kind: z.literal('plan-decision'),
	id: z.string().min(1),
	at: z.number(),
	decision: z.enum(PLAN_DECISIONS),
	/** Approved: the mode the implementation runs in. */
	mode: z.enum(PERMISSION_MODES).optional(),
	/** Approved: the plan file. */
	file: z.string().optional(),
	note: z.string().optional(),
});
export type PlanDecisionItem = z.infer<typeof PlanDecisionItem>;

export const AGENT_STATUSES = ['running', 'done', 'failed', 'interrupted', 'step-limit'] as const;
export type AgentRunStatus = (typeof AGENT_STATUSES)[number];

/**
 * The header row of one child agent invocation (the Agent tool), where the parent called it:
 * collapsed it says `Agent explore: <description> · N steps · status`; expanded, the rows whose
 * `agent` is its `path` follow inside it. Replaced by `items.updated` as the child runs.
 */
export const AgentItem = rowSchema({
	kind: z.literal('agent'),
	/** `agent-<path>`: unique in the chat, as the path is. */
	id: z.string().min(1),
	at: z.number(),
	/** Its owner path, `root/explore#1`: the `agent` of its own rows. */
	path: z.string().min(1),
	profile: z.string(),
	description: z.string(),
	/** Its model samples so far (its assistant records). */
	steps: z.number().int().nonnegative(),
	status: z.enum(AGENT_STATUSES),
	/** What the parent got back as the Agent tool's result, once it has (cut for the view past a limit). */
	result: z.string().optional(),
	isError: z.boolean().optional(),
	/** The parent, when it is itself a child (its owner path); absent when the root spawned it. */
	agent: z.string().min(1).optional(),
});
export type AgentItem = z.infer<typeof AgentItem>;

/**
 * A compaction point: `◇ Chat compacted · N tokens → M`, expanding to the summary the model wrote
 * (and what the person asked to keep). Every earlier row stays above it.
 */
export const CompactionItem = rowSchema({
	kind: z.literal('compaction'),
	id: z.string().min(1),
	at: z.number(),
	cause: z.enum(COMPACTION_CAUSES),
	tokensBefore: z.number().int().nonnegative(),
	tokensAfter: z.number().int().nonnegative(),
	summary: z.string(),
	instructions: z.string().optional(),
	/** The child agent invocation (its owner path) whose conversation this row belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
});
export type CompactionItem = z.infer<typeof CompactionItem>;

// Forks.
/** The first row of a fork: `⑂ Forked from <title>` (and, for a worktree fork, its branch, folder and base commit). */
export const ForkItem = rowSchema({
	kind: z.literal('fork'),
	id: z.string().min(1),
	at: z.number(),
	source: z.object({ id: z.string().min(1), title: z.string() }),
	worktree: z.object({ folder: z.string().min(1), branch: z.string().min(1), base: z.string().min(1) }).optional(),
});
export type ForkItem = z.infer<typeof ForkItem>;

// Restore: the restored row.

/**
 * A restore: `⟲ Restored files|chat|chat and files to before "<message>"`, with what became of
 * each file. The rows of what was rolled back stay above it.
 */
export const RestoreItem = rowSchema({
	kind: z.literal('restore'),
	id: z.string().min(1),
	at: z.number(),
	scope: z.enum(RESTORE_SCOPES),
	/** The user row restored to. */
	to: z.string().min(1),
	/** The start of that message's text (for the row's words). */
	message: z.string(),
	/** How many turns were rolled back. */
	turns: z.number().int().nonnegative(),
	files: z.array(z.object({ shown: z.string(), action: z.enum(RESTORED_FILE_ACTIONS), done: z.boolean() })),
	/** Its writes were kept: Undo… can put back what it overwrote. `undoes`: it is itself the undo of that restore row. */
	undoable: z.boolean().optional(),
	/** A later restore undid this one. */
	undone: z.boolean().optional(),
	undoes: z.string().min(1).optional(),
	/** The chat's mode went back to this with the plan approval the restore rolled back. */
	mode: z.enum(PERMISSION_MODES).optional(),
	/** Never set: a restore is the root conversation's (the field keeps rows uniform). */
	agent: z.string().min(1).optional(),
});
export type RestoreItem = z.infer<typeof RestoreItem>;

/** One file of a restore preview: what would happen to it, and the diff from now to the restored text. */
export const RestoreFileView = z.object({
	shown: z.string(),
	action: z.enum(RESTORED_FILE_ACTIONS),
	/** For `person-changed`: what overwriting it would do. */
	overwrite: z.enum(['change', 'recreate']).optional(),
	diff: z.string(),
});
export type RestoreFileView = z.infer<typeof RestoreFileView>;

/** What a Restore… would do (the host's plan), before anything happens. */
export const RestorePreviewView = z.object({
	id: z.string().min(1),
	to: z.string().min(1),
	scope: z.enum(RESTORE_SCOPES),
	/** The start of the message restored to. */
	message: z.string(),
	/** The turns a chat restore rolls back (the message's and every later one). */
	turns: z.number().int().nonnegative(),
	files: z.array(RestoreFileView),
	/** False when this window keeps no checkpoints: no file can be restored. */
	tracked: z.boolean(),
	/** Set when this undoes that earlier restore (`to` is then the message that restore went back to). */
	undoes: z.string().min(1).optional(),
});
export type RestorePreviewView = z.infer<typeof RestorePreviewView>;

/** One row of the transcript. */
export const TranscriptItem = z.discriminatedUnion('kind', [UserTurnItem, AssistantItem, ToolItem, RemindersItem, TurnEndItem, PlanDecisionItem, AgentItem, CompactionItem, ForkItem, RestoreItem]);
export type TranscriptItem = z.infer<typeof TranscriptItem>;

/** The child agent whose block a row goes in (a header's is its parent's); undefined for the root's. */
export function conversationOfItem(item: TranscriptItem): string | undefined {
	return item.kind === 'plan-decision' || item.kind === 'fork' || item.kind === 'restore' ? undefined : item.agent;
}

export const SendShortcut = z.enum(['enter', 'ctrlEnter']);
export type SendShortcut = z.infer<typeof SendShortcut>;

/** The settings the view needs to behave as configured. */
export const ViewSettings = z.object({
	sendShortcut: SendShortcut,
	maxMessageLength: z.number().int().positive(),
});
export type ViewSettings = z.infer<typeof ViewSettings>;

/** Whether anything will answer, said plainly: the view never pretends a reply is coming. */
export const AgentStatus = z.object({
	state: z.enum(['unavailable', 'ready', 'running']),
	/** One sentence for the person, shown in the empty state and beside the composer. */
	detail: z.string(),
});
export type AgentStatus = z.infer<typeof AgentStatus>;

export const PermissionMode = z.enum(PERMISSION_MODES);
export type PermissionMode = z.infer<typeof PermissionMode>;

/** A tool call waiting for the person's approve/deny. */
export const ApprovalView = z.object({
	callId: z.string().min(1),
	tool: z.string(),
	kind: z.enum(['read', 'write', 'run']),
	title: z.string(),
	target: z.string(),
	diff: z.string().optional(),
	/** A change set under review in the diff editor: its files, each with "Open diff" on the card. */
	review: z.object({ files: z.array(z.object({ path: z.string(), change: z.enum(['create', 'modify', 'delete']) })) }).optional(),
	/** The child agent invocation that asks (its owner path); absent when the root turn asks. */
	agent: z.string().min(1).optional(),
	/** The allow rules "Always allow" would save, shown on the card; absent when no rule can express the call. */
	alwaysAllow: z.array(z.string().min(1)).min(1).optional(),
});
export type ApprovalView = z.infer<typeof ApprovalView>;

/** The plan card's buttons, as the view posts them. */
export const PLAN_CHOICES = ['approve', 'revise', 'reject'] as const;

/** The longest note or feedback the plan card sends. */
export const MAX_PLAN_NOTE_CHARS = 20_000;

/** The plan the model proposed last, waiting for the person's decision: the plan card. */
export const PendingPlanView = z.object({
	proposalId: z.string().min(1),
	/** The plan's Markdown. */
	plan: z.string(),
	/** The modes the implementation may run in, for the person to pick one. */
	modes: z.array(PermissionMode).min(1),
	/** The one picked unless the person picks another. */
	mode: PermissionMode,
});
export type PendingPlanView = z.infer<typeof PendingPlanView>;

export const ModelView = z.object({ id: z.string(), name: z.string() });

/** A child agent invocation running now: what it is doing, and its response streaming (its text comes in `text.streamed`). */
export const ChildAgentView = z.object({
	path: z.string().min(1),
	/** One sentence, as the agent's own status says it. */
	detail: z.string(),
	streaming: z.object({ requestId: z.string() }).nullable(),
});
export type ChildAgentView = z.infer<typeof ChildAgentView>;

/** The agent's controls: what answers, how, and what it is doing now. */
export const AgentView = z.object({
	status: AgentStatus,
	provider: z.string(),
	model: z.string(),
	models: z.array(ModelView),
	mode: PermissionMode,
	approval: ApprovalView.nullable(),
	/** The response streaming now, not yet recorded: only that it streams; its text comes in `text.streamed`. */
	streaming: z.object({ requestId: z.string() }).nullable(),
	/** Messages typed while the agent works, waiting for its next step. */
	steering: z.array(z.string()),
	/** The context window of the model in use, in tokens, when its provider says it. */
	contextWindow: z.number().int().positive().optional(),
	/** The proposed plan waiting for the person's decision (the plan card); absent when there is none. */
	plan: PendingPlanView.optional(),
	/** The child agent invocations running now, in the order they started. */
	children: z.array(ChildAgentView),
});
export type AgentView = z.infer<typeof AgentView>;

/** Why a chat is not an ordinary one here, in a sentence the view shows above it. */
export const SessionAccessView = z.object({
	/** 'read-only': another window writes it; 'copy': it continues such a chat as a copy. */
	kind: z.enum(['read-only', 'copy']),
	text: z.string().max(2000),
});
export type SessionAccessView = z.infer<typeof SessionAccessView>;

export const SessionView = z.object({
	id: z.string().min(1),
	title: z.string(),
	/** The rows to show, in display order. */
	items: z.array(TranscriptItem),
	access: SessionAccessView.optional(),
});
export type SessionView = z.infer<typeof SessionView>;

/** What reminders of one key have cost in this session: every delivery stays in the history. */
export const ReminderCostView = z.object({
	key: z.string(),
	label: z.string(),
	deliveries: z.number().int().nonnegative(),
	/** Estimated tokens of its blocks, as sent (about four characters a token). */
	tokens: z.number().int().nonnegative(),
});
export type ReminderCostView = z.infer<typeof ReminderCostView>;

/** How full the model's context is, and what the harness's own reminders take of it. */
export const ContextUseView = z.object({
	/** Tokens of the last request (input + output, as the provider reported); absent before the first. After a compaction, until the next answer: the estimate of the compacted request (`estimated`). */
	usedTokens: z.number().int().nonnegative().optional(),
	/** `usedTokens` is Aside's estimate (after a compaction, before the next answer), not a provider's count. */
	estimated: z.boolean().optional(),
	/** The model's context window, when the provider says it. */
	limitTokens: z.number().int().positive().optional(),
	/** Per reminder key, most expensive first: every delivery of this chat. */
	reminders: z.array(ReminderCostView),
	/** The estimated tokens of the reminder blocks the next request still replays (after the compaction point). */
	remindersInContext: z.number().int().nonnegative().optional(),
	/** Of the last request's input, what the provider read from its prompt cache and wrote to it (when it says). */
	cacheReadTokens: z.number().int().nonnegative().optional(),
	cacheWriteTokens: z.number().int().nonnegative().optional(),
	/** The latest compaction point of the chat. */
	compaction: z.object({ at: z.number(), cause: z.enum(COMPACTION_CAUSES), tokensBefore: z.number().int().nonnegative(), tokensAfter: z.number().int().nonnegative() }).optional(),
	/** `aside.context.autoCompactAt` when automatic compaction is on (a share of the window, 0–1); absent when it is off. */
	autoCompactAt: z.number().positive().max(1).optional(),
	/** Whether Compact can run now (a chat with something to compact, no turn running, written here). */
	canCompact: z.boolean().optional(),
});
export type ContextUseView = z.infer<typeof ContextUseView>;

/** A past (or the current) session, for the session list. */
export const SessionSummaryView = z.object({
	id: z.string().min(1),
	title: z.string(),
	/** When it was last active, milliseconds since the epoch. */
	at: z.number(),
	current: z.boolean(),
	/** The chat it was forked from (its title as listed now, else as it was then). */
	forkOf: z.object({ id: z.string().min(1), title: z.string() }).optional(),
});
export type SessionSummaryView = z.infer<typeof SessionSummaryView>;


/** What the empty state offers when nothing can answer yet (the first run). */
export const SetupView = z.object({
	/** Local model servers found answering on their default ports, offered by name. */
	detected: z.array(z.object({ id: z.string().min(1), label: z.string() })),
	/** The chosen provider needs a key, and none is stored for the origin it would go to. */
	keyNeeded: z.object({ provider: z.string(), origin: z.string() }).optional(),
});
export type SetupView = z.infer<typeof SetupView>;

/** The text a response has streamed so far: sent once, in a snapshot taken while it streams. */
export const StreamView = z.object({ requestId: z.string(), text: z.string() });
export type StreamView = z.infer<typeof StreamView>;

export const ViewState = z.object({
	session: SessionView,
	settings: ViewSettings,
	agent: AgentView,
	context: ContextUseView,
	/** Absent from a host that offers no setup actions. */
	setup: SetupView.optional(),
	/** Present while `agent.streaming` says a response streams; later deltas continue this text. */
	stream: StreamView.optional(),
	/** The text so far of the responses child agents stream now (`agent.children[].streaming`). */
	childStreams: z.array(StreamView).optional(),
	/** The task list feature's panel (src/features/tasks/); absent from a host without it. */
	tasks: TasksView.optional(),
	/** The slash commands the composer's hint lists (src/view/slashCommands.ts). */
	commands: z.array(SlashCommandView).max(200),
});
export type ViewState = z.infer<typeof ViewState>;

// ── Host → webview ───────────────────────────────────────────────────────────

/** The buttons a notice can offer: `trust.manage` opens VS Code's workspace trust editor. */
export const NOTICE_ACTIONS = ['trust.manage'] as const;

export const HostMessage = z.discriminatedUnion('type', [
	/** The complete view state: sent on every (re)connect, and whenever deltas cannot apply. */
	z.object({ type: z.literal('snapshot'), seq, protocol: z.number().int(), state: ViewState }),
	/** Rows to show after the current session's last row. */
	z.object({ type: z.literal('items.appended'), seq, sessionId: z.string().min(1), items: z.array(TranscriptItem).min(1) }),
	/** Rows to show just before a row already shown (turn-start reminders go above the message they followed). */
	z.object({ type: z.literal('items.inserted'), seq, sessionId: z.string().min(1), before: z.string().min(1), items: z.array(TranscriptItem).min(1) }),
	/** Rows already shown, replaced by id (a child agent's header: its steps, status and result). */
	z.object({ type: z.literal('items.updated'), seq, sessionId: z.string().min(1), items: z.array(TranscriptItem).min(1) }),
	...TASKS_HOST_MESSAGES,
	/** The current session's title changed (it is taken from the first message). */
	z.object({ type: z.literal('session.retitled'), seq, sessionId: z.string().min(1), title: z.string() }),
	/** The view settings changed (the person edited settings.json). */
	z.object({ type: z.literal('settings.changed'), seq, settings: ViewSettings }),
	/** The agent's state changed: status, model, mode, a pending approval, steering. */
	z.object({ type: z.literal('agent.changed'), seq, agent: AgentView }),
	/** More text of the response `agent.streaming` (or a child's `streaming`) announced: every delta, from the first. */
	z.object({ type: z.literal('text.streamed'), seq, requestId: z.string(), text: z.string() }),
	/** Put the keyboard focus in the message box (Aside: Focus on Chat View). */
	z.object({ type: z.literal('composer.focus'), seq }),
	/** The context use changed (a response reported usage, a reminder was delivered, the model changed). */
	z.object({ type: z.literal('context.changed'), seq, context: ContextUseView }),
	/** The sessions the person can reopen, newest first (the answer to `sessions.list`). */
	z.object({ type: z.literal('sessions.listed'), seq, sessions: z.array(SessionSummaryView) }),
	/** The empty state's setup actions changed (a local server was found, a key is missing). */
	z.object({ type: z.literal('setup.changed'), seq, setup: SetupView }),
	/** Something the person should read now, for example why a message was refused; `action`: a button it offers. */
	z.object({ type: z.literal('notice'), seq, level: z.enum(['info', 'warning', 'error']), text: z.string().max(2000), action: z.enum(NOTICE_ACTIONS).optional(), /** The chat it belongs to, when not the one shown. */ sessionId: z.string().min(1).max(200).optional() }),
	/** The composer's `@` list: the workspace files and folders matching a `mentions.query`, best first. */
	z.object({
		type: z.literal('mentions.answer'),
		seq,
		requestId: z.string().min(1).max(100),
		candidates: z.array(z.object({ kind: z.enum(['file', 'folder']), path: z.string().min(1).max(4000) })).max(50),
		/** The `$` list: the skills on offer whose names match, best first (absent for an `@` query). */
		skills: z.array(z.object({ name: z.string().min(1).max(200), description: z.string().max(SKILL_DESCRIPTION_CHARS) })).max(50).optional(),
	}),
	/**
	 * A message sent from this composer did not reach the model: its text goes back, with why. `cause`: a UserPromptSubmit
	 * hook blocked it (the default); a chat restore gave it back (`reason` is then the whole sentence); the agent was stopped
	 * first (`stopped`: several messages joined). `sessionId`: the chat whose composer it goes to, when not the one shown.
	 */
	z.object({ type: z.literal('composer.restore'), seq, text: z.string().max(MAX_MESSAGE_CHARS * 4), reason: z.string().max(2000), cause: z.enum(['hook', 'restore', 'stopped']).optional(), sessionId: z.string().optional() }),
	...GOAL_HOST_MESSAGES,
	// Restore.
	/** The answer to the view's `restore.preview`: what the restore would do, for the person to confirm (`restore.apply`) or cancel. */
	z.object({ type: z.literal('restore.preview'), seq, preview: RestorePreviewView }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

// ── Webview → host ───────────────────────────────────────────────────────────

export const ViewMessage = z.discriminatedUnion('type', [
	/** The view loaded (or lost track of `seq`) and wants a snapshot. */
	z.object({ type: z.literal('ready'), protocol: z.number().int(), reason: z.enum(['load', 'resync']) }),
	/** The person sent a message from the composer; `mode`: the permission mode for this message only (the chat's when absent). */
	z.object({ type: z.literal('submit'), text: z.string().min(1).max(MAX_MESSAGE_CHARS), mode: PermissionMode.optional() }),
	/** Stop the running turn. */
	z.object({ type: z.literal('stop') }),
	/** Retry on a failed turn's row: its message goes out again. */
	z.object({ type: z.literal('turn.retry'), turnId: z.string().min(1) }),
	/** Compact the chat now (the button by the context line; `/compact …` typed in the composer arrives as a submit). `instructions`: what to keep. */
	z.object({ type: z.literal('compact'), instructions: z.string().max(MAX_MESSAGE_CHARS).optional() }),
	/** The person's verdict on a pending tool call; `always`: "Always allow", which also saves the card's rules in the user settings. */
	z.object({ type: z.literal('approval'), callId: z.string().min(1), granted: z.boolean(), note: z.string().max(2000).optional(), always: z.literal(true).optional() }),
	/** The review card's "Open diff": one file of the change set waiting for a decision, or all of them. */
	z.object({ type: z.literal('review.show'), callId: z.string().min(1), path: z.string().max(4000).optional() }),
	z.object({ type: z.literal('model.select'), model: z.string().max(200) }),
	z.object({ type: z.literal('mode.select'), mode: PermissionMode }),
	/** Start a new chat (the same as Aside: New Chat). */
	z.object({ type: z.literal('session.new') }),
	/** Ask for the list of sessions; the host answers with `sessions.listed`. */
	z.object({ type: z.literal('sessions.list') }),
	/** Reopen a past session by id. */
	z.object({ type: z.literal('session.open'), id: z.string().min(1).max(200) }),
	/** Put text on the clipboard (a code block's Copy button). */
	z.object({ type: z.literal('copy'), text: z.string().max(MAX_MESSAGE_CHARS) }),
	/** A notice's button: the host does what `action` names. */
	z.object({ type: z.literal('notice.act'), action: z.enum(NOTICE_ACTIONS) }),
	/** Open a link from rendered Markdown; the host accepts only http(s) and mailto. */
	z.object({ type: z.literal('link.open'), href: z.string().min(1).max(4000) }),
	/** The empty state's "Choose a provider": the host runs its quick pick (Aside: Choose a Provider). */
	z.object({ type: z.literal('provider.choose') }),
	/** The empty state's offer of a local server the host found, by the id it gave it. */
	z.object({ type: z.literal('provider.useDetected'), id: z.string().min(1).max(100) }),
	/** The empty state's "Store an API key": for the provider and origin the host said need one. */
	z.object({ type: z.literal('apiKey.store') }),
	/**
	 * The person's decision on the proposed plan: approve (implemented in `mode`, `note` added to
	 * the prompt), revise (`note` is the feedback, required) or reject (`note` recorded).
	 */
	z.object({
		type: z.literal('plan.decide'),
		proposalId: z.string().min(1).max(200),
		decision: z.enum(PLAN_CHOICES),
		mode: PermissionMode.optional(),
		note: z.string().max(MAX_PLAN_NOTE_CHARS).optional(),
	}),
	/** The view reports a problem of its own (for example, a host message it dropped). */
	z.object({ type: z.literal('log'), level: z.enum(['info', 'warning', 'error']), message: z.string().max(4000) }),
	/** What was typed after an `@` in the composer; a newer query cancels the one before. */
	z.object({ type: z.literal('mentions.query'), requestId: z.string().min(1).max(100), query: z.string().max(1000), trigger: z.enum(['@', '$']).optional() }),
	/** A file or folder chip of a user row: open it (at its lines); the host opens only what is inside the workspace. */
	z.object({ type: z.literal('mention.open'), path: z.string().min(1).max(4000), range: LineRangeView.optional() }),
	/** A plan-decision row's plan file: open the file the approval `decision` of the current chat saved. */
	z.object({ type: z.literal('plan.open'), decision: z.string().min(1).max(200) }),
	// ── Checkpoints: deleting a chat ──
	/** The chat list's Delete, confirmed: the chat's transcript, content, index entry and checkpoints go; the host answers with `sessions.listed`. */
	z.object({ type: z.literal('session.delete'), id: z.string().min(1).max(200) }),
	// Forks.
	/** A root user row's "Fork from here": a new chat with the history up to that message's turn; `worktree`: in a new git worktree (the host asks for branch, base and folder). */
	z.object({ type: z.literal('session.fork'), from: z.string().min(1).max(200), worktree: z.boolean().optional() }),
	...GOAL_VIEW_MESSAGES,
	// Restore.
	/** A user row's Restore…: what restoring `scope` to before message `to` would do; `undo`: a restore row's Undo… (`to` is that restore). The host answers `restore.preview`, or a notice why not. */
	z.object({ type: z.literal('restore.preview'), to: z.string().min(1).max(200), scope: z.enum([...RESTORE_SCOPES, 'undo']) }),
	/** The preview's Restore: apply it (`overwriteChanged`: the files changed since Aside's last edit too). */
	z.object({ type: z.literal('restore.apply'), previewId: z.string().min(1).max(200), overwriteChanged: z.boolean() }),
	/** The preview's Cancel: nothing happens, and the host forgets the preview. */
	z.object({ type: z.literal('restore.cancel'), previewId: z.string().min(1).max(200) }),
]);
export type ViewMessage = z.infer<typeof ViewMessage>;

// ── Validation at the door ───────────────────────────────────────────────────

export type Parsed<T> = { readonly ok: true; readonly message: T } | { readonly ok: false; readonly error: string };

function describeIssues(error: z.ZodError, data: unknown): string {
	const type = typeof data === 'object' && data !== null && 'type' in data ? JSON.stringify(data.type) : 'without a type';
	const issues = error.issues
		.slice(0, 3)
		.map((issue) => `${issue.path.length ? issue.path.join('.') : '(message)'}: ${issue.message}`)
		.join('; ');
	return `message ${type} is invalid (${issues})`;
}

function parseWith<T>(schema: z.ZodType<T>, data: unknown): Parsed<T> {
	const result = schema.safeParse(data);
	return result.success ? { ok: true, message: result.data } : { ok: false, error: describeIssues(result.error, data) };
}

export function parseHostMessage(data: unknown): Parsed<HostMessage> {
	return parseWith(HostMessage, data);
}

export function parseViewMessage(data: unknown): Parsed<ViewMessage> {
	return parseWith(ViewMessage, data);
}
