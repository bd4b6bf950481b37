// What every transcript row may carry besides its own fields: marks the host derives from the
// records (never from text). `rolledBack`: a chat restore rolled the row back (src/view/rolledBack.ts);
// it stays shown, dimmed and readable, and `first` is the first of those rows, which says so.
import * as z from 'zod';

export const ROLLED_BACK_MARKS = ['first', 'rest'] as const;
export const RolledBackMark = z.enum(ROLLED_BACK_MARKS);
export type RolledBackMark = z.infer<typeof RolledBackMark>;

/** A row's schema: its own fields and the marks every row may carry. */
export function rowSchema<T extends z.ZodRawShape>(shape: T) {
	return z.object({ ...shape, rolledBack: RolledBackMark.optional() });
}
