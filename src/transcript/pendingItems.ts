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
