// The LSP tool's read operations over the language features port: each answers with places as
// `path:line:col: text` (format.ts), bounded, or says plainly that nothing was found — and, for a
// file whose language no installed extension serves, says that instead of "no results".
import { sanitizeUntrusted } from '../../reminders/envelope';
import { plural } from '../../base/words';
import { ToolError } from '../errors';
import { truncateChars } from '../text';
import type { ToolContext, ToolResult } from '../tool';
import { bounded, LineTexts, placeLine, shownPath, sortedPlaces, symbolLine } from './format';
import { LSP_DEFAULT_RESULTS, type LspInput, type LspOperation } from './input';
import type { CodeCall, CodeLocation, CodeSymbol, FileProblems, LanguageFeatures } from './port';
import { bare, fileOf, nameOf, type Target, targetOf } from './target';

/** The most characters of hover text the model reads. */
export const LSP_HOVER_CHARS = 6000;
/** The most call places listed under one caller or callee. */
const MAX_CALL_PLACES = 5;

const WHAT: Record<Exclude<LspOperation, 'rename' | 'diagnostics' | 'workspaceSymbols'>, string> = {
	definition: 'definition',
	references: 'references',
	implementation: 'implementations',
	hover: 'hover information',
	documentSymbols: 'symbols',
	incomingCalls: 'callers',
	outgoingCalls: 'calls',
};

/**
 * What an empty answer means: a file whose language no installed extension serves has no provider
 * to ask (the editor's commands answer "nothing" either way, so the extensions are asked instead).
 */
export async function nothingFound(features: LanguageFeatures, path: string, what: string, where: string, roots: readonly string[]): Promise<string> {
	const language = await features.language(path).catch(() => undefined);
	if (language !== undefined && language.providers.length === 0) {
		const name = sanitizeUntrusted(language.name);
		return (
			`No extension here provides language features for ${name} files: ${shownPath(path, roots)} is ${name} (language id "${sanitizeUntrusted(language.id)}"), ` +
			'and no installed extension with code activates on that language, so there is nothing to ask for its ' +
			`${what}. Use Grep and Read for this file instead.`
		);
	}
	return `No ${what} found for ${where}.`;
}

async function atTarget(input: LspInput, context: ToolContext, features: LanguageFeatures): Promise<{ target: Target; texts: LineTexts; where: string }> {
	const target = await targetOf(input, context, features);
	const texts = new LineTexts(features);
	const where = await placeLine({ path: target.path, range: { start: target.at, end: target.at } }, context.roots, texts);
	return { target, texts, where };
}

async function places(input: LspInput, context: ToolContext, features: LanguageFeatures, op: 'definition' | 'references' | 'implementation'): Promise<string> {
	const { target, texts, where } = await atTarget(input, context, features);
	const found = sortedPlaces(await features[op](target.path, target.at), context.roots);
	if (found.length === 0) {
		return nothingFound(features, target.path, WHAT[op], where, context.roots);
	}
	const max = input.max_results ?? LSP_DEFAULT_RESULTS;
	const head = op === 'definition' ? plural(found.length, 'definition') : op === 'references' ? plural(found.length, 'reference') : plural(found.length, 'implementation');
	const lines = await bounded(found, max, (location) => placeLine(location, context.roots, texts));
	return `${head} of ${where}\n${lines.join('\n')}`;
}

async function hover(input: LspInput, context: ToolContext, features: LanguageFeatures): Promise<string> {
	const { target, where } = await atTarget(input, context, features);
	const texts = (await features.hover(target.path, target.at)).map((text) => text.trim()).filter((text) => text !== '');
	if (texts.length === 0) {
		return nothingFound(features, target.path, WHAT.hover, where, context.roots);
	}
	const body = texts.join('\n\n---\n\n');
	const cut = body.length > LSP_HOVER_CHARS ? `${truncateChars(body, LSP_HOVER_CHARS)}\n[… ${body.length - LSP_HOVER_CHARS} more characters of the hover cut]` : body;
	return `Hover at ${where}\n${sanitizeUntrusted(cut)}`;
}

async function documentSymbols(input: LspInput, context: ToolContext, features: LanguageFeatures): Promise<string> {
	if (input.path === undefined) {
		throw new ToolError('documentSymbols needs `path`: the file whose outline to list.');
	}
	const path = await fileOf(input.path, context);
	const symbols = await features.documentSymbols(path);
	const shown = shownPath(path, context.roots);
	if (symbols.length === 0) {
		return nothingFound(features, path, WHAT.documentSymbols, shown, context.roots);
	}
	const texts = new LineTexts(features);
	const lines = await bounded(symbols, input.max_results ?? LSP_DEFAULT_RESULTS, (symbol) => symbolLine(symbol, context.roots, texts));
	return `${plural(symbols.length, 'symbol')} in ${shown}\n${lines.join('\n')}`;
}

async function workspaceSymbols(input: LspInput, context: ToolContext, features: LanguageFeatures): Promise<string> {
	const query = input.query ?? input.symbol;
	if (query === undefined) {
		throw new ToolError('workspaceSymbols needs `query`: the text of the names to look for.');
	}
	const symbols = await features.workspaceSymbols(query);
	const safe = JSON.stringify(sanitizeUntrusted(query));
	if (symbols.length === 0) {
		return `No symbol in the workspace matches ${safe} (the language extensions of the workspace's open languages were asked).`;
	}
	const texts = new LineTexts(features);
	// A workspace symbol's place is its whole declaration (`export class …`): each is shown at its name, where the other operations take it.
	const atName = async (symbol: CodeSymbol) => {
		const start = await nameOf({ ...symbol, name: bare(symbol.name) }, features);
		return symbolLine({ ...symbol, location: { path: symbol.location.path, range: { start, end: start } } }, context.roots, texts);
	};
	const lines = await bounded(symbols, input.max_results ?? LSP_DEFAULT_RESULTS, atName);
	return `${plural(symbols.length, 'symbol')} matching ${safe}\n${lines.join('\n')}`;
}

async function calls(input: LspInput, context: ToolContext, features: LanguageFeatures, op: 'incomingCalls' | 'outgoingCalls'): Promise<string> {
	const { target, texts, where } = await atTarget(input, context, features);
	const found = await features[op](target.path, target.at);
	if (found.length === 0) {
		return nothingFound(features, target.path, WHAT[op], where, context.roots);
	}
	const render = async (call: CodeCall) => {
		const head = await symbolLine(call.symbol, context.roots, texts);
		const at = await bounded(sortedPlaces(call.calls, context.roots), MAX_CALL_PLACES, async (place: CodeLocation) => `    called at ${await placeLine(place, context.roots, texts)}`);
		return [head, ...at].join('\n');
	};
	const lines = await bounded(found, input.max_results ?? LSP_DEFAULT_RESULTS, render);
	const head = op === 'incomingCalls' ? `${plural(found.length, 'caller')} of ${where}` : `${plural(found.length, 'function')} called from ${where}`;
	return `${head}\n${lines.join('\n')}`;
}

const SEVERITY_ORDER = { error: 0, warning: 1, information: 2, hint: 3 } as const;

function byPlace(a: { file: string; problem: { range: { start: { line: number } } } }, b: typeof a): number {
	return a.file < b.file ? -1 : a.file > b.file ? 1 : a.problem.range.start.line - b.problem.range.start.line;
}

async function diagnostics(input: LspInput, context: ToolContext, features: LanguageFeatures): Promise<string> {
	const path = input.path === undefined ? undefined : await fileOf(input.path, context);
	const files = (await features.diagnostics(path)).filter((file) => file.problems.length > 0);
	const where = path === undefined ? 'the workspace' : shownPath(path, context.roots);
	const all = files
		.flatMap((file: FileProblems) => file.problems.map((problem) => ({ file: file.path, problem })))
		.sort((a, b) => SEVERITY_ORDER[a.problem.severity] - SEVERITY_ORDER[b.problem.severity] || byPlace(a, b));
	if (all.length === 0) {
		return `No problems in ${where} now (as the editor's Problems panel reports them).`;
	}
	const texts = new LineTexts(features);
	const lines = await bounded(all, input.max_results ?? LSP_DEFAULT_RESULTS, async ({ file, problem }) => {
		const place = await placeLine({ path: file, range: problem.range }, context.roots, texts);
		const origin = [problem.source, problem.code].filter((part) => part !== undefined && part !== '').join(' ');
		return `${place}\n    ${problem.severity}${origin === '' ? '' : ` [${sanitizeUntrusted(origin)}]`}: ${sanitizeUntrusted(truncateChars(problem.message.replace(/\s+/g, ' ').trim(), 400))}`;
	});
	return `${plural(all.length, 'problem')} in ${where}${files.length > 1 ? ` (${plural(files.length, 'file')})` : ''}\n${lines.join('\n')}`;
}

/** Runs a read operation (every one but rename). */
export async function readOperation(input: LspInput, context: ToolContext, features: LanguageFeatures): Promise<ToolResult> {
	switch (input.operation) {
		case 'definition':
		case 'references':
		case 'implementation':
			return { content: await places(input, context, features, input.operation) };
		case 'hover':
			return { content: await hover(input, context, features) };
		case 'documentSymbols':
			return { content: await documentSymbols(input, context, features) };
		case 'workspaceSymbols':
			return { content: await workspaceSymbols(input, context, features) };
		case 'incomingCalls':
		case 'outgoingCalls':
			return { content: await calls(input, context, features, input.operation) };
		case 'diagnostics':
			return { content: await diagnostics(input, context, features) };
		case 'rename':
			throw new ToolError('rename changes files; it runs as a change, reviewed like any other.');
	}
}
