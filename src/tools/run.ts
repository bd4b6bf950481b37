// Run: a shell command in the first workspace folder, with a timeout and capped output.
import * as z from 'zod';
import { ToolError } from './errors';
import { formatBytes } from './text';
import { CHAT_SHELL } from './processAccess';
import { startInBackground } from './runBackground';
import { type Tool, touchesNothing } from './tool';

export const RUN_DEFAULT_TIMEOUT_MS = 120_000;
export const RUN_MAX_TIMEOUT_MS = 600_000;
export const RUN_MAX_OUTPUT_BYTES = 64 * 1024;

const input = z.object({
	command: z.string().min(1).describe('The shell command line to run, e.g. `npm test -- --grep parser`.'),
	timeout_ms: z.number().int().min(1).max(RUN_MAX_TIMEOUT_MS).optional().describe(`Stop the command after this many milliseconds. Default ${RUN_DEFAULT_TIMEOUT_MS}, at most ${RUN_MAX_TIMEOUT_MS}.`),
	background: z.boolean().optional().describe('true: start it in the background and return at once with its id (p1, p2 …), for dev servers and watchers. Read it with RunOutput, stop it with RunStop.'),
	notify: z
		.union([z.enum(['exit', 'output']), z.object({ match: z.string().min(1).max(1000) })])
		.optional()
		.describe('With background: what you are told of as it runs — "exit" (default: only when it ends), "output" (new output you have not read), or { "match": "<regex>" } (lines matching it).'),
});

function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

export const runTool: Tool<z.infer<typeof input>> = {
	name: 'Run',
	description:
		'Runs a command in a shell, starting in the workspace folder, with no input, and returns its output and its exit code (as the shell reported it; "unknown" when it reported none). ' +
		'Commands run one at a time in the chat\'s own VS Code terminal named "Aside", reused, so `cd` and exported variables carry over to the next Run. ' +
		'When one runs outside that terminal instead (a notice says why), it gets a new shell (sh on Linux and macOS, cmd.exe on Windows) and nothing carries over. ' +
		`Output beyond ${formatBytes(RUN_MAX_OUTPUT_BYTES)} keeps its beginning and end. Prefer Read, List, Glob and Grep to look at files.`,
	kind: 'run',
	input,
	// A command may change any file, so it names none: a file the agent saw that it changes is
	// reported like any change outside Aside's tools.
	touches: touchesNothing,
	confirm({ command }) {
		return Promise.resolve({ title: 'Run command', target: command });
	},
	async run({ command, timeout_ms = RUN_DEFAULT_TIMEOUT_MS, background, notify }, context) {
		const [cwd] = context.roots;
		if (cwd === undefined) {
			throw new ToolError('No workspace folder is open, so there is nowhere to run the command.');
		}
		if (background === true) {
			return startInBackground(command, cwd, notify, context);
		}
		if (notify !== undefined) {
			throw new ToolError('notify is for a command run in the background (background: true).');
		}
		const shell = context.features?.get(CHAT_SHELL);
		const runner = shell?.runner ?? context.runner;
		const outcome = await runner.run(command, { cwd, timeoutMs: timeout_ms, maxOutputBytes: RUN_MAX_OUTPUT_BYTES, signal: context.signal });
		const status: string[] = [];
		if (outcome.truncated) {
			status.push(`The output was longer than ${formatBytes(RUN_MAX_OUTPUT_BYTES)}; the middle was left out.`);
		}
		if (outcome.timedOut) {
			status.push(`Timed out after ${seconds(timeout_ms)}: the command was stopped.`);
		} else if (outcome.exitUnknown === true) {
			status.push('Exit code unknown: the shell reported none.');
		} else if (outcome.exitCode === null) {
			status.push('The command was ended by a signal.');
		} else {
			status.push(`Exit code ${outcome.exitCode}.`);
		}
		const output = outcome.output.replace(/\n$/, '');
		const notice = outcome.fallback === undefined ? undefined : shell?.fallbackNotice(outcome.fallback);
		return {
			content: `${output === '' ? '(no output)' : output}\n\n${status.join('\n')}`,
			...(notice === undefined ? {} : { notices: [notice] }),
			detail: { kind: 'command', command, exitCode: outcome.exitCode, timedOut: outcome.timedOut },
		};
	},
};
