// Which instruction files of which agents Aside reads, and where: the names of
// `aside.instructions.files`, the files each kind is in a folder (AGENTS.md and CLAUDE.md in every
// folder from the root down; the others at a workspace folder's root), and the frontmatter of
// `.github/instructions/*.instructions.md`, whose `applyTo` globs make a file path-scoped.
//
// Pure but for the synchronous root listing, which the roster's `workspace.instructions` reads at
// WAIT (small, bounded reads).
import { readdirSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import picomatch from 'picomatch';
import { parseDocument } from 'yaml';
import { splitFrontmatter } from '../base/frontmatter';

/** The names `aside.instructions.files` takes, one per kind of file. */
export const INSTRUCTION_KINDS = ['AGENTS.md', 'CLAUDE.md', 'copilot-instructions', '.instructions.md', '.clinerules', '.cursorrules', '.roo/rules'] as const;
export type InstructionKind = (typeof INSTRUCTION_KINDS)[number];

/** Read in every folder from a workspace folder down, in this order: shared before personal. */
const FOLDER_FILES: readonly { readonly kind: InstructionKind; readonly names: readonly string[] }[] = [
	{ kind: 'AGENTS.md', names: ['AGENTS.md', 'AGENTS.local.md'] },
	{ kind: 'CLAUDE.md', names: ['CLAUDE.md', 'CLAUDE.local.md'] },
];

/** Every name a folder's instruction file can have, in their order within one folder. */
export const FOLDER_FILE_NAMES: readonly string[] = FOLDER_FILES.flatMap(({ names }) => names);

/** The file names read in each folder for these kinds, in order. */
export function folderFileNames(kinds: readonly InstructionKind[]): string[] {
	return FOLDER_FILES.filter(({ kind }) => kinds.includes(kind)).flatMap(({ names }) => names);
}

/** Where a workspace folder keeps its path-scoped (and root) `.instructions.md` files. */
export const SCOPED_FOLDER = nodePath.join('.github', 'instructions');
export const SCOPED_SUFFIX = '.instructions.md';

/** Whether `path` is one of the `.instructions.md` files of the workspace folder `root`. */
export function isScopedFile(path: string, root: string): boolean {
	return nodePath.dirname(path) === nodePath.join(root, SCOPED_FOLDER) && nodePath.basename(path).endsWith(SCOPED_SUFFIX) && nodePath.basename(path) !== SCOPED_SUFFIX;
}

/** The kind of an instruction file at `path` in the workspace folder `root`; undefined when it is none. */
export function kindOf(path: string, root: string): InstructionKind | undefined {
	const name = nodePath.basename(path);
	const folderFile = FOLDER_FILES.find(({ names }) => names.includes(name));
	if (folderFile) {
		return folderFile.kind;
	}
	return isScopedFile(path, root) ? '.instructions.md' : undefined;
}

/** What an `.instructions.md` frontmatter says: for every file, for the files some globs match, or why it cannot be used. */
export type InstructionScope =
	| { readonly kind: 'root' }
	| { readonly kind: 'paths'; readonly patterns: readonly string[]; readonly matches: (relativePath: string) => boolean }
	| { readonly kind: 'malformed'; readonly reason: string };


/** `applyTo: "**\/*.ts,**\/*.tsx"` as Copilot writes it: split at the commas outside `{…}`. */
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

/**
 * The scope an `.instructions.md` file's frontmatter gives it. No frontmatter, no `applyTo`, or a
 * `**` among its globs: the whole workspace (root instructions). Globs are over paths relative to
 * the workspace folder, with `/`, dot files included.
 */
export function scopeOf(text: string): InstructionScope {
	const parts = splitFrontmatter(text);
	if ('error' in parts) {
		return { kind: 'malformed', reason: parts.error };
	}
	if (parts.yaml === undefined) {
		return { kind: 'root' };
	}
	let data: unknown;
	try {
		const document = parseDocument(parts.yaml);
		if (document.errors.length > 0) {
			const error = document.errors[0];
			return { kind: 'malformed', reason: `the frontmatter is not valid YAML${error?.linePos ? ` (line ${error.linePos[0].line + 1})` : ''}: ${(error?.message ?? '').split('\n')[0] ?? ''}` };
		}
		data = document.toJS();
	} catch (error) {
		return { kind: 'malformed', reason: `the frontmatter cannot be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
	}
	if (data === null || data === undefined) {
		return { kind: 'root' };
	}
	if (typeof data !== 'object' || Array.isArray(data)) {
		return { kind: 'malformed', reason: 'the frontmatter must be a set of fields (applyTo: …)' };
	}
	const applyTo = (data as Record<string, unknown>).applyTo;
	if (applyTo === undefined || applyTo === null) {
		return { kind: 'root' };
	}
	const patterns = typeof applyTo === 'string' ? splitPatterns(applyTo) : Array.isArray(applyTo) && applyTo.every((item) => typeof item === 'string') ? applyTo.flatMap(splitPatterns) : undefined;
	if (patterns === undefined) {
		return { kind: 'malformed', reason: 'applyTo must be a glob or a list of globs (for example "**/*.ts")' };
	}
	if (patterns.length === 0) {
		return { kind: 'malformed', reason: 'applyTo names no glob' };
	}
	if (patterns.includes('**') || patterns.includes('**/*')) {
		return { kind: 'root' };
	}
	const matchers: ((path: string) => boolean)[] = [];
	for (const pattern of patterns) {
		if (pattern.includes('\\') || /^([/~]|[A-Za-z]:)/.test(pattern) || pattern.split('/').includes('..')) {
			return { kind: 'malformed', reason: `applyTo "${pattern}" is not a glob relative to the workspace folder (write / and no leading /, ~ or ..)` };
		}
		try {
			matchers.push(picomatch(pattern.replace(/^\.\//, ''), { dot: true, strictBrackets: true, windows: false }));
		} catch (error) {
			return { kind: 'malformed', reason: `applyTo "${pattern}" is not a valid glob (${error instanceof Error ? error.message : String(error)})` };
		}
	}
	return { kind: 'paths', patterns, matches: (relativePath) => matchers.some((matches) => matches(relativePath)) };
}

/** The text to deliver of an `.instructions.md` file: its body without the frontmatter (metadata for the reader, not instructions). */
export function scopedBody(text: string): string {
	const parts = splitFrontmatter(text);
	if ('error' in parts) {
		return text;
	}
	// The blank line people leave under the closing fence is not part of the instructions.
	return parts.yaml === undefined ? text : parts.body.replace(/^\s*\n/, '');
}

/** The Markdown files of a rules folder (`.clinerules/`, `.roo/rules/`), in name order. */
function rulesFolder(dir: string): string[] {
	let entries: string[];
	try {
		entries = readdirSync(dir);
	} catch {
		return [];
	}
	return entries
		.filter((name) => /\.(md|markdown|txt)$/i.test(name))
		.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
		.map((name) => nodePath.join(dir, name))
		.filter(isFileSync);
}

function isFileSync(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

function isDirectorySync(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/**
 * The candidate root instruction files of the workspace folder `root` for these kinds, broad
 * (the cross-agent AGENTS.md) to specific, as absolute paths that exist. `.instructions.md`
 * files are all listed: the reader keeps those whose scope is the whole workspace.
 */
export function rootInstructionPaths(root: string, kinds: readonly InstructionKind[]): string[] {
	const paths: string[] = [];
	const has = (kind: InstructionKind) => kinds.includes(kind);
	paths.push(...folderFileNames(kinds).map((name) => nodePath.join(root, name)).filter(isFileSync));
	if (has('copilot-instructions')) {
		paths.push(...[nodePath.join(root, '.github', 'copilot-instructions.md')].filter(isFileSync));
	}
	if (has('.instructions.md')) {
		paths.push(...rulesFolder(nodePath.join(root, SCOPED_FOLDER)).filter((path) => isScopedFile(path, root)));
	}
	if (has('.clinerules')) {
		const cline = nodePath.join(root, '.clinerules');
		paths.push(...(isDirectorySync(cline) ? rulesFolder(cline) : isFileSync(cline) ? [cline] : []));
	}
	if (has('.cursorrules')) {
		paths.push(...[nodePath.join(root, '.cursorrules')].filter(isFileSync));
	}
	if (has('.roo/rules')) {
		paths.push(...rulesFolder(nodePath.join(root, '.roo', 'rules')));
	}
	return paths;
}

/** Tells of each malformed file once per reason (a log line and whatever else `warn` does), so a WAIT per turn does not repeat it. */
export class MalformedInstructions {
	private readonly told = new Set<string>();

	constructor(private readonly warn: (message: string) => void) {}

	note(shownPath: string, reason: string): void {
		const key = `${shownPath}\n${reason}`;
		if (this.told.has(key)) {
			return;
		}
		this.told.add(key);
		this.warn(`Aside: ${shownPath} is skipped: ${reason}. Fix its frontmatter to have it read.`);
	}
}
