// What a server sent, read the one way both HTTP providers read it: JSON.parse, then a zod
// schema, else a ProviderError worded by the caller (an event of a stream, a model list).
import type * as z from 'zod';
import type { ProviderError } from './provider';

/** What was wrong: the text is not JSON, or the JSON (given) is not of the schema's shape. */
export type JsonProblem = { readonly kind: 'json'; readonly cause: unknown } | { readonly kind: 'shape'; readonly cause: unknown; readonly json: unknown };

/** `text` as JSON of `schema`'s shape; anything else throws the ProviderError `problem` words. */
export function parseJson<S extends z.ZodType>(text: string | undefined, schema: S, problem: (problem: JsonProblem) => ProviderError): z.output<S> {
	let json: unknown;
	try {
		json = JSON.parse(text ?? '');
	} catch (cause) {
		throw problem({ kind: 'json', cause });
	}
	const parsed = schema.safeParse(json);
	if (!parsed.success) {
		throw problem({ kind: 'shape', cause: parsed.error, json });
	}
	return parsed.data;
}
