// Where an LSP call asks: a file and a 1-based line and column; a symbol's name on a given line; or
// a symbol's name alone, found in the file's outline (with a path) or among the workspace's symbols.
// A name that fits several symbols lists them, so the model can say which.
import * as nodePath from 'node:path';
import { sanitizeUntrusted } from '../../reminders/envelope';
import { ToolError } from '../errors';
import { isInside, resolveInWorkspace } from '../paths';
import type { ToolContext } from '../tool';
import { LineTexts, symbolLine } from './format';
import type { LspInput } from './input';
import type { CodePosition, CodeSymbol, LanguageFeatures } from './port';

export interface Target {
	/** Absolute, confined to the workspace. */
	readonly path: string;
	readonly at: CodePosition;
}

/** The most candidates an ambiguous name lists. */
const MAX_CANDIDATES = 20;

/** The file a call names, confined to the workspace folders. */
export function fileOf(path: string, context: ToolContext): Promise<string> {
	return resolveInWorkspace(path, context.roots, context.fs);
}

const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_$]/u.test(char);

/** Where `name` stands as a whole word in `text`, from `from` on; -1 when it does not. */
export function wordIndex(text: string, name: string, from = 0): number {
	for (let index = text.indexOf(name, from); index >= 0; index = text.indexOf(name, index + 1)) {
		if (!isWordChar(text[index - 1]) && !isWordChar(text[index + name.length])) {
			return index;
		}
	}
	return -1;
}

async function linesOf(features: LanguageFeatures, path: string, shown: string): Promise<readonly string[]> {
	const lines = await features.lines(path);
	if (lines === undefined) {
		throw new ToolError(`${shown} could not be opened as text.`);
	}
	return lines;
}

/** A position on `line` (1-based): at `column`, or at `symbol`'s name on that line. */
async function onLine(input: LspInput, line: number, context: ToolContext, features: LanguageFeatures): Promise<Target> {
	if (input.path === undefined) {
		throw new ToolError('A line needs the file it is in: give `path` with `line`.');
	}
	const path = await fileOf(input.path, context);
	const lines = await linesOf(features, path, input.path);
	const text = lines[line - 1];
	if (text === undefined) {
		throw new ToolError(`${input.path} has ${lines.length} lines; there is no line ${line}.`);
	}
	if (input.column !== undefined) {
		if (input.column > text.length + 1) {
			throw new ToolError(`Line ${line} of ${input.path} has ${text.length} characters; there is no column ${input.column}.`);
		}
		return { path, at: { line: line - 1, character: input.column - 1 } };
	}
	if (input.symbol !== undefined) {
		const index = wordIndex(text, input.symbol);
		if (index < 0) {
			throw new ToolError(`Line ${line} of ${input.path} has no word ${JSON.stringify(sanitizeUntrusted(input.symbol))}: ${sanitizeUntrusted(text.trim())}`);
		}
		return { path, at: { line: line - 1, character: index } };
	}
	throw new ToolError('Say where on the line: give `column`, or the `symbol` whose name is on it.');
}

/** The position of the symbol's name: its first whole-word occurrence from the symbol's start (the start itself when none). */
export async function nameOf(symbol: CodeSymbol, features: LanguageFeatures): Promise<CodePosition> {
	const { start, end } = symbol.location.range;
	const lines = (await features.lines(symbol.location.path).catch(() => undefined)) ?? [];
	for (let line = start.line; line <= Math.min(end.line, start.line + 50); line++) {
		const index = wordIndex(lines[line] ?? '', symbol.name, line === start.line ? start.character : 0);
		if (index >= 0) {
			return { line, character: index };
		}
	}
	return start;
}

/** A symbol's bare name: TypeScript lists a function or method among the workspace's symbols as `area()`. */
export const bare = (name: string) => name.replace(/\(\)$/u, '');

/** The symbols named `name`: exactly, else ignoring case; those inside the workspace first, if any are. */
function named(symbols: readonly CodeSymbol[], name: string, roots: readonly string[]): CodeSymbol[] {
	const exact = symbols.filter((symbol) => bare(symbol.name) === name);
	const found = exact.length > 0 ? exact : symbols.filter((symbol) => bare(symbol.name).toLowerCase() === name.toLowerCase());
	const inside = found.filter((symbol) => roots.some((root) => isInside(symbol.location.path, nodePath.resolve(root))));
	return inside.length > 0 ? inside : found;
}

async function bySymbol(input: LspInput, symbol: string, context: ToolContext, features: LanguageFeatures): Promise<Target> {
	const path = input.path === undefined ? undefined : await fileOf(input.path, context);
	const symbols = path === undefined ? await features.workspaceSymbols(symbol) : await features.documentSymbols(path);
	const where = input.path === undefined ? 'among the workspace\'s symbols' : `in the outline of ${input.path}`;
	const found = named(symbols, symbol, context.roots);
	const safeName = JSON.stringify(sanitizeUntrusted(symbol));
	const [only] = found;
	if (only === undefined) {
		throw new ToolError(`No symbol named ${safeName} was found ${where}. Give \`path\`, \`line\` and \`column\` instead, or look with workspaceSymbols or documentSymbols.`);
	}
	if (found.length > 1) {
		const texts = new LineTexts(features);
		const listed = await Promise.all(found.slice(0, MAX_CANDIDATES).map((candidate) => symbolLine({ ...candidate, depth: 0 }, context.roots, texts)));
		const more = found.length > MAX_CANDIDATES ? [`… ${found.length - MAX_CANDIDATES} more`] : [];
		throw new ToolError(`${found.length} symbols named ${safeName} were found ${where}; say which with \`path\` and \`line\` (or \`column\`):\n${[...listed, ...more].join('\n')}`);
	}
	return { path: only.location.path, at: await nameOf({ ...only, name: bare(only.name) }, features) };
}

/** Where a positional operation asks, or a ToolError saying what is missing or what fits several symbols. */
export async function targetOf(input: LspInput, context: ToolContext, features: LanguageFeatures): Promise<Target> {
	if (input.line !== undefined) {
		return onLine(input, input.line, context, features);
	}
	if (input.symbol !== undefined) {
		return bySymbol(input, input.symbol, context, features);
	}
	throw new ToolError(`${input.operation} needs a place: \`path\` with \`line\` and \`column\`, or a \`symbol\` name (with \`path\` to look only in that file).`);
}
