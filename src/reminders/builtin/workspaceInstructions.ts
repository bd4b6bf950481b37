// `workspace.instructions`: the person's own `~/.claude/CLAUDE.md`, then the project's instruction
// files at the root of the workspace (AGENTS.md and the others), a changing prompt observation
// (observations.ts): delivered at the first turn, again at a turn start whenever their content
// changes, and again after a compaction dropped their delivery. Rules the model may ask for are
// listed by path and description. (Files deeper in the tree, and path-scoped ones, are discovered
// by Read; see the observers.)
import { sanitizeUntrusted } from '../envelope';
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { WORKSPACE_INSTRUCTIONS } from './catalog/files';
import { observation } from './observations';

export interface InstructionFile {
	/** As shown: workspace-relative, with `/`; `~/…` for the person's own. */
	readonly path: string;
	readonly text: string;
	/** The file was longer than the reader's cap and was cut. */
	readonly truncated: boolean;
	/** The person's own, for all their projects, not the workspace's. */
	readonly personal?: boolean;
}

export interface InstructionReading {
	readonly files: readonly InstructionFile[];
	/** Rules given only when the model Reads one (Cursor's "agent requested"): path and description. */
	readonly requested?: readonly { readonly path: string; readonly description: string }[];
	/** One line telling the model that files past the total bound were left out, and which. */
	readonly leftOut?: string;
}

/** Reads the root instruction files now (small, bounded reads); none when there are none. */
export type InstructionReader = () => InstructionReading;

function introOf(files: readonly InstructionFile[]): string {
	const personal = files.some((file) => file.personal === true);
	const project = files.some((file) => file.personal !== true);
	const from = personal && project ? 'The user\'s own instructions, for all their projects, then project instructions from the workspace root.' : personal ? 'The user\'s own instructions, for all their projects.' : 'Project instructions from the workspace root.';
	return `${from} They apply to all work in this workspace; follow them unless the user says otherwise.`;
}

export function workspaceInstructions(read: InstructionReader): ReminderDefinition {
	let reading: InstructionReading = { files: [] };
	return observation(rosterDefinition(WORKSPACE_INSTRUCTIONS, {
		scope: 'all',
		trigger: () => {
			reading = read();
			return reading.files.length > 0 || (reading.requested ?? []).length > 0;
		},
		content: () => {
			const { files, requested = [], leftOut } = reading;
			const sections = files.map(
				(file) => `Contents of ${sanitizeUntrusted(file.path)}${file.truncated ? ' (cut: the file is longer; Read it for the rest)' : ''}:\n\n${sanitizeUntrusted(file.text)}`,
			);
			if (requested.length > 0) {
				const listed = requested.map((rule) => `- ${sanitizeUntrusted(rule.path)}: ${sanitizeUntrusted(rule.description)}`);
				sections.push(`Rules not given here: Read one when the task fits its description.\n${listed.join('\n')}`);
			}
			const omitted = leftOut === undefined ? '' : `\n\n${sanitizeUntrusted(leftOut)}`;
			return `${introOf(files)}\n\n${sections.join('\n\n')}${omitted}`;
		},
	}));
}
