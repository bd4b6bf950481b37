// Run with background: true — the command starts in the chat's background processes
// (src/terminal/backgroundProcesses.ts) and Run returns at once with its id, its terminal and the
// file its output goes to. What the model is told later is the reminders' (src/features/processes/).
import type { Notify } from '../terminal/backgroundProcesses';
import { ToolError } from './errors';
import { CHAT_SHELL, processesOf } from './processAccess';
import type { ToolContext, ToolResult } from './tool';

export type NotifyInput = 'exit' | 'output' | { readonly match: string };

/** Nested quantifiers (`(a+)+`, `(\w*)*`) backtrack for ever on a long line: a pattern with one is refused. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{]/u;

/** The notify choice as the registry takes it; a pattern that does not compile, or could hang, is refused. */
export function notifyOf(input: NotifyInput | undefined): Notify {
	if (input === undefined || input === 'exit') {
		return { kind: 'exit' };
	}
	if (input === 'output') {
		return { kind: 'output' };
	}
	if (NESTED_QUANTIFIER.test(input.match)) {
		throw new ToolError(`notify.match ${JSON.stringify(input.match)} has a quantified group that repeats a quantifier (like (a+)+): it could take for ever on one line. Use a simpler pattern.`);
	}
	try {
		return { kind: 'match', pattern: new RegExp(input.match, 'u') };
	} catch (error) {
		throw new ToolError(`notify.match is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`);
	}
}

export async function startInBackground(command: string, cwd: string, notify: NotifyInput | undefined, context: ToolContext): Promise<ToolResult> {
	const processes = processesOf(context, 'Run with background: true');
	const process = await processes.start(command, cwd, notifyOf(notify));
	const told =
		process.notify.kind === 'exit'
			? 'You are told when it ends (run.background.exit).'
			: process.notify.kind === 'output'
				? 'You are told of output you have not read, and when it ends.'
				: 'You are told of lines matching your pattern you have not read, and when it ends.';
	const where = process.terminalName === undefined ? '' : ` in the terminal "${process.terminalName}"`;
	const notice = process.fallback === undefined ? undefined : context.features?.get(CHAT_SHELL)?.fallbackNotice(process.fallback);
	return {
		...(notice === undefined ? {} : { notices: [notice] }),
		content:
			`Started ${process.id} in the background${where}: \`${command}\`. Its whole output goes to ${process.outputPath}. ${told} ` +
			`Read its output with RunOutput ${process.id}; stop it with RunStop ${process.id}. It has no input: a prompt waits for ever.`,
		detail: { kind: 'command', command, exitCode: null, timedOut: false },
	};
}
