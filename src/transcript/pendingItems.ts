// The chat's durable pending reminders as its `meta` record keeps them (records.ts): the notices
// waiting for the root's next request that nothing else makes again when the chat is reopened.
// The latest meta that carries `pending` says which wait; a delivery recorded after it took them.
import * as z from 'zod';

export const PendingItem = z.object({
	type: z.string().min(1),
	key: z.string().min(1),
	body: z.string(),
	label: z.string().optional(),
	reason: z.string().optional(),
	subjects: z.array(z.object({ ref: z.string(), hashes: z.array(z.string()) })).optional(),
});

export type PendingItem = z.infer<typeof PendingItem>;

const isString = (value: unknown): boolean => typeof value === 'string';
const isSubject = (value: unknown): boolean => {
	const subject = value as { ref?: unknown; hashes?: unknown } | null;
	return typeof subject === 'object' && subject !== null && Object.keys(subject).length === 2 && isString(subject.ref) && Array.isArray(subject.hashes) && subject.hashes.every(isString);
};
const FIELDS = new Set(['type', 'key', 'body', 'label', 'reason', 'subjects']);

/** The records' fast path (records.ts): whether `value` is a list of items exactly as PendingItem takes them. */
export function isPendingItems(value: unknown): boolean {
	return (
		Array.isArray(value) &&
		value.every((item: unknown) => {
			if (typeof item !== 'object' || item === null || Array.isArray(item)) {
				return false;
			}
			const fields = item as Record<string, unknown>;
			return (
				Object.keys(fields).every((key) => FIELDS.has(key) && fields[key] !== undefined) &&
				typeof fields.type === 'string' && fields.type !== '' && typeof fields.key === 'string' && fields.key !== '' && isString(fields.body) &&
				(fields.label === undefined || isString(fields.label)) && (fields.reason === undefined || isString(fields.reason)) &&
				(fields.subjects === undefined || (Array.isArray(fields.subjects) && fields.subjects.every(isSubject)))
			);
		})
	);
}
