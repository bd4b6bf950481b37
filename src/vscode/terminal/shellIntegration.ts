// Waiting for a terminal's shell integration, shared by the background launcher (one terminal per
// process) and the chat's terminal for foreground commands: it may come late on a cold shell, or
// never (a shell without it, a terminal closed first), and both fall back to a child process then.
// Here too what both take of the window and the settings.
import type * as vscode from 'vscode';

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
