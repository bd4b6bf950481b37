// A turn no person asked for (docs/tools.md, "Run in the background": aside.run.wakeOnExit). Its
// user record carries, instead of a person's words, the keyed reminder Aside sent in their place:
// the model reads it as a <system-reminder> block that says no person wrote it, the chat shows it
// as Aside's row, and replay sends it again exactly as it was sent.
import * as z from 'zod';
import { forgedMarkerIn, isValidReminderKey, wrap } from '../reminders/envelope';

export const StartedBy = z
	.object({
		/** Why Aside started the turn, in a line (the row shows it): "p1 `npm test` exited: exit code 1". */
		why: z.string().min(1).max(2000),
		/** The reminder sent in the person's place: its key, its chat label and its body, as sent. */
		key: z.string().refine(isValidReminderKey, 'expected a reminder key ([A-Za-z0-9._-]+)'),
		label: z.string().min(1),
		body: z.string().min(1),
	})
	.refine((started) => forgedMarkerIn(started.key, started.body) === undefined, 'the body may not contain a <system-reminder> marker');
export type StartedBy = z.infer<typeof StartedBy>;

/** The message the model gets for a turn Aside started: its reminder, wrapped. */
export function startedByText(started: StartedBy): string {
	return wrap(started.key, started.body);
}
