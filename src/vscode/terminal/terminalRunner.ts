// Foreground Run commands in one VS Code terminal per chat, named "Aside", reused from call to call
// so that `cd` and `export` carry over the way they do for a person typing: through the shell
// integration API (`executeCommand`, `read()`, the end event's exit code), one command at a time.
// The terminal is opened on first use and again after it was closed or killed (the output then
// says so: the shell's state is gone). Without shell integration in time — or for a command it
// cannot follow (several lines, a nested shell), or with `aside.run.terminal` "off" — the command
// runs in the child-process fallback instead, and the outcome says why (`fallback`).
import type * as vscode from 'vscode';
import { ABORTED, isAborted, unlessAborted } from '../../base/async';
import { DisposableStore, type IDisposable } from '../../base/lifecycle';
import { commandFallback, type FallbackReason } from '../../terminal/shellExecution';
import { TerminalText } from '../../terminal/terminalText';
import { CappedOutput } from '../../tools/nodeRunner';
import type { CommandOutcome, CommandRunner } from '../../tools/tool';
import { integrationOf, runInTerminal } from './shellIntegration';
import type { TerminalSettings, TerminalWindow } from './shellIntegration';

/** After the end event, how long a `read()` that has not closed may still deliver. */
const DRAIN_MS = 300;
/** After Ctrl-C, how long a command gets to end before its terminal is closed under it. */
const KILL_GRACE_MS = 2000;
/** Ctrl-C, as the person would type it. */
const INTERRUPT = '\u0003';

type RunOptions = Parameters<CommandRunner['run']>[1];

/** What a run that never started returns (its signal fired first), as NodeCommandRunner does. */
const NOTHING_RAN: CommandOutcome = { output: '', exitCode: null, timedOut: false, truncated: false };

/** The chat's terminal while it lives. */
interface ChatShell {
	readonly terminal: vscode.Terminal;
	/** Asked once, when the terminal opens; every run in it awaits the same answer. */
	readonly integration: Promise<vscode.TerminalShellIntegration | undefined>;
	/** Where it was opened: its first command needs no `cd`. */
	readonly cwd: string;
	/** A command ran in it, so its shell may hold a `cd` or an `export` that a new one would not. */
	used: boolean;
}

export class ChatTerminalRunner implements CommandRunner, IDisposable {
	private readonly listeners = new DisposableStore();
	private shell: ChatShell | undefined;
	/** A terminal that had run commands went away: the next one's first output says its state is new. */
	private stateLost = false;
	/** Settles when every run queued so far has finished: the next one's turn. */
	private queue: Promise<void> = Promise.resolve();
	/** Ends the command running now as if the shell vanished (dispose). */
	private abandonRunning: (() => void) | undefined;
	private disposed = false;

	constructor(
		private readonly window: TerminalWindow,
		private readonly settings: () => TerminalSettings,
		private readonly fallback: CommandRunner,
		private readonly name = 'Aside',
	) {
		this.listeners.add(
			window.onDidCloseTerminal((gone) => {
				if (this.shell?.terminal === gone) {
					this.forget(this.shell);
				}
			}),
		);
	}

	async run(command: string, options: RunOptions): Promise<CommandOutcome> {
		if (isAborted(options.signal)) {
			return NOTHING_RAN;
		}
		const reason = this.settings().mode === 'off' ? 'terminal-off' : commandFallback(command);
		if (reason !== undefined) {
			return this.instead(command, options, reason);
		}
		if (this.disposed) {
			// The chat is gone: there is no terminal of its to open again.
			return this.fallback.run(command, options);
		}
		// One command at a time: this run's turn comes when every earlier one has finished, and the
		// next waits for this one even when this one gives up waiting (its signal fired).
		const previous = this.queue;
		let release: () => void = () => undefined;
		const mine = new Promise<void>((resolve) => {
			release = resolve;
		});
		this.queue = previous.then(() => mine);
		try {
			if ((await unlessAborted(previous, options.signal)) === ABORTED) {
				return NOTHING_RAN;
			}
			return await this.inTerminal(command, options);
		} finally {
			release();
		}
	}

	dispose(): void {
		this.disposed = true;
		this.listeners.dispose();
		const shell = this.shell;
		this.shell = undefined;
		shell?.terminal.dispose();
		this.abandonRunning?.();
	}

	private async instead(command: string, options: RunOptions, fallback: FallbackReason): Promise<CommandOutcome> {
		return { ...(await this.fallback.run(command, options)), fallback };
	}

	private async inTerminal(command: string, options: RunOptions): Promise<CommandOutcome> {
		const shell = this.shell ?? this.open(options.cwd);
		const integration = await unlessAborted(shell.integration, options.signal);
		if (integration === ABORTED) {
			return NOTHING_RAN;
		}
		if (!integration) {
			// Tried again at the next run, in a new terminal: the shell may only have been slow.
			this.kill(shell);
			return this.instead(command, options, 'no-integration');
		}
		if (this.shell !== shell || this.disposed) {
			// Closed while its integration was awaited: the next run opens another.
			return this.instead(command, options, 'no-integration');
		}
		const notice = this.stateLost && !shell.used ? this.newTerminalNotice(shell.cwd) : '';
		this.stateLost = false;
		shell.used = true;
		return this.execute(shell, integration, command, options, notice);
	}

	private open(cwd: string): ChatShell {
		const { mode, integrationTimeoutMs } = this.settings();
		const terminal = this.window.createTerminal({ name: this.name, cwd, hideFromUser: mode === 'hidden', isTransient: true });
		if (mode === 'visible') {
			terminal.show(true);
		}
		const shell: ChatShell = { terminal, integration: integrationOf(this.window, terminal, integrationTimeoutMs), cwd, used: false };
		this.shell = shell;
		return shell;
	}

	/** Closing the terminal ends its shell and whatever runs in it (the pty's hangup). */
	private kill(shell: ChatShell): void {
		this.forget(shell);
		shell.terminal.dispose();
	}

	private forget(shell: ChatShell): void {
		if (this.shell === shell) {
			this.shell = undefined;
		}
		if (shell.used) {
			this.stateLost = true;
		}
	}

	private newTerminalNotice(cwd: string): string {
		return `[This ran in a new "${this.name}" terminal, opened in ${cwd}, because the previous one was closed: earlier cd and export no longer apply.]\n`;
	}

	private async execute(
		shell: ChatShell,
		integration: vscode.TerminalShellIntegration,
		command: string,
		options: RunOptions,
		notice: string,
	): Promise<CommandOutcome> {
		const { timeoutMs, maxOutputBytes, signal } = options;
		const { terminal } = shell;
		const output = new CappedOutput(maxOutputBytes);
		const reader = new TerminalText();
		let lines = 0;
		const keep = (completed: readonly string[]) => {
			for (const line of completed) {
				output.push(Buffer.from(lines++ === 0 ? line : `\n${line}`));
			}
		};
		const running = runInTerminal(this.window, terminal, integration, command, (chunk) => {
			keep(reader.push(chunk));
		}, DRAIN_MS);
		this.abandonRunning = () => {
			running.abandon();
		};
		let timedOut = false;
		let grace: NodeJS.Timeout | undefined;
		const stop = () => {
			if (grace !== undefined) {
				return;
			}
			terminal.sendText(INTERRUPT, false);
			grace = setTimeout(() => {
				// Ctrl-C was not enough (a program that ignores it, one waiting for input).
				this.kill(shell);
				running.abandon();
			}, KILL_GRACE_MS);
		};
		const timer = setTimeout(() => {
			timedOut = true;
			stop();
		}, timeoutMs);
		signal.addEventListener('abort', stop, { once: true });
		try {
			const code = await running.done;
			keep(reader.end());
			return {
				output: notice + output.text(),
				exitCode: code ?? null,
				...(code === undefined ? { exitUnknown: true } : {}),
				timedOut,
				truncated: output.truncated,
				terminal: terminal.name,
			};
		} finally {
			clearTimeout(timer);
			clearTimeout(grace);
			signal.removeEventListener('abort', stop);
			this.abandonRunning = undefined;
		}
	}
}
