// The host⇄webview protocol, declared once and imported by both sides. Each side validates
// every incoming message at its single entry point; an invalid one is logged and dropped.
//
// Connection: the webview posts `ready`; the host answers with a complete `snapshot`, then
// sends small deltas. Every host message carries `seq`, one more than the last: a webview that
// sees a gap (it was hidden and missed messages) posts `ready` again and gets a new snapshot.
import * as z from 'zod';

/** Bumped when a change would make an older webview bundle misread the host (or the reverse). */
export const PROTOCOL_VERSION = 1;

/** The longest message the protocol carries at all; the setting `aside.chat.maxMessageLength` is lower. */
export const MAX_MESSAGE_CHARS = 1_000_000;

// ── View state ───────────────────────────────────────────────────────────────

export const UserTurnItem = z.object({
	kind: z.literal('user'),
	id: z.string().min(1),
	text: z.string(),
	/** Milliseconds since the epoch. */
	at: z.number(),
});
export type UserTurnItem = z.infer<typeof UserTurnItem>;

/** One row of the transcript. Later kinds (assistant, tool, injected reminders) join this union. */
export const TranscriptItem = z.discriminatedUnion('kind', [UserTurnItem]);
export type TranscriptItem = z.infer<typeof TranscriptItem>;

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
	state: z.enum(['unavailable', 'ready']),
	/** One sentence for the person, shown in the empty state and beside the composer. */
	detail: z.string(),
});
export type AgentStatus = z.infer<typeof AgentStatus>;

export const SessionView = z.object({
	id: z.string().min(1),
	title: z.string(),
	items: z.array(TranscriptItem),
});
export type SessionView = z.infer<typeof SessionView>;

export const ViewState = z.object({
	session: SessionView,
	settings: ViewSettings,
	agent: AgentStatus,
});
export type ViewState = z.infer<typeof ViewState>;

// ── Host → webview ───────────────────────────────────────────────────────────

const seq = z.number().int().nonnegative();

export const HostMessage = z.discriminatedUnion('type', [
	/** The complete view state: sent on every (re)connect, and whenever deltas cannot apply. */
	z.object({ type: z.literal('snapshot'), seq, protocol: z.number().int(), state: ViewState }),
	/** Rows appended to the current session's transcript. */
	z.object({ type: z.literal('items.appended'), seq, sessionId: z.string().min(1), items: z.array(TranscriptItem).min(1) }),
	/** The current session's title changed (it is taken from the first message). */
	z.object({ type: z.literal('session.retitled'), seq, sessionId: z.string().min(1), title: z.string() }),
	/** The view settings changed (the person edited settings.json). */
	z.object({ type: z.literal('settings.changed'), seq, settings: ViewSettings }),
	/** Put the keyboard focus in the message box (Aside: Focus Chat). */
	z.object({ type: z.literal('composer.focus'), seq }),
	/** Something the person should read now, for example why a message was refused. */
	z.object({ type: z.literal('notice'), seq, level: z.enum(['info', 'warning', 'error']), text: z.string().max(2000) }),
]);
export type HostMessage = z.infer<typeof HostMessage>;
export type HostMessageType = HostMessage['type'];

// ── Webview → host ───────────────────────────────────────────────────────────

export const ViewMessage = z.discriminatedUnion('type', [
	/** The view loaded (or lost track of `seq`) and wants a snapshot. */
	z.object({ type: z.literal('ready'), protocol: z.number().int(), reason: z.enum(['load', 'resync']) }),
	/** The person sent a message from the composer. */
	z.object({ type: z.literal('submit'), text: z.string().min(1).max(MAX_MESSAGE_CHARS) }),
	/** The view reports a problem of its own (for example, a host message it dropped). */
	z.object({ type: z.literal('log'), level: z.enum(['info', 'warning', 'error']), message: z.string().max(4000) }),
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
