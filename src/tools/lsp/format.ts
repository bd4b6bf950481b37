// How the LSP tool shows a place: `path:line:col: the line's text`, 1-based, the path relative to
// the workspace folder, a place outside the workspace marked as such, the line trimmed and cut, and
// the text neutralised as any outside text is. Lists are bounded, the rest counted.
import * as nodePath from 'node:path';
import { sanitizeUntrusted } from '../../reminders/envelope';
import { displayPath, isInside } from '../paths';
import { truncateChars } from '../text';
import type { CodeLocation, CodeSymbol, LanguageFeatures } from './port';

/** The most characters of a line's text shown beside a place. */
export const LSP_LINE_CHARS = 160;
/** The most files whose lines one call reads for the text beside its places. */
const MAX_FILES_READ = 60;

export const OUTSIDE_MARK = '(outside the workspace) ';

/** A place's path as the model reads it: workspace-relative, or marked as outside the workspace. */
export function shownPath(path: string, roots: readonly string[]): string {
	const inside = nodePath.isAbsolute(path) && roots.some((root) => isInside(path, nodePath.resolve(root)));
	return sanitizeUntrusted(inside ? displayPath(path, roots) : `${OUTSIDE_MARK}${path.split(nodePath.sep).join('/')}`);
}

/** Reads each file's lines once per call, for the text beside its places. */
export class LineTexts {
	private readonly files = new Map<string, Promise<readonly string[] | undefined>>();

	constructor(private readonly features: LanguageFeatures) {}

	async line(path: string, line: number): Promise<string | undefined> {
		let lines = this.files.get(path);
		if (!lines) {
			if (this.files.size >= MAX_FILES_READ) {
				return undefined;
			}
			lines = this.features.lines(path).catch(() => undefined);
			this.files.set(path, lines);
		}
		return (await lines)?.[line];
	}
}

/** `src/a.ts:12:3: const x = area(shape);` (the text left out when the line cannot be read). */
export async function placeLine(location: CodeLocation, roots: readonly string[], texts: LineTexts): Promise<string> {
	const { start } = location.range;
	const text = await texts.line(location.path, start.line);
	const head = `${shownPath(location.path, roots)}:${start.line + 1}:${start.character + 1}`;
	const shown = text === undefined ? '' : truncateChars(text.trim(), LSP_LINE_CHARS);
	return shown === '' ? head : `${head}: ${sanitizeUntrusted(shown)}`;
}

/** `Function area (in shapes) — src/a.ts:3:17: export function area(…` */
export async function symbolLine(symbol: CodeSymbol, roots: readonly string[], texts: LineTexts): Promise<string> {
	const container = symbol.container ? ` (in ${sanitizeUntrusted(symbol.container)})` : '';
	const indent = '  '.repeat(Math.min(symbol.depth ?? 0, 8));
	return `${indent}${symbol.kind} ${sanitizeUntrusted(symbol.name)}${container} — ${await placeLine(symbol.location, roots, texts)}`;
}

/** The first `max` of `items` rendered, and a line counting the rest. */
export async function bounded<T>(items: readonly T[], max: number, render: (item: T) => Promise<string>): Promise<string[]> {
	const lines: string[] = [];
	for (const item of items.slice(0, max)) {
		lines.push(await render(item));
	}
	if (items.length > max) {
		lines.push(`… ${(items.length - max).toLocaleString('en-US')} more not listed (max_results is ${max}).`);
	}
	return lines;
}

/** Places in a stable order (those in the workspace first, then by path, line and column), each once. */
export function sortedPlaces(locations: readonly CodeLocation[], roots: readonly string[]): CodeLocation[] {
	const outside = (path: string) => (roots.some((root) => isInside(path, nodePath.resolve(root))) ? 0 : 1);
	const seen = new Set<string>();
	const unique = locations.filter((location) => {
		const key = `${location.path}\0${location.range.start.line}\0${location.range.start.character}`;
		return seen.has(key) ? false : (seen.add(key), true);
	});
	return unique.sort(
		(a, b) =>
			outside(a.path) - outside(b.path) ||
			(a.path !== b.path ? (a.path < b.path ? -1 : 1) : a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character),
	);
}
