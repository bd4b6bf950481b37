// Background processes as child processes of the extension host (launcher.ts): a shell in its own
// process group, so Ctrl-C (SIGINT) and the end (SIGTERM, then SIGKILL) reach everything it started.
// No input: stdin is closed, so a process that asks waits at its prompt until it is stopped.
import { spawn } from 'node:child_process';
import { killTree } from '../tools/nodeRunner';
import { type LaunchedProcess, LaunchEvents, type LaunchOptions, type ProcessLauncher } from './launcher';

/** After the shell exits, how long output of children still holding its pipes is taken. */
const DRAIN_MS = 500;

export class ChildProcessLauncher implements ProcessLauncher {
	start(command: string, options: LaunchOptions): Promise<LaunchedProcess> {
		return Promise.resolve(this.spawn(command, options));
	}

	/** The process, started now. */
	spawn(command: string, options: LaunchOptions): LaunchedProcess {
		const events = new LaunchEvents();
		const child = spawn(command, {
			cwd: options.cwd,
			shell: true,
			detached: process.platform !== 'win32',
			stdio: ['ignore', 'pipe', 'pipe'],
			windowsHide: true,
		});
		child.stdout.setEncoding('utf8');
		child.stderr.setEncoding('utf8');
		child.stdout.on('data', (chunk: string) => {
			events.output(chunk);
		});
		child.stderr.on('data', (chunk: string) => {
			events.output(chunk);
		});
		child.on('error', (error) => {
			// It could not start (a missing cwd, no shell).
			events.output(`${error.message}\n`);
			events.end({ code: undefined });
		});
		// 'close' once the pipes are drained too; after the exit, a child still holding them gets DRAIN_MS.
		const finished = (code: number | null, signal: NodeJS.Signals | null) => {
			events.end({ code: code ?? undefined, ...(signal === null ? {} : { signal }) });
		};
		child.on('exit', (code, signal) => {
			setTimeout(() => {
				child.stdout.destroy();
				child.stderr.destroy();
				finished(code, signal);
			}, DRAIN_MS).unref();
		});
		child.on('close', finished);
		return {
			onData: events.onData,
			onExit: events.onExit,
			terminalName: undefined,
			interrupt: () => {
				killTree(child, 'SIGINT');
			},
			kill: () => {
				killTree(child, 'SIGKILL');
			},
			// Detached, it leads a session of its own, which holds all it starts.
			...(child.pid !== undefined && process.platform !== 'win32' ? { leader: child.pid } : {}),
		};
	}
}
