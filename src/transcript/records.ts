// The records of a session transcript: one JSON object per line of `<session>.jsonl`, appended
// in order and never rewritten. Each kind is one declaration (declareRecord: its schema, the fast
// check derived from it, its rule), and TRANSCRIPT_RECORDS below is the table of them. Injection
// records are the reminder engine's own type (src/reminders/record.ts) and are decoded by it.
import * as z from 'zod';
import { declareRecord, readRecord, type RecordDeclaration, RecordProblem } from '../base/recordDeclaration';
import { decodeInjectionRecord, INJECTION_RECORD, RECORD_KIND } from '../reminders/record';
import { PERMISSION_MODES } from '../vocabulary/permissionModes';
import { PLAN_DECISIONS } from '../vocabulary/planDecisions';
import { TASK_STATUSES } from '../vocabulary/tasks';
import { RECORDED_STOPS, TURN_OUTCOMES } from '../vocabulary/outcomes';
import { HOOK_CONTEXT_RECORD } from './hookContextRecord';
import { COMPACTION_RECORD, FORK_RECORD } from './historyMarkers';
import { SESSION_HEADER, SESSION_META, type SessionHeader, type SessionMeta } from './sessionRecords';
import { StartedBy } from './startedBy';
import { RESTORE_RECORD } from './restoreRecord';
import { imageRecordsProblem, TOOL_RESULT_RECORD, ToolImageRecord } from './toolResultRecord';
import type { FeatureRecordKind, RecordTraits } from './recordKinds';

export const UserRecord = z.object({
	kind: z.literal('user'),
	id: z.string().min(1),
	/** The root turn this message starts. */
	turnId: z.string().min(1),
	at: z.number(),
	text: z.string(),
	/** The child invocation (its owner path) whose conversation this belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
	/**
	 * What the person's SessionStart / UserPromptSubmit hooks added when this message was sent
	 * (docs/hooks.md), in order; replay puts it before `text` as a `<hook-context>` block, and
	 * `text` stays as typed.
	 */
	hookContext: z.array(z.object({ event: z.string().min(1), text: z.string() })).min(1).optional(),
	/** The root turn this message sends again: the person's Retry after it failed (replay drops that turn's message if it never reached the model). */
	retryOf: z.string().min(1).optional(),
	/** The slash command, as typed, whose message `text` is (an MCP prompt's): the row shows it; the model gets `text`. */
	command: z.string().min(1).optional(),
	/** Aside started this turn, not a person (startedBy.ts): what it sent in their place; `text` is then empty. */
	startedBy: StartedBy.optional(),
	/**
	 * The images the person attached (pasted, dropped, `@`-mentioned), in order, before `text` on the
	 * model's wire. As a tool result's: in memory with their data, in the JSONL always out of line.
	 */
	images: z.array(ToolImageRecord).min(1).optional(),
});
export const USER_RECORD = declareRecord(UserRecord, (record) => imageRecordsProblem(record.images));

export const ToolCallRecord = z.object({ id: z.string().min(1), name: z.string().min(1), input: z.unknown() });

export const AssistantRecord = z.object({
	kind: z.literal('assistant'),
	id: z.string().min(1),
	turnId: z.string().min(1),
	requestId: z.string().min(1),
	at: z.number(),
	text: z.string(),
	toolCalls: z.array(ToolCallRecord),
	stop: z.enum(RECORDED_STOPS),
	/** As the provider reported it: input counts cached prompt tokens too; the cache ones are of that input, when the provider says. */
	usage: z.object({
		inputTokens: z.number(),
		outputTokens: z.number(),
		cacheReadTokens: z.number().optional(),
		cacheWriteTokens: z.number().optional(),
	}).optional(),
	model: z.string().optional(),
	/** The child invocation (its owner path) whose conversation this belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
});
export const ASSISTANT_RECORD = declareRecord(AssistantRecord);

export const TurnEndRecord = z.object({
	kind: z.literal('turn-end'),
	turnId: z.string().min(1),
	at: z.number(),
	outcome: z.enum(TURN_OUTCOMES),
	/** For failed turns: what went wrong, in words. */
	error: z.string().optional(),
	/** The child invocation (its owner path) whose conversation this belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
});
export const TURN_END_RECORD = declareRecord(TurnEndRecord);

/** The person's decision on a proposed plan (src/agent/plans.ts): the plan card's Approve, Revise or Reject. */
export const PlanDecisionRecord = z.object({
	kind: z.literal('plan-decision'),
	id: z.string().min(1),
	at: z.number(),
	/** The assistant record whose answer proposed the plan. */
	proposal: z.string().min(1),
	decision: z.enum(PLAN_DECISIONS),
	/** Approved: the mode the implementation runs in. */
	mode: z.enum(PERMISSION_MODES).optional(),
	/** Approved: the plan file, absolute. */
	file: z.string().optional(),
	/** The person's note (for a revision, their feedback). */
	note: z.string().optional(),
	/** Approved: the chat's mode when it was approved, which a chat restore that rolls the approval back goes back to. */
	previousMode: z.enum(PERMISSION_MODES).optional(),
});
export const PLAN_DECISION_RECORD = declareRecord(PlanDecisionRecord);

/**
 * A child agent invocation started (the Agent tool): its conversation's records follow with
 * `agent` set to this `id`, and the parent's tool result for `callId` is its answer.
 */
export const AgentStartRecord = z.object({
	kind: z.literal('agent-start'),
	/** Its owner path, unique in the chat: `root/explore#2`. */
	id: z.string().min(1),
	at: z.number(),
	/** The root turn it runs in. */
	turnId: z.string().min(1),
	/** The parent's Agent tool call. */
	callId: z.string().min(1),
	profile: z.string().min(1),
	description: z.string(),
	/** The parent, when it is itself a child (its owner path); absent when the root spawned it. */
	agent: z.string().min(1).optional(),
});
export const AGENT_START_RECORD = declareRecord(AgentStartRecord);

export const TaskRowRecord = z.object({
	id: z.string().min(1),
	title: z.string(),
	status: z.enum(TASK_STATUSES),
	owner: z.string().min(1),
	notes: z.string().optional(),
});

/** Task rows written (TaskWrite) or closed when their child settled: each row as it is now. Chat-wide, never `agent`. */
export const TasksRecord = z.object({
	kind: z.literal('tasks'),
	id: z.string().min(1),
	at: z.number(),
	/** Who wrote them: `root`, a child's owner path, or `settled` (a child's open rows closed when it succeeded). */
	by: z.string().min(1),
	/** The session's turn (user turns) when they were written: staleness counts from it. */
	turn: z.number().int().nonnegative(),
	rows: z.array(TaskRowRecord),
});
export const TASKS_RECORD = declareRecord(TasksRecord);

export type UserRecord = z.infer<typeof UserRecord>;
export type AssistantRecord = z.infer<typeof AssistantRecord>;
export type TurnEndRecord = z.infer<typeof TurnEndRecord>;
export type PlanDecisionRecord = z.infer<typeof PlanDecisionRecord>;
export type AgentStartRecord = z.infer<typeof AgentStartRecord>;
export type TasksRecord = z.infer<typeof TasksRecord>;

// ---- Every kind together: what a line of the file may be ---------------------------------------

/**
 * Every kind a line of the transcript may be, one declaration each: the kinds this version knows,
 * the union and each kind's fast check come from this table. Injection records are the reminder
 * engine's, decoded by it (decodeInjectionRecord).
 */
export const TRANSCRIPT_RECORDS = [
	SESSION_HEADER,
	SESSION_META,
	USER_RECORD,
	ASSISTANT_RECORD,
	TOOL_RESULT_RECORD,
	TURN_END_RECORD,
	PLAN_DECISION_RECORD,
	AGENT_START_RECORD,
	TASKS_RECORD,
	COMPACTION_RECORD,
	HOOK_CONTEXT_RECORD,
	FORK_RECORD,
	RESTORE_RECORD,
	INJECTION_RECORD,
] as const;

/** Every core kind: the output of one of the table's schemas. */
type CoreRecord = z.output<(typeof TRANSCRIPT_RECORDS)[number]['schema']>;

/**
 * The record kinds chat features add (src/features/): each feature's record file adds its type
 * here (`declare module '…/transcript/records' { interface FeatureRecords { goal: GoalRecord } }`)
 * and the feature list registers its declaration (registerRecordKinds), so both the union and the
 * parser are composed from that one list.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface FeatureRecords {}

/** What each core kind is to the chat (recordKinds.ts); exhaustive, so a new kind says it. */
const CORE_RECORD_TRAITS: { readonly [K in CoreRecord['kind']]: RecordTraits } = {
	session: { scope: 'conversation', replay: 'silent', row: 'none' },
	meta: { scope: 'conversation', replay: 'silent', row: 'none' },
	user: { scope: 'conversation', replay: 'history', row: 'row' },
	assistant: { scope: 'conversation', replay: 'history', row: 'row' },
	'tool-result': { scope: 'conversation', replay: 'history', row: 'row' },
	'turn-end': { scope: 'conversation', replay: 'history', row: 'row' },
	// Reaches the model as the person's next message (the implementation or revision prompt).
	'plan-decision': { scope: 'chat', replay: 'silent', row: 'row' },
	// A child's start reaches the model as its Agent call and result.
	'agent-start': { scope: 'conversation', replay: 'silent', row: 'row' },
	// Reaches the model as TaskWrite/TaskList results; the task panel shows it.
	tasks: { scope: 'chat', replay: 'silent', row: 'none' },
	// Only the latest is a compaction point (selectedRecords); an earlier one inside a kept tail says nothing new.
	compaction: { scope: 'conversation', replay: 'silent', row: 'row' },
	// Its entries ride the user message of its turn; not a row of its own.
	'hook-context': { scope: 'chat', replay: 'silent', row: 'none' },
	// Provenance: session.fork says it; the copied records after it are the history.
	fork: { scope: 'chat', replay: 'silent', row: 'row' },
	// Applied by selectedRecords (a files-only one reaches the model as session.rewind); its row comes from the restore rows.
	restore: { scope: 'chat', replay: 'silent', row: 'none' },
	// Whose it is is its owner's (an invocation's, or the root's).
	'injected-reminders': { scope: 'conversation', replay: 'history', row: 'row' },
};

const BY_KIND = new Map<string, RecordDeclaration>(TRANSCRIPT_RECORDS.map((record) => [record.kind, record]));
const TRAITS = new Map<string, RecordTraits>(Object.entries(CORE_RECORD_TRAITS));

/** Adds chat features' record kinds to what a transcript may hold; a kind registered twice (or a core one) throws. */
export function registerRecordKinds(kinds: Iterable<FeatureRecordKind>): void {
	for (const { declaration, traits } of kinds) {
		if (BY_KIND.has(declaration.kind)) {
			throw new Error(`The record kind "${declaration.kind}" is declared twice.`);
		}
		BY_KIND.set(declaration.kind, declaration);
		TRAITS.set(declaration.kind, traits);
	}
}

/** Every kind a transcript may hold now, core and registered. */
export function transcriptKinds(): string[] {
	return [...BY_KIND.keys()];
}

/** Every kind a transcript may hold now, told apart by `kind` (the parser's reference: parseTranscriptRecord takes what it takes). */
export function transcriptRecordSchema(): z.ZodType {
	const [first, ...rest] = [...BY_KIND.values()].map((declaration) => declaration.schema);
	return first ? z.discriminatedUnion('kind', [first, ...rest]) : z.never();
}

/** What a kind is to the chat; a kind this version does not know is the loop's, replayed as nothing, no row. */
export function traitsOf(kind: string): RecordTraits {
	return TRAITS.get(kind) ?? { scope: 'conversation', replay: 'silent', row: 'none' };
}

// One union, in three widths: any line of the file, what a session stores, and the conversation.

/** Any record of a transcript, the engine's injection record and the chat features' records included. */
export type TranscriptRecord = CoreRecord | FeatureRecords[keyof FeatureRecords];
/** Every record but the header: what a session stores after the first line (the conversation and its meta). */
export type TranscriptEntry = Exclude<TranscriptRecord, SessionHeader>;
/** A record of the conversation: what a turn writes, replay turns back into messages and the view shows. */
export type AgentRecord = Exclude<TranscriptEntry, SessionMeta>;

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

/**
 * Checks one parsed line as a whole record of a known kind and returns it with unknown fields
 * dropped (and `kind` first). Injection records go through decodeInjectionRecord, their only
 * decoder. Throws TranscriptRecordError: code 'unknown-kind' for a kind this version does not
 * know, 'invalid' for anything else wrong. A value that already is such a record as this version
 * writes it is returned as it is (not copied): callers must not change it.
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
	const declaration = typeof kind === 'string' ? BY_KIND.get(kind) : undefined;
	if (declaration === undefined) {
		throw new TranscriptRecordError('unknown-kind', `Unknown record kind ${kind === undefined ? '(none)' : JSON.stringify(kind)}.`);
	}
	const read = readRecord(declaration, value);
	if (read instanceof RecordProblem) {
		throw new TranscriptRecordError('invalid', `Not a transcript record: ${declaration.kind}: ${read.words}`);
	}
	return read as TranscriptRecord;
}
