// The total bound on the root instruction files given at every turn start: each file is capped
// on its own (64 KB), and together they stop at a count and a size, so a folder of hundreds of
// rules files cannot fill every chat. What is past the bound is named, to the person and the model.
import { formatBytes } from '../tools/text';
import { plural } from '../base/words';
import type { InstructionFile } from '../reminders/builtin/workspaceInstructions';

export interface InstructionBound {
	/** `aside.instructions.maxFiles`. */
	readonly maxFiles: number;
	/** `aside.instructions.maxTotalBytes`, of the texts as given (each after its own cap). */
	readonly maxTotalBytes: number;
}

export const DEFAULT_INSTRUCTION_BOUND: InstructionBound = { maxFiles: 50, maxTotalBytes: 256 * 1024 };

export interface BoundFiles {
	readonly files: InstructionFile[];
	/** Shown paths of the files left out, in order. */
	readonly leftOut: readonly string[];
	/** Which bound was reached first; absent when nothing was left out. */
	readonly reached?: 'maxFiles' | 'maxTotalBytes';
}

/** The files in order while both bounds hold; the first that does not fit and every one after it are left out. */
export function boundFiles(files: readonly InstructionFile[], bound: InstructionBound): BoundFiles {
	let total = 0;
	for (const [index, file] of files.entries()) {
		const size = Buffer.byteLength(file.text, 'utf8');
		const reached = index >= bound.maxFiles ? 'maxFiles' : total + size > bound.maxTotalBytes ? 'maxTotalBytes' : undefined;
		if (reached) {
			return { files: files.slice(0, index), leftOut: files.slice(index).map((left) => left.path), reached };
		}
		total += size;
	}
	return { files: [...files], leftOut: [] };
}

function limitOf(reached: NonNullable<BoundFiles['reached']>, bound: InstructionBound): string {
	return reached === 'maxFiles' ? `aside.instructions.maxFiles, ${plural(bound.maxFiles, 'file')}` : `aside.instructions.maxTotalBytes, ${formatBytes(bound.maxTotalBytes)}`;
}

/** A list of paths for one line: the first few, then how many more. */
function someOf(paths: readonly string[], shown = 5): string {
	return paths.length <= shown ? paths.join(', ') : `${paths.slice(0, shown).join(', ')} and ${(paths.length - shown).toLocaleString('en-US')} more`;
}

/** The one line the model is given, so it knows files were left out and can Read them. */
export function leftOutLine(bounded: BoundFiles, bound: InstructionBound): string | undefined {
	if (!bounded.reached) {
		return undefined;
	}
	return `${plural(bounded.leftOut.length, 'more instruction file was', 'more instruction files were')} left out (the limit of ${limitOf(bounded.reached, bound)}): ${someOf(bounded.leftOut)}. Read one if the task needs it.`;
}

/** What the person is told (once per change). */
export function leftOutNotice(bounded: BoundFiles, bound: InstructionBound): string | undefined {
	if (!bounded.reached) {
		return undefined;
	}
	return `Instruction files: ${plural(bounded.leftOut.length, 'file was', 'files were')} not given to the model, past the limit of ${limitOf(bounded.reached, bound)}: ${someOf(bounded.leftOut, 10)}. Raise the setting to include them.`;
}
