// The records about the session rather than its conversation: the header every transcript starts
// with, and the meta records whose last one wins on load. In TRANSCRIPT_RECORDS (records.ts).
import * as z from 'zod';
import { declareRecord } from '../base/recordDeclaration';
import { PERMISSION_MODES } from '../vocabulary/permissionModes';
import { PendingItem } from './pendingItems';

export const TRANSCRIPT_VERSION = 1;

/** The first line of every transcript. */
export const SessionHeader = z.object({
	kind: z.literal('session'),
	v: z.literal(TRANSCRIPT_VERSION),
	id: z.string().min(1),
	createdAt: z.number(),
});
export const SESSION_HEADER = declareRecord(SessionHeader);

/** The title, model, provider or the chat's permission mode changed (the last one wins on load). */
export const SessionMeta = z.object({
	kind: z.literal('meta'),
	at: z.number(),
	title: z.string().optional(),
	provider: z.string().optional(),
	model: z.string().optional(),
	// A mode this version does not know (a later Aside's) is dropped, never the title beside it.
	mode: z.enum(PERMISSION_MODES).optional().catch(undefined),
	/** The durable pending reminders now waiting (pendingItems.ts); absent: unchanged since the last meta that had them. */
	pending: z.array(PendingItem).optional(),
});
export const SESSION_META = declareRecord(SessionMeta);

export type SessionHeader = z.infer<typeof SessionHeader>;
export type SessionMeta = z.infer<typeof SessionMeta>;
