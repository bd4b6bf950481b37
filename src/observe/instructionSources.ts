// Which instruction files of which agents Aside reads, and where: the names of
// `aside.instructions.files`, the files each kind is in a folder (AGENTS.md and CLAUDE.md in every
// folder from the root down; the others at a workspace folder's root), and the rules folders whose
// files' frontmatter may scope them to some paths (Copilot's `.github/instructions`, Cursor's
// `.cursor/rules`: instructionScope.ts).
//
// Pure but for the synchronous root listing, which the roster's `workspace.instructions` reads at
// WAIT (small, bounded reads).
import { readdirSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { applyToScope, cursorRuleScope, type InstructionScope } from './instructionScope';

/** The names `aside.instructions.files` takes, one per kind of file. */
export const INSTRUCTION_KINDS = ['AGENTS.md', 'CLAUDE.md', 'copilot-instructions', '.instructions.md', '.clinerules', '.cursorrules', '.cursor/rules', '.roo/rules'] as const;
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

/** A folder of rules files at a workspace folder's root, each of which its frontmatter may scope to some paths. */
export interface ScopedSource {
	readonly kind: InstructionKind;
	/** Relative to the workspace folder. */
	readonly folder: string;
	readonly suffix: string;
	readonly scopeOf: (text: string) => InstructionScope;
}

/** In the order their path-scoped files are given after a Read. */
export const SCOPED_SOURCES: readonly ScopedSource[] = [
	{ kind: '.instructions.md', folder: nodePath.join('.github', 'instructions'), suffix: '.instructions.md', scopeOf: applyToScope },
	{ kind: '.cursor/rules', folder: nodePath.join('.cursor', 'rules'), suffix: '.mdc', scopeOf: cursorRuleScope },
];

/** The rules folder of the workspace folder `root` that `path` is a file of; undefined when none. */
export function scopedSourceOf(path: string, root: string): ScopedSource | undefined {
	const name = nodePath.basename(path);
	return SCOPED_SOURCES.find(({ folder, suffix }) => nodePath.dirname(path) === nodePath.join(root, folder) && name.endsWith(suffix) && name !== suffix);
}

/** The kind of an instruction file at `path` in the workspace folder `root`; undefined when it is none. */
export function kindOf(path: string, root: string): InstructionKind | undefined {
	const name = nodePath.basename(path);
	return FOLDER_FILES.find(({ names }) => names.includes(name))?.kind ?? scopedSourceOf(path, root)?.kind;
}

const TEXT_FILE = /\.(md|markdown|txt)$/i;

/** The files of a rules folder whose names `accept` takes, in name order. */
function rulesFolder(dir: string, accept: (name: string) => boolean = (name) => TEXT_FILE.test(name)): string[] {
	let entries: string[];
	try {
		entries = readdirSync(dir);
	} catch {
		return [];
	}
	return entries
		.filter(accept)
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

function filesAt(root: string, ...names: string[]): string[] {
	return names.map((name) => nodePath.join(root, name)).filter(isFileSync);
}

/** Every file of a scoped rules folder: the reader keeps those whose scope is the whole workspace. */
function scopedFiles(root: string, kind: InstructionKind): string[] {
	const source = SCOPED_SOURCES.find((candidate) => candidate.kind === kind);
	return source ? rulesFolder(nodePath.join(root, source.folder), (name) => name.endsWith(source.suffix) && name !== source.suffix) : [];
}

/** Each kind's files at a workspace folder's root, as absolute paths that exist. */
const ROOT_FILES: Record<InstructionKind, (root: string) => string[]> = {
	'AGENTS.md': (root) => filesAt(root, ...folderFileNames(['AGENTS.md'])),
	'CLAUDE.md': (root) => filesAt(root, ...folderFileNames(['CLAUDE.md'])),
	'copilot-instructions': (root) => filesAt(root, nodePath.join('.github', 'copilot-instructions.md')),
	'.instructions.md': (root) => scopedFiles(root, '.instructions.md'),
	'.clinerules': (root) => {
		const cline = nodePath.join(root, '.clinerules');
		return isDirectorySync(cline) ? rulesFolder(cline) : filesAt(root, '.clinerules');
	},
	'.cursorrules': (root) => filesAt(root, '.cursorrules'),
	'.cursor/rules': (root) => scopedFiles(root, '.cursor/rules'),
	'.roo/rules': (root) => rulesFolder(nodePath.join(root, '.roo', 'rules')),
};

/**
 * The candidate root instruction files of the workspace folder `root` for these kinds, broad
 * (the cross-agent AGENTS.md) to specific, in the order of INSTRUCTION_KINDS, as absolute paths
 * that exist.
 */
export function rootInstructionPaths(root: string, kinds: readonly InstructionKind[]): string[] {
	return INSTRUCTION_KINDS.filter((kind) => kinds.includes(kind)).flatMap((kind) => ROOT_FILES[kind](root));
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
