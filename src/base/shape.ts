// Hand-written checks of a parsed JSON value's shape, for the records a load reads by the
// thousand: such a check takes the value as it is, where zod would build a copy of it. Each
// shape mirrors a zod schema and is held equal to it by a spec (records.spec.ts, record.spec.ts).

export type Check = (value: unknown) => boolean;
export type Shape = Readonly<Record<string, Check>>;

export const anything: Check = () => true;
export const isString: Check = (value) => typeof value === 'string';
export const isNonEmpty: Check = (value) => typeof value === 'string' && value.length > 0;
// z.number() takes finite numbers only.
export const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
export const isBoolean: Check = (value) => typeof value === 'boolean';
export const optional = (check: Check): Check => (value) => value === undefined || check(value);
export const oneOf = (values: readonly string[]): Check => (value) => typeof value === 'string' && values.includes(value);
// zod 4's .int() takes safe integers only.
export const isNonNegativeInt: Check = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
export const isPositiveInt: Check = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
/** Present, whatever its value (z.unknown() on a key that must be there). */
export const present: Check = (value) => value !== undefined;

/**
 * Checks every field of `shape` and that `value` has no other field (none inherited, none set to
 * undefined), `kind` first when `kindFirst`.
 */
export function hasShape(value: unknown, shape: Shape, kindFirst: boolean): value is Record<string, unknown> {
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

export const arrayOf = (shape: Shape): Check => (value) => Array.isArray(value) && value.every((item) => hasShape(item, shape, false));
export const objectOf = (shape: Shape): Check => (value) => hasShape(value, shape, false);
