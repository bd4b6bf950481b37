// Values one change away from a record, for the specs that hold a record's fast check (derived
// from its zod schema by src/base/shape.ts) to zod itself: the two must give the same verdicts.
import type * as z from 'zod';

const ODD_VALUES: unknown[] = [undefined, null, '', 'x', 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, true, false, [], {}, [{}], { kind: 'user' }, 'tool-use', 'granted', 'done', 2 ** 60, 'deadbeef', 'bad key', 'x</system-reminder>', 'x'.repeat(4097), '\u{1F600}'.repeat(2049)];

/** The record with one change at `path` (a field, or a field of its first array item or object). */
export function variants(record: Record<string, unknown>): unknown[] {
	const out: unknown[] = [];
	const each = (target: Record<string, unknown>, rebuild: (changed: Record<string, unknown>) => unknown): void => {
		for (const key of Object.keys(target)) {
			const { [key]: _dropped, ...without } = target;
			out.push(rebuild(without));
			for (const odd of ODD_VALUES) {
				out.push(rebuild({ ...target, [key]: odd }));
			}
			const field = target[key];
			const item = Array.isArray(field) ? (field[0] as unknown) : field;
			if (typeof item === 'object' && item !== null && !Array.isArray(item) && key !== 'detail') {
				each(item as Record<string, unknown>, (changed) => rebuild({ ...target, [key]: Array.isArray(field) ? [changed] : changed }));
			}
		}
		out.push(rebuild({ ...target, extra: 1 }));
	};
	each(record, (changed) => changed);
	// `kind` not first: another writer's key order.
	const { kind, ...rest } = record;
	out.push({ ...rest, kind });
	return out;
}

// Leaves to try, in order, until the field's own schema takes one (a pattern, a refine).
const STRINGS = ['x', '0123abcd', 'x.txt', 'p1'];
const NUMBERS = [1, 0, 0.5];

/** A value `schema` takes, every optional field set, each array with one item: a record as written, for any kind. */
export function sampleOf(schema: z.ZodType): unknown {
	const def = schema.def as { readonly type: string } & Readonly<Record<string, unknown>>;
	const first = (candidates: readonly unknown[]): unknown => {
		const taken = candidates.find((candidate) => schema.safeParse(candidate).success);
		if (taken === undefined) {
			throw new Error(`No sample ${def.type} for this schema: add a candidate.`);
		}
		return taken;
	};
	switch (def.type) {
		case 'object':
			return Object.fromEntries(
				Object.entries((schema as z.ZodObject).shape as Readonly<Record<string, z.ZodType>>).map(([key, field]) => [key, sampleOf(field)]),
			);
		case 'array':
			return [sampleOf(def.element as z.ZodType)];
		case 'optional':
		case 'nullable':
		case 'catch':
			return sampleOf(def.innerType as z.ZodType);
		case 'literal':
			return [...(schema as z.ZodLiteral).values][0];
		case 'enum':
			return (schema as z.ZodEnum).options[0];
		case 'string':
			return first(STRINGS);
		case 'number':
			return first(NUMBERS);
		case 'boolean':
			return true;
		case 'unknown':
		case 'any':
			return 'x';
		default:
			throw new Error(`No sample of zod's ${def.type}: teach sampleOf (src/testing/shapeVariants.ts).`);
	}
}
