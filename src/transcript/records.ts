// The records of a session transcript: one JSON object per line of `<session>.jsonl`, appended
// in order and never rewritten. Injection records are the reminder engine's own type
// (src/reminders/record.ts) and are decoded by it.
import * as z from 'zod';
import { wrap } from '../reminders/envelope';
import { decodeInjectionRecord, type InjectionRecord, RECORD_KIND } from '../reminders/record';

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

// ---- Every kind together: what a line of the file may be, checked as a whole ----------------

/** The transcript's own kinds, told apart by `kind`. Injection records are decoded separately. */
export const TranscriptRecordSchema = z.discriminatedUnion('kind', [SessionHeader, SessionMeta, UserRecord, AssistantRecord, ToolResultRecord, TurnEndRecord]);

/** Any record of a transcript, the engine's injection record included. */
export type TranscriptRecord = z.infer<typeof TranscriptRecordSchema> | InjectionRecord;
/** Every record but the header: what follows the first line. */
export type TranscriptEntry = Exclude<TranscriptRecord, SessionHeader>;

export const TRANSCRIPT_KINDS: readonly string[] = ['session', 'meta', 'user', 'assistant', 'tool-result', 'turn-end', RECORD_KIND];

/** An out-of-line content file is a plain name inside `<session>.files/`: never a path. */
const CONTENT_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.txt$/;

export class TranscriptRecordError extends Error {
	override readonly name = 'TranscriptRecordError';

	constructor(
		readonly code: 'unknown-kind' | 'invalid',
		message: string,
	) {
		super(message);
	}
}

function kindOf(value: unknown): unknown {
	return typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
}

// What the schemas cannot say: where a tool result's content is, and that its notices still wrap
// (replay wraps them, and must not throw on a record the store accepted).
function checkToolResult(record: ToolResultRecord): void {
	if (record.content === null && record.contentFile === undefined) {
		throw new TranscriptRecordError('invalid', 'Not a transcript record: tool-result: content is null and there is no contentFile.');
	}
	if (record.content !== null && record.contentFile !== undefined) {
		throw new TranscriptRecordError('invalid', 'Not a transcript record: tool-result: both content and contentFile are set.');
	}
	if (record.contentFile !== undefined && !CONTENT_FILE.test(record.contentFile)) {
		throw new TranscriptRecordError('invalid', `Not a transcript record: tool-result: contentFile ${JSON.stringify(record.contentFile)} is not a plain file name.`);
	}
	for (const notice of record.notices ?? []) {
		try {
			wrap(notice.key, notice.body);
		} catch (error) {
			throw new TranscriptRecordError('invalid', `Not a transcript record: tool-result: a notice cannot be wrapped: ${(error as Error).message}`);
		}
	}
}

/**
 * Checks one parsed line as a whole record of a known kind and returns it with unknown fields
 * dropped (and `kind` first). Injection records go through decodeInjectionRecord, their only
 * decoder. Throws TranscriptRecordError: code 'unknown-kind' for a kind this version does not
 * know, 'invalid' for anything else wrong.
 */
export function parseTranscriptRecord(value: unknown): TranscriptRecord {
	const kind = kindOf(value);
	if (kind === RECORD_KIND) {
		try {
			return decodeInjectionRecord(value);
		} catch (error) {
			throw new TranscriptRecordError('invalid', (error as Error).message);
		}
	}
	if (typeof kind !== 'string' || !TRANSCRIPT_KINDS.includes(kind)) {
		throw new TranscriptRecordError('unknown-kind', `Unknown record kind ${kind === undefined ? '(none)' : JSON.stringify(kind)}.`);
	}
	const parsed = TranscriptRecordSchema.safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new TranscriptRecordError('invalid', `Not a transcript record: ${kind}: ${issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'invalid'}.`);
	}
	if (parsed.data.kind === 'tool-result') {
		checkToolResult(parsed.data);
	}
	return parsed.data;
}
