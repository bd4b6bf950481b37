// The wire schema of an elicitation form's fields and entries (src/vocabulary/elicitationForm.ts
// reads and checks them), for the request cards' messages (mcpRequests.ts); and the form's own
// rules, for the webview to check the entries before Submit as the host checks them after.
import * as z from 'zod';
import type { ElicitationField as Field, FormEntries as Entries } from '../vocabulary/elicitationForm';

export { checkEntries, initialEntries } from '../vocabulary/elicitationForm';

const text = z.string().max(4000);
const option = z.object({ value: z.string().max(1000), label: z.string().max(1000) });
const common = { name: z.string().min(1).max(200), title: text, description: text.optional(), required: z.boolean() };
const count = z.number().int().nonnegative();

export type ElicitationField = Field;
export const ElicitationField: z.ZodType<Field> = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('text'),
		...common,
		format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
		minLength: count.optional(),
		maxLength: count.optional(),
		default: z.string().max(100_000).optional(),
	}),
	z.object({ kind: z.literal('number'), ...common, integer: z.boolean(), minimum: z.number().optional(), maximum: z.number().optional(), default: z.number().optional() }),
	z.object({ kind: z.literal('boolean'), ...common, default: z.boolean().optional() }),
	z.object({ kind: z.literal('choice'), ...common, options: z.array(option).min(1).max(500), default: z.string().max(1000).optional() }),
	z.object({
		kind: z.literal('multi'),
		...common,
		options: z.array(option).min(1).max(500),
		minItems: count.optional(),
		maxItems: count.optional(),
		default: z.array(z.string().max(1000)).max(500).optional(),
	}),
]);

const entry = z.union([z.string().max(100_000), z.boolean(), z.array(z.string().max(1000)).max(500)]);
export const FormEntries: z.ZodType<Entries> = z.record(z.string().max(200), entry);
export type FormEntries = Entries;
