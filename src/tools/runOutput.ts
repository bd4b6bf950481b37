// RunOutput: what a background process (Run with background: true) printed — by default only what
// is new since the last read, which moves the cursor the reminders use (run.background.output is
// silent once its lines were read). Its own processes only, so it never asks; a read tool.
import * as z from 'zod';
import { processesOf, processLine, processOf } from './processAccess';
import { RUN_MAX_OUTPUT_BYTES } from './run';
import { formatBytes, utf8Length } from './text';
import { type Tool, touchesNothing } from './tool';

const input = z.object({
	id: z.string().regex(/^p\d+$/u).describe('The process id Run gave, e.g. "p1".'),
	since: z.enum(['last', 'start']).optional().describe('"last" (default): only the lines since your last RunOutput of it; "start": from its first line.'),
	tail_lines: z.number().int().min(1).max(10_000).optional().describe('Only the last this many of those lines.'),
});

/** The last of `lines` that fit in `maxBytes` (at least one). */
function lastLines(lines: readonly string[], maxBytes: number): readonly string[] {
	let bytes = 0;
	let first = lines.length;
	while (first > 0) {
		const size = utf8Length(lines[first - 1] ?? '') + 1;
		if (bytes + size > maxBytes && first < lines.length) {
			break;
		}
		bytes += size;
		first--;
	}
	return lines.slice(first);
}

export const runOutputTool: Tool<z.infer<typeof input>> = {
	name: 'RunOutput',
	description:
		'Reads the output of a background process you started with Run (background: true): by default only what it printed since your last RunOutput of it, ' +
		'or from the start (`since: "start"`), or its last lines (`tail_lines`). Says whether it still runs or how it ended, and the line it is writing now (a prompt, a progress bar). ' +
		`At most ${formatBytes(RUN_MAX_OUTPUT_BYTES)} of the latest lines; the whole output is in the file Run named (Read it).`,
	kind: 'read',
	input,
	touches: touchesNothing,
	run({ id, since = 'last', tail_lines }, context) {
		const processes = processesOf(context, 'RunOutput');
		const process = processOf(processes, id);
		const read = processes.read(id, since, tail_lines);
		const parts = [processLine(process)];
		if (read === undefined || read.to < read.from) {
			parts.push(since === 'last' ? 'No new output since your last read.' : 'No output yet.');
		} else {
			const shown = lastLines(read.lines, RUN_MAX_OUTPUT_BYTES);
			const first = read.to - shown.length + 1;
			parts.push(`Lines ${first}–${read.to} of ${read.to}${since === 'last' && tail_lines === undefined ? ' (new since your last read)' : ''}:\n${shown.join('\n')}`);
			if (first > read.from) {
				parts.push(`Lines ${read.from}–${first - 1} are not shown here: Read them in ${process.outputPath}.`);
			}
		}
		if (read?.current.trim()) {
			parts.push(`The line it is writing now: ${read.current.trim()}`);
		}
		if (process.output.overBound) {
			parts.push(`Its output passed the bound Aside keeps: what came after is not kept (${process.outputPath} has what was).`);
		}
		return Promise.resolve({ content: parts.join('\n\n') });
	},
};
