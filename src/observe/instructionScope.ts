// Where a rules file's frontmatter says it applies: Copilot's `.instructions.md` (`applyTo`) and
// Cursor's `.mdc` rules (`alwaysApply`, `globs`, `description`). Both come down to one scope, so the
// root reader and the Read observer treat the two kinds alike.
import picomatch from 'picomatch';
import { parseDocument } from 'yaml';
import { splitFrontmatter } from '../base/frontmatter';

/** What a rules file's frontmatter says: for every file, for the files some globs match, only on request, never, or why it cannot be used. */
export type InstructionScope =
	| { readonly kind: 'root' }
	| { readonly kind: 'paths'; readonly patterns: readonly string[]; readonly matches: (relativePath: string) => boolean }
	/** Cursor's "agent requested" rule: listed by its description, for the model to Read when it fits. */
	| { readonly kind: 'requested'; readonly description: string }
	/** Cursor's "manual" rule: only what a person attaches by name, so never given on its own. */
	| { readonly kind: 'manual' }
	| { readonly kind: 'malformed'; readonly reason: string };

type Malformed = Extract<InstructionScope, { kind: 'malformed' }>;

function malformed(reason: string): Malformed {
	return { kind: 'malformed', reason };
}

/** The frontmatter's fields; undefined when the file has none (or an empty one). */
function fieldsOf(
	text: string,
	prepare: (yaml: string) => string = (yaml) => yaml,
): { readonly fields: Readonly<Record<string, unknown>> | undefined } | Malformed {
	const parts = splitFrontmatter(text);
	if ('error' in parts) {
		return malformed(parts.error);
	}
	if (parts.yaml === undefined) {
		return { fields: undefined };
	}
	let data: unknown;
	try {
		const document = parseDocument(prepare(parts.yaml));
		if (document.errors.length > 0) {
			const error = document.errors[0];
			return malformed(`the frontmatter is not valid YAML${error?.linePos ? ` (line ${error.linePos[0].line + 1})` : ''}: ${(error?.message ?? '').split('\n')[0] ?? ''}`);
		}
		data = document.toJS();
	} catch (error) {
		return malformed(`the frontmatter cannot be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
	}
	if (data === null || data === undefined) {
		return { fields: undefined };
	}
	if (typeof data !== 'object' || Array.isArray(data)) {
		return malformed('the frontmatter must be a set of fields (name: value)');
	}
	return { fields: data as Record<string, unknown> };
}

/** `applyTo: "**\/*.ts,**\/*.tsx"` as Copilot (and Cursor's `globs`) write it: split at the commas outside `{…}`. */
function splitPatterns(value: string): string[] {
	const patterns: string[] = [];
	let depth = 0;
	let current = '';
	for (const char of value) {
		if (char === ',' && depth === 0) {
			patterns.push(current);
			current = '';
			continue;
		}
		depth += char === '{' ? 1 : char === '}' ? -1 : 0;
		current += char;
	}
	patterns.push(current);
	return patterns.map((pattern) => pattern.trim()).filter((pattern) => pattern !== '');
}

/** A glob, comma-separated globs, or a list of them; undefined when the value is none of those. */
function patternsOf(value: unknown): string[] | undefined {
	if (typeof value === 'string') {
		return splitPatterns(value);
	}
	return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.flatMap(splitPatterns) : undefined;
}

/**
 * The scope some globs give, over paths relative to the workspace folder, with `/`, dot files
 * included; `**` among them is the whole workspace. `field` names them in a refusal.
 */
function scopeOfPatterns(field: string, patterns: readonly string[]): InstructionScope {
	if (patterns.includes('**') || patterns.includes('**/*')) {
		return { kind: 'root' };
	}
	const matchers: ((path: string) => boolean)[] = [];
	for (const pattern of patterns) {
		if (pattern.includes('\\') || /^([/~]|[A-Za-z]:)/.test(pattern) || pattern.split('/').includes('..')) {
			return malformed(`${field} "${pattern}" is not a glob relative to the workspace folder (write / and no leading /, ~ or ..)`);
		}
		try {
			matchers.push(picomatch(pattern.replace(/^\.\//, ''), { dot: true, strictBrackets: true, windows: false }));
		} catch (error) {
			return malformed(`${field} "${pattern}" is not a valid glob (${error instanceof Error ? error.message : String(error)})`);
		}
	}
	return { kind: 'paths', patterns, matches: (relativePath) => matchers.some((matches) => matches(relativePath)) };
}

/**
 * The scope an `.instructions.md` file's frontmatter gives it. No frontmatter, no `applyTo`, or a
 * `**` among its globs: the whole workspace (root instructions).
 */
export function applyToScope(text: string): InstructionScope {
	const parsed = fieldsOf(text);
	if ('reason' in parsed) {
		return parsed;
	}
	const applyTo = parsed.fields?.applyTo;
	if (applyTo === undefined || applyTo === null) {
		return { kind: 'root' };
	}
	const patterns = patternsOf(applyTo);
	if (patterns === undefined) {
		return malformed('applyTo must be a glob or a list of globs (for example "**/*.ts")');
	}
	return patterns.length === 0 ? malformed('applyTo names no glob') : scopeOfPatterns('applyTo', patterns);
}

const MAX_DESCRIPTION = 300;

/**
 * Cursor writes `globs: **\/*.ts, src/**` unquoted, which YAML reads as an alias: such a value
 * (and a description, which may hold a colon) is taken as the text it is, as Cursor takes it.
 */
function quoteCursorScalars(yaml: string): string {
	return yaml
		.split('\n')
		.map((line) => line.replace(/^(globs|description)([ \t]*:[ \t]*)([^\s"'[|>].*?)[ \t]*$/, (_whole, key: string, colon: string, value: string) => `${key}${colon}${JSON.stringify(value)}`))
		.join('\n');
}

/**
 * The scope a Cursor rule's frontmatter gives it: `alwaysApply: true`, the whole workspace; else
 * `globs`, the files they match; else a `description`, listed for the model to ask for; else none.
 */
export function cursorRuleScope(text: string): InstructionScope {
	const parsed = fieldsOf(text, quoteCursorScalars);
	if ('reason' in parsed) {
		return parsed;
	}
	const { alwaysApply, globs, description } = parsed.fields ?? {};
	if (alwaysApply !== undefined && alwaysApply !== null && typeof alwaysApply !== 'boolean') {
		return malformed('alwaysApply must be true or false');
	}
	if (description !== undefined && description !== null && typeof description !== 'string') {
		return malformed('description must be text');
	}
	const patterns = globs === undefined || globs === null ? [] : patternsOf(globs);
	if (patterns === undefined) {
		return malformed('globs must be a glob, globs separated by commas, or a list of globs (for example **/*.ts)');
	}
	if (alwaysApply === true) {
		return { kind: 'root' };
	}
	if (patterns.length > 0) {
		return scopeOfPatterns('globs', patterns);
	}
	// One line in the listing, however long the description was written.
	const told = (description ?? '').replace(/\s+/g, ' ').trim();
	const line = told.length > MAX_DESCRIPTION ? `${told.slice(0, MAX_DESCRIPTION - 1).trimEnd()}…` : told;
	return line === '' ? { kind: 'manual' } : { kind: 'requested', description: line };
}

/** The text to deliver of a rules file: its body without the frontmatter (metadata for the reader, not instructions). */
export function scopedBody(text: string): string {
	const parts = splitFrontmatter(text);
	if ('error' in parts) {
		return text;
	}
	// The blank line people leave under the closing fence is not part of the instructions.
	return parts.yaml === undefined ? text : parts.body.replace(/^\s*\n/, '');
}
