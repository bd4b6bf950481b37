// The host⇄webview protocol, declared once and imported by both sides; each side validates every
// incoming message at its one entry point, logging and dropping an invalid one. The webview posts
// `ready`; the host answers with a complete `snapshot`, then small deltas, each with `seq` one more
// than the last: a webview that sees a gap posts `ready` again. Enums are the vocabulary's (src/vocabulary/).
import * as z from 'zod';
import { RESTORE_SCOPES } from '../vocabulary/restore';
import { MAX_OFFER_CHARS, SKILL_DESCRIPTION_CHARS } from './mentions';
import { GOAL_HOST_MESSAGES, GOAL_VIEW_MESSAGES } from './goal';
import { TASKS_HOST_MESSAGES } from './tasks';
import { MCP_HOST_MESSAGES, MCP_VIEW_MESSAGES } from './mcp';
import { PROCESSES_HOST_MESSAGES, PROCESSES_VIEW_MESSAGES } from './processes';
import { QUESTIONS_HOST_MESSAGES, QUESTIONS_VIEW_MESSAGES } from './questions';
import { SLASH_HOST_MESSAGES, SLASH_VIEW_MESSAGES } from './slashCommands';
import { IMAGES_HOST_MESSAGES, IMAGES_VIEW_MESSAGES, ImageUpload, MAX_IMAGES_PER_MESSAGE } from './images';
import { seq } from './sequence';
import { LineRangeView, RestorePreviewView, TranscriptItem } from './items';
import { AgentView, ContextUseView, MAX_PLAN_NOTE_CHARS, PermissionMode, PLAN_CHOICES, SessionSummaryView, SetupView, ViewSettings, ViewState } from './viewState';

// The rows (items.ts) and the snapshot's state (viewState.ts) are part of the one protocol.
export * from './items';
export * from './viewState';
export { SlashCommandView } from './slashCommands';

/** Bumped when a change would make an older webview bundle misread the host (or the reverse). */
export const PROTOCOL_VERSION = 13;

/** The longest message the protocol carries at all; the setting `aside.chat.maxMessageLength` is lower. */
export const MAX_MESSAGE_CHARS = 1_000_000;

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
	...PROCESSES_HOST_MESSAGES,
	...QUESTIONS_HOST_MESSAGES,
	...SLASH_HOST_MESSAGES,
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
		/** What the chat features' kinds of mention offer (`@mcp:` resources), each with the text it inserts; absent when none. */
		offers: z
			.array(
				z.object({
					insert: z.string().max(MAX_OFFER_CHARS),
					label: z.string().min(1).max(MAX_OFFER_CHARS),
					detail: z.string().max(300),
					partial: z.boolean().optional(),
					inert: z.boolean().optional(),
				}),
			)
			.max(50)
			.optional(),
		/** The `$` list: the skills on offer whose names match, best first (absent for an `@` query). */
		skills: z.array(z.object({ name: z.string().min(1).max(200), description: z.string().max(SKILL_DESCRIPTION_CHARS) })).max(50).optional(),
	}),
	/**
	 * A message sent from this composer did not reach the model: its text goes back, with why. `cause`: a UserPromptSubmit
	 * hook blocked it (the default); a chat restore gave it back (`reason` is then the whole sentence); the agent was stopped
	 * first (`stopped`: several messages joined); a slash command could not run (`command`: `reason` is the whole sentence).
	 * `sessionId`: the chat whose composer it goes to, when not the one shown.
	 */
	z.object({ type: z.literal('composer.restore'), seq, text: z.string().max(MAX_MESSAGE_CHARS * 4), reason: z.string().max(2000), cause: z.enum(['hook', 'restore', 'stopped', 'command']).optional(), sessionId: z.string().optional() }),
	...GOAL_HOST_MESSAGES,
	...MCP_HOST_MESSAGES,
	...IMAGES_HOST_MESSAGES,
	// Restore.
	/** The answer to the view's `restore.preview`: what the restore would do, for the person to confirm (`restore.apply`) or cancel. */
	z.object({ type: z.literal('restore.preview'), seq, preview: RestorePreviewView }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

// ── Webview → host ───────────────────────────────────────────────────────────

export const ViewMessage = z.discriminatedUnion('type', [
	/** The view loaded (or lost track of `seq`) and wants a snapshot. */
	z.object({ type: z.literal('ready'), protocol: z.number().int(), reason: z.enum(['load', 'resync']) }),
	/**
	 * The person sent a message from the composer; `mode`: the permission mode for this message only (the chat's when absent);
	 * `images`: the images attached to it (the text may then be empty).
	 */
	z
		.object({ type: z.literal('submit'), text: z.string().max(MAX_MESSAGE_CHARS), mode: PermissionMode.optional(), images: z.array(ImageUpload).min(1).max(MAX_IMAGES_PER_MESSAGE).optional() })
		.refine((message) => message.text !== '' || message.images !== undefined, { error: 'a message without images needs text', path: ['text'] }),
	/** Stop the running turn. */
	z.object({ type: z.literal('stop') }),
	/** Retry on a failed turn's row: its message goes out again. */
	z.object({ type: z.literal('turn.retry'), turnId: z.string().min(1) }),
	/** Compact the chat now (the button by the context line; `/compact …` typed in the composer arrives as a submit). `instructions`: what to keep. */
	z.object({ type: z.literal('compaction.run'), instructions: z.string().max(MAX_MESSAGE_CHARS).optional() }),
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
	/**
	 * A root user row's "Fork from here": a new chat with the history up to that message's turn;
	 * `worktree`: in a new git worktree (the host asks for branch, base and folder).
	 */
	z.object({ type: z.literal('fork.create'), from: z.string().min(1).max(200), worktree: z.boolean().optional() }),
	...GOAL_VIEW_MESSAGES,
	...MCP_VIEW_MESSAGES,
	...PROCESSES_VIEW_MESSAGES,
	...QUESTIONS_VIEW_MESSAGES,
	...SLASH_VIEW_MESSAGES,
	...IMAGES_VIEW_MESSAGES,
	// Restore.
	/**
	 * A user row's Restore…: what restoring `scope` to before message `to` would do; `undo`: a restore
	 * row's Undo… (`to` is that restore). The host answers `restore.preview`, or a notice why not.
	 */
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
