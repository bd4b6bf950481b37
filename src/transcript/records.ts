// The records of a session transcript: one JSON object per line of `<session>.jsonl`, appended
// in order and never rewritten. Injection records are the reminder engine's own type
// (src/reminders/record.ts) and are decoded by it.
import * as z from 'zod';

export const TRANSCRIPT_VERSION = 1;

/** The first line of every transcript. */
export const SessionHeader = z.object({
	kind: z.literal('session'),
	v: z.literal(TRANSCRIPT_VERSION),
	id: z.string().min(1),
	createdAt: z.number(),
});

/** The title, model or provider changed (the last one wins on load). */
export const SessionMeta = z.object({
	kind: z.literal('meta'),
	at: z.number(),
	title: z.string().optional(),
	provider: z.string().optional(),
	model: z.string().optional(),
});

export const UserRecord = z.object({
	kind: z.literal('user'),
	id: z.string().min(1),
	/** The root turn this message starts. */
	turnId: z.string().min(1),
	at: z.number(),
	text: z.string(),
});

export const ToolCallRecord = z.object({ id: z.string().min(1), name: z.string().min(1), input: z.unknown() });

export const AssistantRecord = z.object({
	kind: z.literal('assistant'),
	id: z.string().min(1),
	turnId: z.string().min(1),
	requestId: z.string().min(1),
	at: z.number(),
	text: z.string(),
	toolCalls: z.array(ToolCallRecord),
	stop: z.enum(['end', 'tool-use', 'max-tokens', 'refusal', 'other', 'interrupted', 'failed']),
	usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
	model: z.string().optional(),
});

export const ToolNoticeRecord = z.object({ key: z.string().min(1), body: z.string() });

export const ToolResultRecord = z.object({
	kind: z.literal('tool-result'),
	id: z.string().min(1),
	turnId: z.string().min(1),
	callId: z.string().min(1),
	name: z.string().min(1),
	at: z.number(),
	/** The content, or null when it is stored out of line in `contentFile` (beside the JSONL). */
	content: z.string().nullable(),
	contentFile: z.string().optional(),
	isError: z.boolean(),
	notices: z.array(ToolNoticeRecord).optional(),
	detail: z.unknown().optional(),
	durationMs: z.number().optional(),
	/** How the person decided, when they were asked. */
	verdict: z.enum(['granted', 'denied']).optional(),
});

export const TurnEndRecord = z.object({
	kind: z.literal('turn-end'),
	turnId: z.string().min(1),
	at: z.number(),
	outcome: z.enum(['done', 'interrupted', 'failed', 'step-limit']),
	/** For failed turns: what went wrong, in words. */
	error: z.string().optional(),
});

export type SessionHeader = z.infer<typeof SessionHeader>;
export type SessionMeta = z.infer<typeof SessionMeta>;
export type UserRecord = z.infer<typeof UserRecord>;
export type AssistantRecord = z.infer<typeof AssistantRecord>;
export type ToolResultRecord = z.infer<typeof ToolResultRecord>;
export type TurnEndRecord = z.infer<typeof TurnEndRecord>;
