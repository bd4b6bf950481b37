// A chat's background processes as Run, RunOutput and RunStop reach them (the chat feature in
// src/features/processes/ grants them to each loop under PROCESS_ACCESS), and the words the three
// tools describe a process with.
import { clockTime, duration } from '../base/time';
import { type BackgroundProcess, type BackgroundProcesses, exitCodeWords } from '../terminal/backgroundProcesses';
import { featureAccessKey } from './featureAccess';
import type { FallbackReason } from '../terminal/shellExecution';
import type { CommandRunner, ToolContext, ToolNotice } from './tool';
import { ToolError } from './errors';

export const PROCESS_ACCESS = featureAccessKey<BackgroundProcesses>('processes');
/** The chat's shell as foreground Run reaches it: its reused "Aside" terminal, and the fallback notices said so far. */
export interface ChatShell {
	readonly runner: CommandRunner;
	/** The `run.shell-integration` notice for a command that ran outside the terminal for `reason`: once per chat and reason. */
	fallbackNotice(reason: FallbackReason): ToolNotice | undefined;
}

/** Without it (a sub-agent's loop) Run starts a child process of its own. */
export const CHAT_SHELL = featureAccessKey<ChatShell>('processes.shell');

/** The chat's processes, or the error a tool without them answers with. */
export function processesOf(context: ToolContext, tool: string): BackgroundProcesses {
	const processes = context.features?.get(PROCESS_ACCESS);
	if (!processes) {
		throw new ToolError(`${tool} is not available here: this call has no background processes (sub-agents start none).`);
	}
	return processes;
}

/** The process `id`, or an error naming the ones there are. */
export function processOf(processes: BackgroundProcesses, id: string): BackgroundProcess {
	const process = processes.get(id);
	if (!process) {
		const known = processes.list().map((candidate) => candidate.id);
		throw new ToolError(`There is no background process ${id} in this chat${known.length === 0 ? ' (none was started)' : `; there are ${known.join(', ')}`}.`);
	}
	return process;
}

/** `p1 \`npm run dev\` — running since 14:02:11 UTC` / `— exited with code 3 at …, after 6 s`. */
export function processLine(process: BackgroundProcess): string {
	const { end } = process;
	const head = `${process.id} \`${process.command}\``;
	if (end === undefined) {
		return `${head} — running since ${clockTime(process.startedAt)}`;
	}
	const code = exitCodeWords(end.code);
	const how = end.cause === 'exited' ? 'exited' : end.cause === 'bound' ? 'was stopped at the output bound' : 'was stopped';
	return `${head} — ${how} (${code}${end.signal === undefined ? '' : `, ${end.signal}`}) at ${clockTime(end.at)}, after ${duration(end.at - process.startedAt)}`;
}
