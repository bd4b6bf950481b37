// What a Read brings into scope: the instruction files found on its path and by their globs, their
// order (broad to narrow), and the body of the `workspace.instructions` event that gives them.
import * as nodePath from 'node:path';
import { sanitizeUntrusted } from '../reminders/envelope';
import { formatBytes } from '../tools/text';
import { FOLDER_FILE_NAMES } from './instructionSources';

export interface FoundInstructions {
	/** Absolute. */
	readonly path: string;
	/** As tools show paths. */
	readonly shown: string;
	readonly text: string;
	readonly truncated: boolean;
	/** Of the whole file, so a change past the cut still counts. */
	readonly hash: string;
	/** Directories below the workspace folder (0 for its root), for broad-to-narrow order. */
	readonly depth: number;
	/** An earlier version was given to this context. */
	readonly updated: boolean;
	/** An `.instructions.md` or Cursor rule given for the files these globs match (after the folders' files). */
	readonly applyTo?: readonly string[];
}

function nameRank(path: string): number {
	return FOLDER_FILE_NAMES.indexOf(nodePath.basename(path));
}

/**
 * Broad to narrow: a folder's files by depth, then directories in the order first met, then
 * AGENTS.md, AGENTS.local.md, CLAUDE.md, CLAUDE.local.md; the path-scoped rules files (narrowest:
 * they name the files they apply to) last, in the order met.
 */
export function orderBroadToNarrow(files: readonly FoundInstructions[]): FoundInstructions[] {
	const scoped = files.filter((file) => file.applyTo !== undefined);
	return [...orderFolders(files.filter((file) => file.applyTo === undefined)), ...scoped];
}

function orderFolders(files: readonly FoundInstructions[]): FoundInstructions[] {
	const firstMet = new Map<string, number>();
	for (const file of files) {
		const dir = nodePath.dirname(file.path);
		if (!firstMet.has(dir)) {
			firstMet.set(dir, firstMet.size);
		}
	}
	const dirIndex = (file: FoundInstructions) => firstMet.get(nodePath.dirname(file.path)) ?? 0;
	return [...files].sort((a, b) => a.depth - b.depth || dirIndex(a) - dirIndex(b) || nameRank(a.path) - nameRank(b.path));
}

/** The event's body: what the files are and how they apply, then each headed by its path and notes. */
export function bodyOf(files: readonly FoundInstructions[], maxFileBytes: number): string {
	const sections = files.map((file) => {
		const notes = [
			file.applyTo ? `applies to the files matching ${file.applyTo.join(', ')}` : '',
			file.updated ? 'changed since you were last given it' : '',
			file.truncated ? `cut: the file is longer than ${formatBytes(maxFileBytes)}; Read it for the rest` : '',
		].filter((note) => note !== '');
		const heading = `Contents of ${sanitizeUntrusted(file.shown)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}:`;
		return `${heading}\n\n${sanitizeUntrusted(file.text)}`;
	});
	const scoped = files.some((file) => file.applyTo !== undefined)
		? 'Those headed with patterns (from .github/instructions or .cursor/rules) apply only to the files the patterns match, and refine the folders\' ones. '
		: '';
	return (
		'Project instructions from folders on the path to a file you read. Each applies to the files in its folder and below, ' +
		`in addition to any from the workspace root; where two disagree, the one in the deeper folder wins. ${scoped}Follow them unless the user says otherwise.\n\n` +
		sections.join('\n\n')
	);
}
