// The background processes' part of the view protocol (src/features/processes/, webview/processes.ts):
// the panel of the current chat's running processes and its messages, both ways `processes.*`. The
// unions in messages.ts take them as one line each. Commands and output are anything: text only.
import * as z from 'zod';
import { seq } from './sequence';

export const MAX_PROCESS_COMMAND_CHARS = 2000;
export const MAX_PROCESS_LINE_CHARS = 500;
/** More rows than this are not shown (the model is told of every one). */
export const MAX_PROCESS_ROWS = 100;

const processId = z.string().min(1).max(40);

/** One running background process as the panel shows it. */
export const ProcessView = z.object({
	/** p1, p2 … (per chat). */
	id: processId,
	command: z.string().max(MAX_PROCESS_COMMAND_CHARS),
	/** When it started, as the model is told it too: `14:02:11 UTC`. */
	startedAt: z.string().max(40),
	/** The line being written now, else the last completed one; empty before any output. */
	lastLine: z.string().max(MAX_PROCESS_LINE_CHARS),
	/** It runs in a terminal of its own (Show terminal reveals it); false for a child process. */
	hasTerminal: z.boolean(),
	/** The person pressed Stop and it has not ended yet. */
	stopping: z.boolean(),
});
export type ProcessView = z.infer<typeof ProcessView>;

/** The current chat's running background processes, in the order they started; empty: no panel. */
export const ProcessesView = z.object({
	rows: z.array(ProcessView).max(MAX_PROCESS_ROWS),
});
export type ProcessesView = z.infer<typeof ProcessesView>;

export const PROCESSES_HOST_MESSAGES = [
	/** The current chat's running processes: one started or ended, a Stop pressed, new output (at most twice a second). */
	z.object({ type: z.literal('processes.changed'), seq, processes: ProcessesView }),
] as const;

export const PROCESSES_VIEW_MESSAGES = [
	/** A row's Stop: interrupt the process of the current chat, then kill it after the grace period. */
	z.object({ type: z.literal('processes.stop'), id: processId }),
	/** A row's Show terminal: reveal the terminal the process of the current chat runs in. */
	z.object({ type: z.literal('processes.show'), id: processId }),
] as const;
