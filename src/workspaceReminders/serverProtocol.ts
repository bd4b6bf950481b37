// The messages between Aside (the language client, src/vscode/reminderLanguage.ts) and the
// reminder language server (src/reminderServer/), beyond the LSP's own. Declared once, each with
// a zod schema the receiving side checks, and a line saying who sends it.
import * as z from 'zod';

/** Server → client request, no params: what the running Aside uses (tools, modes, reserved keys). Answer: `ReminderVocabularyMessage`. */
export const VOCABULARY_REQUEST = 'aside/vocabulary';

/** Client → server notification, no params: the vocabulary changed (an extension registered a reminder); ask again. */
export const VOCABULARY_CHANGED = 'aside/vocabularyChanged';

/** Client → server notification: how often each workspace reminder was sent in the current chat. */
export const REMINDER_STATS = 'aside/reminderStats';

/** The command the "Preview" code lens runs, with the reminder file's URI (a string). */
export const PREVIEW_COMMAND = 'aside.previewWorkspaceReminder';

export const ReminderVocabularyMessage = z.object({
	reservedKeys: z.array(z.string()),
	tools: z.array(z.string()),
	modes: z.array(z.string()),
});

export const ReminderStat = z.object({
	/** Deliveries in the current chat. */
	sent: z.number().int().nonnegative(),
	/** Estimated tokens of those blocks, as sent. */
	tokens: z.number().int().nonnegative(),
});
export type ReminderStat = z.infer<typeof ReminderStat>;

export const ReminderStatsMessage = z.object({
	/** By wire key (`workspace.<key>`). A key not listed was not sent in this chat. */
	stats: z.record(z.string(), ReminderStat),
});
export type ReminderStatsMessage = z.infer<typeof ReminderStatsMessage>;
