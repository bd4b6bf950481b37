// An MCP server's elicitation form (docs/mcp.md, "When a server asks"): the flat schema it
// requests read into fields the card shows, the schema's defaults pre-filled (SEP-1034), and the
// person's entries checked against it before anything is sent. No imports: the router (src/mcp/)
// reads the schema and checks the answer at the door, the webview checks before Submit, and
// src/protocol/ gives the fields their wire schema.

interface FieldBase {
	readonly name: string;
	readonly title: string;
	readonly description?: string;
	readonly required: boolean;
}

export interface FormOption {
	readonly value: string;
	readonly label: string;
}

export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';

export type ElicitationField =
	| (FieldBase & { readonly kind: 'text'; readonly format?: TextFormat; readonly minLength?: number; readonly maxLength?: number; readonly default?: string })
	| (FieldBase & { readonly kind: 'number'; readonly integer: boolean; readonly minimum?: number; readonly maximum?: number; readonly default?: number })
	| (FieldBase & { readonly kind: 'boolean'; readonly default?: boolean })
	| (FieldBase & { readonly kind: 'choice'; readonly options: readonly FormOption[]; readonly default?: string })
	| (FieldBase & {
		readonly kind: 'multi';
		readonly options: readonly FormOption[];
		readonly minItems?: number;
		readonly maxItems?: number;
		readonly default?: readonly string[];
	});

/** What the person entered: a text box's text, a checkbox, a select's value ('' for none), a multi-select's values. */
export type FormEntries = Readonly<Record<string, string | boolean | readonly string[]>>;

export type FormValue = string | number | boolean | readonly string[];

type Json = Readonly<Record<string, unknown>>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A select's options: `oneOf`/`anyOf` of `{ const, title }`, or `enum` with the legacy `enumNames`. */
function optionsOf(schema: Json): { value: string; label: string }[] | undefined {
	const titled = (Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined) as Json[] | undefined;
	if (titled) {
		const options = titled.flatMap((entry) => (typeof entry.const === 'string' ? [{ value: entry.const, label: str(entry.title) ?? entry.const }] : []));
		return options.length === titled.length && options.length > 0 ? options : undefined;
	}
	if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((value) => typeof value === 'string')) {
		const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
		return schema.enum.map((value: string, index) => ({ value, label: str(names[index]) ?? value }));
	}
	return undefined;
}

function fieldOf(name: string, schema: Json, required: boolean): ElicitationField | string {
	const description = str(schema.description);
	const base = { name, title: str(schema.title) ?? name, required, ...(description === undefined ? {} : { description }) };
	const options = optionsOf(schema);
	switch (schema.type) {
		case 'string': {
			if (options) {
				const initial = str(schema.default);
				return { kind: 'choice', ...base, options, ...(initial !== undefined && options.some((o) => o.value === initial) ? { default: initial } : {}) };
			}
			const format = str(schema.format);
			if (format !== undefined && !['email', 'uri', 'date', 'date-time'].includes(format)) {
				return `"${name}" asks for a string of format "${format}"`;
			}
			const min = num(schema.minLength);
			const max = num(schema.maxLength);
			const initial = str(schema.default);
			return {
				kind: 'text', ...base,
				...(format === undefined ? {} : { format: format as 'email' }),
				...(min === undefined ? {} : { minLength: min }),
				...(max === undefined ? {} : { maxLength: max }),
				...(initial === undefined ? {} : { default: initial }),
			};
		}
		case 'number':
		case 'integer': {
			const [minimum, maximum, initial] = [num(schema.minimum), num(schema.maximum), num(schema.default)];
			return { kind: 'number', ...base, integer: schema.type === 'integer', ...(minimum === undefined ? {} : { minimum }), ...(maximum === undefined ? {} : { maximum }), ...(initial === undefined ? {} : { default: initial }) };
		}
		case 'boolean':
			return { kind: 'boolean', ...base, ...(typeof schema.default === 'boolean' ? { default: schema.default } : {}) };
		case 'array': {
			const items = optionsOf((schema.items ?? {}) as Json);
			if (!items) {
				return `"${name}" is a list of something other than choices`;
			}
			const [minItems, maxItems] = [num(schema.minItems), num(schema.maxItems)];
			const given: unknown[] | undefined = Array.isArray(schema.default) ? schema.default : undefined;
			const initial = given?.filter((value): value is string => items.some((o) => o.value === value));
			return { kind: 'multi', ...base, options: items, ...(minItems === undefined ? {} : { minItems }), ...(maxItems === undefined ? {} : { maxItems }), ...(initial ? { default: initial } : {}) };
		}
		default:
			return `"${name}" has the type ${JSON.stringify(schema.type)}, which a form cannot ask for`;
	}
}

/** The fields of a requested schema (flat: an object of primitive properties), or why it cannot be shown as a form. */
export function fieldsOf(schema: Json): { readonly fields: ElicitationField[] } | { readonly problem: string } {
	if (schema.type !== 'object' || typeof schema.properties !== 'object' || schema.properties === null) {
		return { problem: 'the requested schema is not an object with properties' };
	}
	const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []);
	const fields: ElicitationField[] = [];
	for (const [name, property] of Object.entries(schema.properties as Record<string, unknown>)) {
		const field = typeof property === 'object' && property !== null ? fieldOf(name, property as Json, required.has(name)) : `"${name}" has no schema`;
		if (typeof field === 'string') {
			return { problem: field };
		}
		fields.push(field);
	}
	return { fields };
}

/** The form as it opens: each field's default, else empty. */
export function initialEntries(fields: readonly ElicitationField[]): FormEntries {
	return Object.fromEntries(fields.map((field): [string, FormEntries[string]] => {
		switch (field.kind) {
			case 'boolean':
				return [field.name, field.default ?? false];
			case 'multi':
				return [field.name, [...(field.default ?? [])]];
			case 'number':
				return [field.name, field.default === undefined ? '' : String(field.default)];
			default:
				return [field.name, field.default ?? ''];
		}
	}));
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

function textProblem(field: Extract<ElicitationField, { kind: 'text' }>, value: string): string | undefined {
	if (field.minLength !== undefined && value.length < field.minLength) {
		return `At least ${field.minLength} characters.`;
	}
	if (field.maxLength !== undefined && value.length > field.maxLength) {
		return `At most ${field.maxLength} characters.`;
	}
	switch (field.format) {
		case 'email':
			return EMAIL.test(value) ? undefined : 'An email address, like name@example.com.';
		case 'uri':
			return URL.canParse(value) ? undefined : 'A full address, like https://example.com.';
		case 'date':
			return DATE.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'A date, like 2026-12-31.';
		case 'date-time':
			return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'A date and time, like 2026-12-31T09:30.';
		default:
			return undefined;
	}
}

/** One field's value from what was entered, or what is wrong with it; undefined: left empty. */
function valueOf(field: ElicitationField, entry: FormEntries[string] | undefined): { value?: FormValue; problem?: string } {
	switch (field.kind) {
		case 'boolean':
			return { value: entry === true };
		case 'multi': {
			const chosen = Array.isArray(entry) ? entry.filter((value) => field.options.some((o) => o.value === value)) : [];
			if (field.minItems !== undefined && chosen.length < field.minItems) {
				return { problem: `Choose at least ${field.minItems}.` };
			}
			if (field.maxItems !== undefined && chosen.length > field.maxItems) {
				return { problem: `Choose at most ${field.maxItems}.` };
			}
			return chosen.length === 0 && !field.required ? {} : { value: chosen };
		}
		default: {
			const given = typeof entry === 'string' ? entry.trim() : '';
			if (given === '') {
				return {};
			}
			if (field.kind === 'choice') {
				return field.options.some((o) => o.value === given) ? { value: given } : { problem: 'Choose one of the options.' };
			}
			if (field.kind === 'number') {
				const number = Number(given);
				if (!Number.isFinite(number) || (field.integer && !Number.isInteger(number))) {
					return { problem: field.integer ? 'A whole number.' : 'A number.' };
				}
				if ((field.minimum !== undefined && number < field.minimum) || (field.maximum !== undefined && number > field.maximum)) {
					return { problem: `From ${field.minimum ?? '−∞'} to ${field.maximum ?? '∞'}.` };
				}
				return { value: number };
			}
			const problem = textProblem(field, given);
			return problem === undefined ? { value: given } : { problem };
		}
	}
}

/**
 * The content to accept with, or what is wrong, by field. An optional field left empty takes its
 * default (SEP-1034: the client applies the schema's defaults to omitted fields), else is left out.
 */
export function checkEntries(
	fields: readonly ElicitationField[],
	entries: FormEntries,
): { readonly content: Record<string, FormValue> } | { readonly problems: Record<string, string> } {
	const content: Record<string, FormValue> = {};
	const problems: Record<string, string> = {};
	for (const field of fields) {
		const { value, problem } = valueOf(field, entries[field.name]);
		if (problem !== undefined) {
			problems[field.name] = problem;
		} else if (value !== undefined) {
			content[field.name] = value;
		} else if (field.default !== undefined) {
			content[field.name] = field.default;
		} else if (field.required) {
			problems[field.name] = 'Required.';
		}
	}
	return Object.keys(problems).length > 0 ? { problems } : { content };
}
