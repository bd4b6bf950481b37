// A restore's words, defined once: the transcript's restore record, the checkpoints' restore plan
// and the protocol's Restore… menu and rows take them from here. No imports.

/** What a Restore… rolls back: the files Aside's tools changed, the chat, or both. */
export const RESTORE_SCOPES = ['files', 'chat', 'both'] as const;
export type RestoreScope = (typeof RESTORE_SCOPES)[number];

/** What Restore… asks for: a scope to before a message, or `undo` of a restore (then `to` is the restore's id). */
export type RestoreRequest = RestoreScope | 'undo';

/** What a restore did (or would do) with each file. */
export const RESTORED_FILE_ACTIONS = ['change', 'recreate', 'delete', 'keep', 'person-changed', 'missing', 'outside'] as const;
export type RestoredFileAction = (typeof RESTORED_FILE_ACTIONS)[number];
