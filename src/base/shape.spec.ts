// The fast check derived from a zod schema must accept only values zod returns unchanged, and
// refuse only values zod refuses or changes (a few, listed, it refuses on purpose); a construct it
// does not understand must throw when the check is derived.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod';
import { fastCheckOf, recordCheckOf } from './shape';
import { SchemaNotUnderstood } from './zodChecks';

interface Case {
	readonly name: string;
	readonly schema: z.ZodType;
	readonly accepts: readonly unknown[];
	readonly refuses: readonly unknown[];
	/** Refused though zod returns them unchanged: what the check leaves to zod on purpose. */
	readonly stricter?: readonly unknown[];
}

const withHole = (): unknown[] => {
	const sparse: unknown[] = [];
	sparse[1] = 1;
	return sparse;
};
const inherited = Object.assign(Object.create({ a: 'x' }) as object, { b: { c: 1 } });

const CASES: readonly Case[] = [
	{ name: 'string', schema: z.string(), accepts: ['', 'x'], refuses: [1, null, undefined, {}, ['x']] },
	{ name: 'string .min(1)', schema: z.string().min(1), accepts: ['x', '😀'], refuses: ['', 1] },
	// zod 4.6 counts code points: a surrogate pair is one.
	{ name: 'string .min(2), in code points', schema: z.string().min(2), accepts: ['ab', '😀😀', 'a😀'], refuses: ['a', '😀', ''] },
	{ name: 'string .max(2), in code points', schema: z.string().max(2), accepts: ['', 'ab', '😀😀'], refuses: ['abc', '😀😀😀', 'a😀b'] },
	{ name: 'string .length(2), in code points', schema: z.string().length(2), accepts: ['ab', '😀😀'], refuses: ['a', 'abc', '😀', '😀😀😀'] },
	{ name: 'string .regex()', schema: z.string().regex(/^[0-9a-f]{2,}$/), accepts: ['beef', '00'], refuses: ['xyz', '', '0', 7] },
	// A global pattern keeps its lastIndex between tests; the check resets it as zod does.
	{ name: 'string .regex() with the g flag, twice', schema: z.string().regex(/a/g), accepts: ['a', 'a', 'ba'], refuses: ['b'] },
	{ name: 'string .refine()', schema: z.string().refine((text) => text.startsWith('a'), 'not an a'), accepts: ['a', 'ab'], refuses: ['b', '', 1] },
	{ name: 'a .refine() that answers something truthy', schema: z.string().refine((text) => text.length), accepts: [], refuses: [''], stricter: ['ab'] },
	{ name: 'number', schema: z.number(), accepts: [0, -1.5, 1e300, -0], refuses: [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '1', null, undefined] },
	{ name: 'number .int(): safe integers', schema: z.number().int(), accepts: [0, -3, Number.MAX_SAFE_INTEGER], refuses: [1.5, 2 ** 53, -(2 ** 53), Number.NaN] },
	{ name: 'number .int().nonnegative()', schema: z.number().int().nonnegative(), accepts: [0, 5], refuses: [-1, 0.5] },
	{ name: 'number .int().positive()', schema: z.number().int().positive(), accepts: [1], refuses: [0, -1] },
	{ name: 'number .max() and .lt()', schema: z.number().max(10).lt(20), accepts: [10, -5], refuses: [10.5, 20] },
	{ name: 'number .gt()', schema: z.number().gt(1), accepts: [1.5], refuses: [1] },
	{ name: 'boolean', schema: z.boolean(), accepts: [true, false], refuses: [0, 'true', null] },
	{ name: 'literal', schema: z.literal('a'), accepts: ['a'], refuses: ['b', undefined, null] },
	{ name: 'literal of several values', schema: z.literal(['a', 1, true]), accepts: ['a', 1, true], refuses: ['1', false, 2] },
	{ name: 'enum', schema: z.enum(['a', 'b']), accepts: ['a', 'b'], refuses: ['c', '', undefined] },
	{ name: 'unknown, required', schema: z.object({ a: z.unknown() }), accepts: [{ a: null }, { a: 0 }, { a: { x: [1] } }], refuses: [{}] },
	{ name: 'unknown, optional', schema: z.object({ a: z.unknown().optional() }), accepts: [{}, { a: 1 }, { a: null }], refuses: [], stricter: [{ a: undefined }] },
	{ name: 'any, required', schema: z.object({ a: z.any() }), accepts: [{ a: 'x' }], refuses: [{}] },
	{ name: 'optional', schema: z.object({ a: z.string().optional() }), accepts: [{}, { a: 'x' }], refuses: [{ a: 1 }, { a: null }], stricter: [{ a: undefined }] },
	{ name: 'nullable', schema: z.string().nullable(), accepts: [null, 'x'], refuses: [undefined, 1] },
	// What the catch would replace is not the record as written.
	{ name: 'catch', schema: z.object({ mode: z.enum(['a']).optional().catch(undefined) }), accepts: [{}, { mode: 'a' }], refuses: [{ mode: 'z' }, { mode: 1 }] },
	{ name: 'array .min() .max()', schema: z.array(z.number()).min(1).max(2), accepts: [[1], [1, 2]], refuses: [[], [1, 2, 3], [1, 'x'], 'x', {}, withHole()] },
	{ name: 'array of objects', schema: z.array(z.object({ a: z.string() })), accepts: [[], [{ a: 'x' }]], refuses: [[{ a: 'x', b: 1 }], [{}], [null]] },
	{
		name: 'object: exactly its fields, own, none extra',
		schema: z.object({ a: z.string(), b: z.object({ c: z.number() }) }),
		accepts: [{ a: 'x', b: { c: 1 } }, { b: { c: 1 }, a: 'x' }],
		refuses: [{ a: 'x', b: { c: 1 }, d: 1 }, { a: 'x', b: { c: 1, d: 1 } }, { a: 'x' }, [], null, inherited],
	},
	{ name: 'strict object', schema: z.strictObject({ a: z.string() }), accepts: [{ a: 'x' }], refuses: [{ a: 'x', b: 1 }, {}] },
	{ name: 'object .refine()', schema: z.object({ a: z.number(), b: z.number() }).refine((pair) => pair.a < pair.b), accepts: [{ a: 1, b: 2 }], refuses: [{ a: 2, b: 1 }, { a: 1 }] },
	{ name: 'a custom error message', schema: z.string({ error: 'say it' }).min(1, 'not empty'), accepts: ['x'], refuses: ['', 1] },
];

describe('fastCheckOf: each construct, as zod decides it', () => {
	for (const { name, schema, accepts, refuses, stricter = [] } of CASES) {
		it(name, () => {
			const check = fastCheckOf(schema);
			for (const value of accepts) {
				assert.equal(check(value), true, `accepts ${JSON.stringify(value)}`);
				const parsed = schema.safeParse(value);
				assert.ok(parsed.success && isDeepStrictEqual(parsed.data, value), `zod returns ${JSON.stringify(value)} unchanged`);
			}
			for (const value of refuses) {
				assert.equal(check(value), false, `refuses ${JSON.stringify(value)}`);
				const parsed = schema.safeParse(value);
				assert.ok(!parsed.success || !isDeepStrictEqual(parsed.data, value), `zod refuses or changes ${JSON.stringify(value)}`);
			}
			for (const value of stricter) {
				assert.equal(check(value), false, `leaves ${JSON.stringify(value)} to zod`);
				assert.ok(schema.safeParse(value).success, `zod takes ${JSON.stringify(value)}`);
			}
		});
	}

	it('a record: kind first, as this version writes it; another key order is left to zod', () => {
		const check = recordCheckOf(z.object({ kind: z.literal('note'), text: z.string() }), 'note');
		assert.equal(check({ kind: 'note', text: 'x' }), true);
		assert.equal(check({ text: 'x', kind: 'note' }), false);
		assert.equal(check({ kind: 'other', text: 'x' }), false);
		assert.throws(() => recordCheckOf(z.object({ text: z.string(), kind: z.literal('note') }), 'note'), /note: a record schema whose first field is not `kind`/);
	});
});

describe('fastCheckOf: a construct it does not understand throws when the check is derived', () => {
	const refused: readonly [string, () => z.ZodType][] = [
		['union', () => z.union([z.string(), z.number()])],
		['discriminated union', () => z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') })])],
		['default', () => z.string().default('x')],
		['transform', () => z.string().transform((text) => text.length)],
		['coerce', () => z.coerce.number()],
		['a string format', () => z.email()],
		['trim (an overwrite)', () => z.string().trim()],
		['lowercase', () => z.string().lowercase()],
		['startsWith', () => z.string().startsWith('a')],
		['superRefine', () => z.string().superRefine(() => undefined)],
		['a refine with its own when', () => z.string().refine((text) => text !== '', { when: () => true })],
		['multipleOf', () => z.number().multipleOf(2)],
		['int32', () => z.int32()],
		['a loose object', () => z.looseObject({ a: z.string() })],
		['a catchall', () => z.object({ a: z.string() }).catchall(z.string())],
		['record', () => z.record(z.string(), z.string())],
		['tuple', () => z.tuple([z.string()])],
		['date', () => z.date()],
		['null', () => z.null()],
		['bigint', () => z.bigint()],
		['literal undefined', () => z.literal(undefined)],
		['a check on optional', () => z.string().optional().refine(() => true)],
		['lazy', () => z.lazy(() => z.string())],
	];
	for (const [name, schema] of refused) {
		it(name, () => {
			assert.throws(() => fastCheckOf(schema()), SchemaNotUnderstood);
		});
	}

	it('names where, however deep', () => {
		const schema = z.object({ rows: z.array(z.object({ owner: z.union([z.string(), z.null()]) })) });
		assert.throws(() => fastCheckOf(schema, 'tasks'), /^SchemaNotUnderstood: No fast check for tasks\.rows\[\]\.owner: zod's union is not understood/);
	});
});
