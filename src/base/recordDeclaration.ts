// One declaration per record kind: its zod schema, the fast check derived from it (shape.ts), and
// what the schema cannot say. A kind's own file exports its declaration; the transcript composes
// its table of kinds from them (src/transcript/records.ts), so a kind moves with its declaration.
import type * as z from 'zod';
import { type Check, recordCheckOf } from './shape';

export interface RecordDeclaration<Schema extends z.ZodObject = z.ZodObject> {
	/** The `kind` its records carry: the literal of the schema's first field. */
	readonly kind: string;
	readonly schema: Schema;
	/** Whether a value is exactly such a record as this version writes it (`kind` first), so it is taken as it is. */
	readonly isAsWritten: Check;
	/** What the schema cannot say, asked of every record the schema took: what is wrong, as a sentence, or undefined. */
	rule?(record: z.output<Schema>): string | undefined;
}

/** Declares a record kind. Throws at load for a schema whose fast check cannot be derived. */
export function declareRecord<Schema extends z.ZodObject>(schema: Schema, rule?: (record: z.output<Schema>) => string | undefined): RecordDeclaration<Schema> {
	const kind = schema.shape.kind as z.ZodType | undefined;
	const values = kind?.def.type === 'literal' ? [...(kind as z.ZodLiteral).values] : [];
	const [only] = values;
	if (values.length !== 1 || typeof only !== 'string') {
		throw new Error('A record schema starts with `kind: z.literal(\'…\')`.');
	}
	return { kind: only, schema, isAsWritten: recordCheckOf(schema, only), ...(rule ? { rule } : {}) };
}

/** Why a value is not a record of a kind: `invalid` for what the schema refuses, `refused` for the rule. */
export class RecordProblem {
	constructor(
		readonly problem: 'invalid' | 'refused',
		/** What is wrong, as a sentence (a zod issue with its path, or the rule's words). */
		readonly words: string,
	) {}
}

/**
 * Reads a value as a record of `declaration`'s kind: the value itself when it is exactly such a
 * record as this version writes it (not copied: callers must not change it), else zod's copy
 * (unknown fields dropped, `kind` first); then the rule. A load reads every line through here,
 * so a record comes back as it is, and only a problem is an object of its own.
 */
export function readRecord<Schema extends z.ZodObject>(declaration: RecordDeclaration<Schema>, value: unknown): z.output<Schema> | RecordProblem {
	let record: z.output<Schema>;
	if (declaration.isAsWritten(value)) {
		record = value as z.output<Schema>;
	} else {
		const parsed = declaration.schema.safeParse(value);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			return new RecordProblem('invalid', issue ? `${issue.path.join('.') || 'record'}: ${issue.message}.` : 'invalid.');
		}
		record = parsed.data;
	}
	const refused = declaration.rule?.(record);
	return refused === undefined ? record : new RecordProblem('refused', refused);
}
