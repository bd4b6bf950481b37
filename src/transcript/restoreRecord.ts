// A chat restore's record: what went back, to where, and what it can be undone from.
import * as z from 'zod';
import { declareRecord } from '../base/recordDeclaration';
import { PERMISSION_MODES } from '../vocabulary/permissionModes';
import { RESTORE_SCOPES, RESTORED_FILE_ACTIONS } from '../vocabulary/restore';

/**
 * The person restored the chat to before one of their messages (src/agent/restore.ts). `files`:
 * the files of `turns` went back as they were (each as `done`, or why not by its action);
 * `chat`: from here on the conversation replays as if it had ended just before the user record
 * `to` (src/transcript/replay.ts, `selectedRecords`): the rolled-back records stay in the file
 * and in the view, above the restored row. Root conversation only.
 */
export const RestoreRecord = z.object({
	kind: z.literal('restore'),
	id: z.string().min(1),
	at: z.number(),
	/** The user record restored to (the state before its turn). */
	to: z.string().min(1),
	scope: z.enum(RESTORE_SCOPES),
	/** The root turns rolled back: `to`'s and every later one, in order. */
	turns: z.array(z.string().min(1)),
	files: z.array(z.object({ path: z.string().min(1), shown: z.string(), action: z.enum(RESTORED_FILE_ACTIONS), done: z.boolean() })),
	/** The checkpoint turn the restore's own writes were kept under (so it can be undone); absent when it wrote nothing or nothing was kept. */
	turnId: z.string().min(1).optional(),
	/** Set on the undo of an earlier restore: that restore's id (its files went back to as they were before it). */
	undoes: z.string().min(1).optional(),
	/** Set when it rolled back a plan approval whose mode the chat was still in: the mode the chat went back to. */
	mode: z.enum(PERMISSION_MODES).optional(),
});
export const RESTORE_RECORD = declareRecord(RestoreRecord);

export type RestoreRecord = z.infer<typeof RestoreRecord>;
