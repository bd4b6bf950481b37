// Waiting for a terminal's shell integration, shared by the background launcher (one terminal per
// process) and the chat's terminal for foreground commands: it may come late on a cold shell, or
// never (a shell without it, a terminal closed first), and both fall back to a child process then.
// And one command run through it, followed by its start, end and terminal events. Here too what
// both take of the window and the settings.
import type * as vscode from 'vscode';
import { collectExecution } from '../../terminal/shellExecution';

export type TerminalMode = 'visible' | 'hidden' | 'off';

/** What of `vscode.window` the terminals need. */
export type TerminalWindow = Pick<
	typeof vscode.window,
	'createTerminal' | 'onDidChangeTerminalShellIntegration' | 'onDidStartTerminalShellExecution' | 'onDidEndTerminalShellExecution' | 'onDidCloseTerminal'
>;

export interface TerminalSettings {
	readonly mode: TerminalMode;
	readonly integrationTimeoutMs: number;
}

/** The terminal's shell integration once it is up, or undefined after `timeoutMs`. */
export function integrationOf(window: TerminalWindow, terminal: vscode.Terminal, timeoutMs: number): Promise<vscode.TerminalShellIntegration | undefined> {
	if (terminal.shellIntegration) {
		return Promise.resolve(terminal.shellIntegration);
	}
	return new Promise((resolve) => {
		const done = (value: vscode.TerminalShellIntegration | undefined) => {
			clearTimeout(timer);
			listener.dispose();
			closed.dispose();
			resolve(value);
		};
		const timer = setTimeout(() => {
			done(undefined);
		}, timeoutMs);
		const listener = window.onDidChangeTerminalShellIntegration((event) => {
			if (event.terminal === terminal) {
				done(event.shellIntegration);
			}
		});
		const closed = window.onDidCloseTerminal((gone) => {
			if (gone === terminal) {
				done(undefined);
			}
		});
	});
}

/** One command run through a terminal's shell integration, as it goes. */
export interface TerminalCommand {
	/** The exit code as the shell reported it, once the output was read; undefined when it reported none (the terminal closed, or `abandon`). */
	readonly done: Promise<number | undefined>;
	/** Ends it as gone, its code unknown (a kill, a Stop that was not enough), and lets go of the window's events. */
	abandon(): void;
}

/**
 * Runs `command` in `terminal` through `integration`, its output to `onChunk` as it comes (from
 * its start on a cold shell too: collectExecution), until its end event — or the terminal's close,
 * when the code is unknown — and a drain of `drainMs` for a `read()` that never closes.
 */
export function runInTerminal(
	window: TerminalWindow,
	terminal: vscode.Terminal,
	integration: vscode.TerminalShellIntegration,
	command: string,
	onChunk: (chunk: string) => void,
	drainMs: number,
): TerminalCommand {
	const execution = integration.executeCommand(command);
	let started: () => void = () => undefined;
	let finished: (code: number | undefined) => void = () => undefined;
	const ended = new Promise<number | undefined>((resolve) => {
		finished = resolve;
	});
	const subscriptions = [
		window.onDidStartTerminalShellExecution((event) => {
			if (event.execution === execution) {
				started();
			}
		}),
		window.onDidEndTerminalShellExecution((event) => {
			if (event.execution === execution) {
				finished(event.exitCode);
			}
		}),
		// The person closed the terminal, or a kill did: the command is gone, its code unknown.
		window.onDidCloseTerminal((gone) => {
			if (gone === terminal) {
				finished(undefined);
			}
		}),
	];
	const done = collectExecution(execution, ended, onChunk, { drainMs, started: new Promise((resolve) => (started = resolve)) }).finally(() => {
		for (const subscription of subscriptions) {
			subscription.dispose();
		}
	});
	return {
		done,
		abandon: () => {
			finished(undefined);
		},
	};
}
