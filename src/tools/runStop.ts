// RunStop: ends a background process Run started — an interrupt (Ctrl-C) first, then, if it is still
// running after a grace period, the end of it and everything it started. Its own processes only, so
// it never asks; a read tool (it changes no file).
import * as z from 'zod';
import { processesOf, processLine, processOf } from './processAccess';
import { type Tool, touchesNothing } from './tool';

const input = z.object({
	id: z.string().regex(/^p\d+$/u).describe('The process id Run gave, e.g. "p1".'),
});

export const runStopTool: Tool<z.infer<typeof input>> = {
	name: 'RunStop',
	description:
		'Stops a background process you started with Run (background: true): an interrupt first (as Ctrl-C), then, if it still runs a few seconds later, it and everything it started are ended. ' +
		'Returns how it ended. A process that already ended is left as it is.',
	kind: 'read',
	input,
	touches: touchesNothing,
	async run({ id }, context) {
		const processes = processesOf(context, 'RunStop');
		const process = processOf(processes, id);
		if (process.end !== undefined) {
			return { content: `It had already ended: ${processLine(process)}.` };
		}
		await processes.stop(id);
		return { content: `${processLine(process)}.` };
	},
};
