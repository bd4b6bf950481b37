// The records that mark a conversation's history rather than add to it: a compaction, from which
// its requests replay a summary in place of what came before, and a fork's provenance, the first
// record of a forked chat. Both are in TRANSCRIPT_RECORDS (records.ts).
import * as z from 'zod';
import { declareRecord } from '../base/recordDeclaration';
import { COMPACTION_CAUSES } from '../vocabulary/outcomes';

/**
 * A conversation was compacted (src/agent/compaction/): from here on its requests replay the
 * summary in place of everything before the compaction point, then the kept tail — the records
 * from `keepFrom` up to this record — then everything after this record. Nothing before it is
 * deleted: the view keeps every row. The latest compaction record of a conversation is its
 * compaction point (src/transcript/replay.ts, `selectedRecords`).
 */
export const CompactionRecord = z.object({
	kind: z.literal('compaction'),
	id: z.string().min(1),
	at: z.number(),
	cause: z.enum(COMPACTION_CAUSES),
	/** The root turn it ran in; absent for a manual compaction between turns. */
	turnId: z.string().min(1).optional(),
	/**
	 * The id of the first record kept verbatim after the summary (a user or assistant record before this
	 * one); absent: none, the summary covers everything before.
	 */
	keepFrom: z.string().min(1).optional(),
	/** What the model wrote, complete (replay sanitizes and frames it). */
	summary: z.string(),
	/** The conversation's tokens before: the reported usage of its last request plus an estimate of what was added since. */
	tokensBefore: z.number().int().nonnegative(),
	/** The estimated tokens of a request replayed after it (system prompt, tools, summary, tail). */
	tokensAfter: z.number().int().nonnegative(),
	/** What the person asked to keep (`/compact keep the API decisions`). */
	instructions: z.string().optional(),
	/** The model that wrote the summary. */
	model: z.string().optional(),
	/** The child invocation (its owner path) whose conversation this belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
});
export const COMPACTION_RECORD = declareRecord(CompactionRecord);

/**
 * Where a fork came from (docs/forks.md): the first record of a fork's transcript, before
 * the records it copied from its source (which replay as the fork's own history). `session.fork`
 * regenerates the provenance from it. Never replayed as a message.
 */
export const ForkRecord = z.object({
	kind: z.literal('fork'),
	id: z.string().min(1),
	at: z.number(),
	/** The chat it was forked from, as it was titled then. */
	source: z.object({ id: z.string().min(1), title: z.string() }),
	/** The source's user record the fork was made from: its turn is the last one copied. */
	from: z.string().min(1),
	/** A fork in a new git worktree: its folder (absolute), its new branch and the commit it started from. */
	worktree: z.object({ folder: z.string().min(1), branch: z.string().min(1), base: z.string().min(1) }).optional(),
});
export const FORK_RECORD = declareRecord(ForkRecord);

export type CompactionRecord = z.infer<typeof CompactionRecord>;
export type ForkRecord = z.infer<typeof ForkRecord>;
