// Background processes in VS Code's terminals (src/terminal/launcher.ts): each one in a terminal of
// its own, named for it, never in the person's terminals, run through the shell integration API
// (`executeCommand`, `read()`, the end event's exit code). The integration is waited for up to
// `aside.run.shellIntegrationTimeoutMs`; without it — or for a command it cannot follow (several
// lines, a nested shell), or with `aside.run.terminal` "off" — the command runs as a child process
// instead, and the launched process says why (`fallback`).
import type * as vscode from 'vscode';
import { type LaunchedProcess, LaunchEvents, type LaunchOptions, type ProcessLauncher } from '../../terminal/launcher';
import { commandFallback, type FallbackReason } from '../../terminal/shellExecution';
import { endSession } from '../../terminal/sessionEnd';
import { integrationOf, runInTerminal, type TerminalSettings, type TerminalWindow } from './shellIntegration';

/** After the end event, how long a `read()` that has not closed may still deliver. */
const DRAIN_MS = 300;
/** Ctrl-C, as the person would type it. */
const INTERRUPT = '\u0003';

export class TerminalLauncher implements ProcessLauncher {
	constructor(
		private readonly window: TerminalWindow,
		private readonly settings: () => TerminalSettings,
		private readonly fallback: ProcessLauncher,
	) {}

	async start(command: string, options: LaunchOptions): Promise<LaunchedProcess> {
		const { mode, integrationTimeoutMs } = this.settings();
		const reason = mode === 'off' ? 'terminal-off' : commandFallback(command);
		if (reason !== undefined) {
			return this.instead(command, options, reason);
		}
		const terminal = this.window.createTerminal({ name: options.name, cwd: options.cwd, hideFromUser: mode === 'hidden', isTransient: true });
		const integration = await integrationOf(this.window, terminal, integrationTimeoutMs);
		if (!integration) {
			terminal.dispose();
			return this.instead(command, options, 'no-integration');
		}
		if (mode === 'visible') {
			terminal.show(true);
		}
		return this.run(terminal, integration, command, await terminal.processId);
	}

	private async instead(command: string, options: LaunchOptions, fallback: FallbackReason): Promise<LaunchedProcess> {
		const launched = await this.fallback.start(command, options);
		return {
			onData: launched.onData,
			onExit: launched.onExit,
			terminalName: launched.terminalName,
			interrupt: () => {
				launched.interrupt();
			},
			kill: () => {
				launched.kill();
			},
			...(launched.leader === undefined ? {} : { leader: launched.leader }),
			fallback,
		};
	}

	private run(terminal: vscode.Terminal, integration: vscode.TerminalShellIntegration, command: string, leader: number | undefined): LaunchedProcess {
		const events = new LaunchEvents();
		// Its end event's code; unknown when the person closed the terminal, or RunStop's kill did.
		const running = runInTerminal(this.window, terminal, integration, command, (chunk) => {
			events.output(chunk);
		}, DRAIN_MS);
		void running.done.then((code) => {
			events.end({ code });
		});
		return {
			onData: events.onData,
			onExit: events.onExit,
			terminalName: terminal.name,
			interrupt: () => {
				terminal.sendText(INTERRUPT, false);
			},
			kill: () => {
				// Its shell's session, directly: a window that goes may never get the close to the terminal host.
				if (leader !== undefined) {
					endSession(leader);
				}
				// Closing the terminal ends its shell and what runs in it (the pty's hangup).
				terminal.dispose();
			},
			...(leader === undefined ? {} : { leader }),
			show: () => {
				terminal.show(false);
			},
		};
	}
}
