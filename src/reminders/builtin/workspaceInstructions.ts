// `workspace.instructions`: the project's AGENTS.md (and AGENTS.local.md) at the root of the
// workspace, a changing prompt observation (observations.ts): delivered at the first turn, again
// at a turn start whenever their content changes, and again after a compaction dropped their
// delivery. (Files deeper in the tree are discovered by Read; see the observers.)
import { sanitizeUntrusted } from '../envelope';
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { WORKSPACE_INSTRUCTIONS } from './catalog';
import { observation } from './observations';

export interface InstructionFile {
	/** Workspace-relative, with `/`. */
	readonly path: string;
	readonly text: string;
	/** The file was longer than the reader's cap and was cut. */
	readonly truncated: boolean;
}

export interface InstructionReading {
	readonly files: readonly InstructionFile[];
	/** One line telling the model that files past the total bound were left out, and which. */
	readonly leftOut?: string;
}

/** Reads the root instruction files now (small, bounded reads); none when there are none. */
export type InstructionReader = () => InstructionReading;

export function workspaceInstructions(read: InstructionReader): ReminderDefinition {
	let files: readonly InstructionFile[] = [];
	let leftOut: string | undefined;
	return observation(rosterDefinition(WORKSPACE_INSTRUCTIONS, {
		scope: 'all',
		trigger: () => {
			({ files, leftOut } = read());
			return files.length > 0;
		},
		content: () => {
			const sections = files.map(
				(file) => `Contents of ${sanitizeUntrusted(file.path)}${file.truncated ? ' (cut: the file is longer; Read it for the rest)' : ''}:\n\n${sanitizeUntrusted(file.text)}`,
			);
			const omitted = leftOut === undefined ? '' : `\n\n${sanitizeUntrusted(leftOut)}`;
			return `Project instructions from the workspace root. They apply to all work in this workspace; follow them unless the user says otherwise.\n\n${sections.join('\n\n')}${omitted}`;
		},
	}));
}
