// The checks a zod schema carries (`.min()`, `.int()`, `.regex()`, `.refine()`, …), each as the
// fast check of shape.ts, read from its definition. One this file does not know throws.
import * as z from 'zod';
import type { Check } from './shape';

export class SchemaNotUnderstood extends Error {
	override readonly name = 'SchemaNotUnderstood';

	constructor(at: string, what: string) {
		super(`No fast check for ${at}: ${what} is not understood (src/base/shape.ts).`);
	}
}

export type CheckDef = Readonly<Record<string, unknown>> & { readonly check: string; readonly when?: unknown };

// The checks (`.min()`, `.int()`, `.refine()`, …) each construct may carry, and what their
// definitions may hold besides `check`, `when`, `abort` and `error`.
const CHECKS_OF: ReadonlyMap<string, readonly string[]> = new Map(Object.entries({
	string: ['min_length', 'max_length', 'length_equals', 'string_format', 'custom'],
	number: ['number_format', 'greater_than', 'less_than', 'custom'],
	array: ['min_length', 'max_length', 'length_equals', 'custom'],
	object: ['custom'],
	boolean: ['custom'],
	unknown: ['custom'],
	any: ['custom'],
	literal: ['custom'],
	enum: ['custom'],
}));
const CHECK_FIELDS: ReadonlyMap<string, readonly string[]> = new Map(Object.entries({
	min_length: ['minimum'],
	max_length: ['maximum'],
	length_equals: ['length'],
	string_format: ['format', 'pattern'],
	number_format: ['type', 'format'],
	greater_than: ['value', 'inclusive'],
	less_than: ['value', 'inclusive'],
	custom: ['type', 'fn', 'path', 'params'],
}));

// Length checks run under zod's own `when` (the value has a length); any other `when` decides
// on its own when the check applies, which a boolean check cannot follow.
const LENGTH_WHEN = z.string().min(1).def.checks?.[0]?._zod.def.when;

/** The check `def` makes of a value its construct (`type`) already took. */
export function checkOf(def: CheckDef, type: string, at: string): Check {
	const fields = CHECK_FIELDS.get(def.check);
	if (fields === undefined || !(CHECKS_OF.get(type) ?? []).includes(def.check)) {
		throw new SchemaNotUnderstood(at, `a ${def.check} check on zod's ${type}`);
	}
	for (const key of Object.keys(def)) {
		if (key !== 'check' && key !== 'when' && key !== 'abort' && key !== 'error' && !fields.includes(key)) {
			throw new SchemaNotUnderstood(at, `a ${def.check} check with \`${key}\``);
		}
	}
	const isLength = def.check === 'min_length' || def.check === 'max_length' || def.check === 'length_equals';
	if (def.when !== undefined && !(isLength && def.when === LENGTH_WHEN)) {
		throw new SchemaNotUnderstood(at, `a ${def.check} check with its own \`when\``);
	}
	switch (def.check) {
		case 'min_length':
			return minLength(def.minimum as number, type === 'string');
		case 'max_length':
			return maxLength(def.maximum as number, type === 'string');
		case 'length_equals': {
			const length = def.length as number;
			return type === 'string' ? (value) => codePointLength(value as string) === length : (value) => (value as unknown[]).length === length;
		}
		case 'string_format': {
			const pattern = def.pattern;
			if (def.format !== 'regex' || !(pattern instanceof RegExp)) {
				throw new SchemaNotUnderstood(at, `the string format ${String(def.format)}`);
			}
			if (!pattern.global && !pattern.sticky) {
				return (value) => pattern.test(value as string);
			}
			// A global or sticky pattern starts where its last test ended; zod starts it over.
			return (value) => {
				pattern.lastIndex = 0;
				return pattern.test(value as string);
			};
		}
		case 'number_format':
			if (def.format !== 'safeint') {
				throw new SchemaNotUnderstood(at, `the number format ${String(def.format)}`);
			}
			// zod 4's .int() takes safe integers only.
			return (value) => Number.isSafeInteger(value);
		case 'greater_than':
		case 'less_than':
			return bound(def, at);
		default:
			return refinement(def, at);
	}
}

// zod 4.6 measures a string in code points (a pair of surrogates is one), an array in items.
function minLength(minimum: number, isText: boolean): Check {
	if (!isText || minimum <= 1) {
		return (value) => (value as { length: number }).length >= minimum;
	}
	return (value) => {
		const units = (value as string).length;
		return units >= 2 * minimum || (units >= minimum && codePointLength(value as string) >= minimum);
	};
}

function maxLength(maximum: number, isText: boolean): Check {
	if (!isText) {
		return (value) => (value as unknown[]).length <= maximum;
	}
	return (value) => (value as string).length <= maximum || codePointLength(value as string) <= maximum;
}

function codePointLength(text: string): number {
	let count = text.length;
	for (let index = 0; index < text.length - 1; index++) {
		if ((text.charCodeAt(index) & 0xfc00) === 0xd800 && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
			count--;
			index++;
		}
	}
	return count;
}

function bound(def: CheckDef, at: string): Check {
	const limit = def.value;
	if (typeof limit !== 'number') {
		throw new SchemaNotUnderstood(at, `a ${def.check} check of a ${typeof limit}`);
	}
	const above = def.check === 'greater_than';
	if (def.inclusive === true) {
		return above ? (value) => (value as number) >= limit : (value) => (value as number) <= limit;
	}
	return above ? (value) => (value as number) > limit : (value) => (value as number) < limit;
}

// `.refine(fn)`: the value passes when fn says true. A superRefine or a bare check has no `fn`
// (it reports through its context), so it is not a predicate this can call.
function refinement(def: CheckDef, at: string): Check {
	const fn = def.fn;
	if (def.type !== 'custom' || typeof fn !== 'function') {
		throw new SchemaNotUnderstood(at, 'a custom check that is not a .refine()');
	}
	return (value) => (fn as (value: unknown) => unknown)(value) === true;
}
