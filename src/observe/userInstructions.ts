// The person's own instruction file, outside every workspace: Claude Code's user memory,
// `~/.claude/CLAUDE.md`, or `$CLAUDE_CONFIG_DIR/CLAUDE.md` when that is set, as Claude Code reads it.
// Shown under the name the person knows it by, never the absolute home path.
import { statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { isInside } from '../tools/paths';
import type { InstructionKind } from './instructionSources';

export interface UserInstructionFile {
	/** Absolute. */
	readonly path: string;
	/** `~/.claude/CLAUDE.md`, or `$CLAUDE_CONFIG_DIR/CLAUDE.md` outside the home folder. */
	readonly shown: string;
}

/** Where Claude Code keeps the user's memory file for this home folder and environment. */
export function userMemoryFile(home: string, env: Readonly<Record<string, string | undefined>>): UserInstructionFile {
	// Only an absolute one: a relative one would depend on the extension host's working folder.
	const configured = env.CLAUDE_CONFIG_DIR?.trim();
	const dir = configured !== undefined && nodePath.isAbsolute(configured) ? configured : nodePath.join(home, '.claude');
	const path = nodePath.join(dir, 'CLAUDE.md');
	if (isInside(path, home)) {
		return { path, shown: `~/${nodePath.relative(home, path).split(nodePath.sep).join('/')}` };
	}
	return { path, shown: '$CLAUDE_CONFIG_DIR/CLAUDE.md' };
}

/** The shown names of the person's own instruction files that are read with these kinds (those that exist). */
export function userInstructionsRead(file: UserInstructionFile, kinds: readonly InstructionKind[]): string[] {
	if (!kinds.includes('CLAUDE.md')) {
		return [];
	}
	try {
		return statSync(file.path).isFile() ? [file.shown] : [];
	} catch {
		return [];
	}
}
