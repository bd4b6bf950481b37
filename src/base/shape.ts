// The fast check of a parsed JSON value, derived from its zod schema. A load reads records by the
// thousand: a check that takes such a value as it is spares the copy zod builds of every one. It
// accepts only what zod would return unchanged (no unknown field, no field set to undefined, no
// `.catch()` taken); anything else goes to zod, which decides and words the error. It is derived
// once, at module load, from the schema's definition (zod 4's `def`, zod pinned at 4.6.7): a
// construct this file does not understand throws then, so no schema silently gets a weaker check.
import type * as z from 'zod';
import { type CheckDef, checkOf, SchemaNotUnderstood } from './zodChecks';

export type Check = (value: unknown) => boolean;
type Shape = Readonly<Record<string, Check>>;

/**
 * Checks every field of `shape` and that `value` has no other field (none inherited, none set to
 * undefined), `kind` first when `kindFirst`.
 */
function hasShape(value: unknown, shape: Shape, kindFirst: boolean): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return false;
	}
	const record = value as Record<string, unknown>;
	let fields = 0;
	for (const key in shape) {
		const field = record[key];
		if (field !== undefined) {
			fields++;
		}
		if (!(shape[key] as Check)(field)) {
			return false;
		}
	}
	let keys = 0;
	for (const key in record) {
		if ((kindFirst && keys === 0 && key !== 'kind') || !Object.hasOwn(record, key)) {
			return false;
		}
		keys++;
	}
	return keys === fields;
}

/** The check of values `schema` takes as they are. Throws for a construct it does not understand. */
export function fastCheckOf(schema: z.ZodType, at = 'value'): Check {
	return derive(schema, at, false);
}

/** The check of a record: an object whose first field, in the schema and in the value, is `kind`. */
export function recordCheckOf(schema: z.ZodObject, at: string): Check {
	if (Object.keys(schema.shape)[0] !== 'kind') {
		throw new SchemaNotUnderstood(at, 'a record schema whose first field is not `kind`');
	}
	return derive(schema, at, true);
}

type Def = Readonly<Record<string, unknown>> & { readonly type: string };

// What each construct's definition may hold besides `type`, `checks` and `error` (a custom
// message changes no verdict); any other field (`coerce`, a string format, …) changes what zod
// takes, so it is refused rather than ignored.
const DEF_FIELDS: ReadonlyMap<string, readonly string[]> = new Map(Object.entries({
	string: [],
	number: [],
	boolean: [],
	unknown: [],
	any: [],
	literal: ['values'],
	enum: ['entries'],
	optional: ['innerType'],
	nullable: ['innerType'],
	catch: ['innerType', 'catchValue'],
	array: ['element'],
	object: ['shape', 'catchall'],
}));

const isString: Check = (value) => typeof value === 'string';
// z.number() takes finite numbers only.
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isBoolean: Check = (value) => typeof value === 'boolean';
/** Present, whatever its value: a required z.unknown() refuses a missing key. */
const present: Check = (value) => value !== undefined;

function derive(schema: z.core.$ZodType, at: string, kindFirst: boolean): Check {
	const def = schema._zod.def as Def;
	const fields = DEF_FIELDS.get(def.type);
	if (fields === undefined) {
		throw new SchemaNotUnderstood(at, `zod's ${def.type}`);
	}
	for (const key of Object.keys(def)) {
		if (key !== 'type' && key !== 'checks' && key !== 'error' && !fields.includes(key)) {
			throw new SchemaNotUnderstood(at, `zod's ${def.type} with \`${key}\``);
		}
	}
	const base = baseCheck(schema, def, at, kindFirst);
	const defs = ((def.checks ?? []) as readonly z.core.$ZodCheck[]).map((check) => check._zod.def as CheckDef);
	const checks = defs.map((check) => checkOf(check, def.type, at));
	return COMMON_FORMS.get(formOf(def.type, defs)) ?? allOf(base, checks);
}

// The commonest fields in one call each, as hand-written checks would be: a load calls them for
// every field of every record. Each is exactly the check composed for its form (shape.spec.ts).
const COMMON_FORMS: ReadonlyMap<string, Check> = new Map(Object.entries({
	'string min_length:1': (value) => typeof value === 'string' && value.length > 0,
	'number number_format:safeint': (value) => Number.isSafeInteger(value),
	'number number_format:safeint greater_than:0:true': (value) => Number.isSafeInteger(value) && (value as number) >= 0,
	'number number_format:safeint greater_than:0:false': (value) => Number.isSafeInteger(value) && (value as number) > 0,
}));

function formOf(type: string, checks: readonly CheckDef[]): string {
	const parts = checks.map((check) => [check.check, check.minimum ?? check.format ?? check.value, check.inclusive].filter((part) => part !== undefined).map(String).join(':'));
	return [type, ...parts].join(' ');
}

function allOf(base: Check, checks: readonly Check[]): Check {
	const [first, second] = checks;
	if (first === undefined) {
		return base;
	}
	if (second === undefined) {
		return (value) => base(value) && first(value);
	}
	if (checks.length === 2) {
		return (value) => base(value) && first(value) && second(value);
	}
	return (value) => {
		if (!base(value)) {
			return false;
		}
		for (const check of checks) {
			if (!check(value)) {
				return false;
			}
		}
		return true;
	};
}

function baseCheck(schema: z.core.$ZodType, def: Def, at: string, kindFirst: boolean): Check {
	switch (def.type) {
		case 'string':
			return isString;
		case 'number':
			return isNumber;
		case 'boolean':
			return isBoolean;
		case 'unknown':
		case 'any':
			return present;
		case 'literal': {
			const values = [...(schema as z.ZodLiteral).values];
			if (values.includes(undefined)) {
				throw new SchemaNotUnderstood(at, 'a literal undefined');
			}
			const [only] = values;
			return values.length === 1 ? (value) => value === only : (value) => values.includes(value as z.core.util.Literal);
		}
		case 'enum': {
			const options: readonly unknown[] = (schema as z.ZodEnum).options;
			return (value) => options.includes(value);
		}
		case 'optional': {
			const inner = derive(def.innerType as z.core.$ZodType, at, false);
			return (value) => value === undefined || inner(value);
		}
		case 'nullable': {
			const inner = derive(def.innerType as z.core.$ZodType, at, false);
			return (value) => value === null || inner(value);
		}
		case 'catch':
			// A value the catch would replace is not the record as written: only what the inner schema takes.
			return derive(def.innerType as z.core.$ZodType, at, false);
		case 'array':
			return arrayCheck(derive(def.element as z.core.$ZodType, `${at}[]`, false));
		case 'object':
			return objectCheck(schema as z.ZodObject, def, at, kindFirst);
		default:
			throw new SchemaNotUnderstood(at, `zod's ${def.type}`);
	}
}

function arrayCheck(element: Check): Check {
	// Indexed, not every(): a hole is undefined to zod as well.
	return (value) => {
		if (!Array.isArray(value)) {
			return false;
		}
		for (let index = 0; index < value.length; index++) {
			if (!element(value[index])) {
				return false;
			}
		}
		return true;
	};
}

function objectCheck(schema: z.ZodObject, def: Def, at: string, kindFirst: boolean): Check {
	// A strict object refuses the unknown fields a plain one drops; a loose one would keep them.
	const catchall = def.catchall as z.core.$ZodType | undefined;
	if (catchall !== undefined && catchall._zod.def.type !== 'never') {
		throw new SchemaNotUnderstood(at, 'an object with a catchall');
	}
	const fields: Readonly<Record<string, z.core.$ZodType>> = schema.shape;
	const shape: Record<string, Check> = {};
	for (const [key, field] of Object.entries(fields)) {
		shape[key] = derive(field, `${at}.${key}`, false);
	}
	return (value) => hasShape(value, shape, kindFirst);
}
