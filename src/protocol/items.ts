// The rows of the transcript as the view is sent them: one schema per kind of row, their union,
// and the views the rows carry (mention chips, hook context, reminder entries, a restore's preview).
import * as z from 'zod';
import { PERMISSION_MODES } from '../vocabulary/permissionModes';
import { PLAN_DECISIONS } from '../vocabulary/planDecisions';
import { RESTORE_SCOPES, RESTORED_FILE_ACTIONS } from '../vocabulary/restore';
import { COMPACTION_CAUSES, RECORDED_STOPS, TURN_OUTCOMES } from '../vocabulary/outcomes';
import { rowSchema } from './rowMarks';
import { MAX_IMAGES_PER_MESSAGE, UserImageView } from './images';

/** `resource`: a chat feature's kind of mention (`@mcp:server/uri`). */
export const MENTION_CHIP_KINDS = ['file', 'folder', 'problems', 'selection', 'changes', 'resource'] as const;
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
	/** The slash command, as typed, that made this message (an MCP prompt's text): shown above it. */
	command: z.string().min(1).max(2000).optional(),
	/** No person wrote this message: Aside started the turn (why, in a line) and sent this reminder in their place; `text` is empty. */
	startedBy: z.object({ why: z.string().min(1).max(2000), key: z.string().min(1), label: z.string().min(1), body: z.string().max(200_000) }).optional(),
	/** The images the person attached, in order, shown as thumbnails above the text. */
	images: z.array(UserImageView).max(MAX_IMAGES_PER_MESSAGE).optional(),
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
