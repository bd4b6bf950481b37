// What the view is in a snapshot: the chat's session and agent, the context line, the settings it
// renders by, the setup's offers, and the parts the chat features add (the goal, the task list).
import * as z from 'zod';
import { PERMISSION_MODES } from '../vocabulary/permissionModes';
import { COMPACTION_CAUSES } from '../vocabulary/outcomes';
import { TasksView } from './tasks';
import { ProcessesView } from './processes';
import { MAX_SLASH_COMMANDS, SlashCommandView } from './slashCommands';
import { TranscriptItem } from './items';
import { ToolProgressView } from './toolProgress';

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
	kind: z.enum(['read', 'write', 'run', 'fetch']),
	title: z.string(),
	target: z.string(),
	diff: z.string().optional(),
	/** What the diff shows, when it is not the change the call makes (an MCP tool's changed definition). */
	diffTitle: z.string().min(1).max(200).optional(),
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
	/** The running calls that report progress, for their live rows (absent or empty: none). */
	toolProgress: z.array(ToolProgressView).optional(),
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
	/**
	 * Tokens of the last request (input + output, as the provider reported); absent before the first.
	 * After a compaction, until the next answer: the estimate of the compacted request (`estimated`).
	 */
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
	compaction: z.object({
		at: z.number(),
		cause: z.enum(COMPACTION_CAUSES),
		tokensBefore: z.number().int().nonnegative(),
		tokensAfter: z.number().int().nonnegative(),
	}).optional(),
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
	/** The background processes feature's panel (src/features/processes/); absent from a host without it. */
	processes: ProcessesView.optional(),
	/** The slash commands the composer's hint lists (src/view/slashCommands.ts). */
	commands: z.array(SlashCommandView).max(MAX_SLASH_COMMANDS),
});
export type ViewState = z.infer<typeof ViewState>;
