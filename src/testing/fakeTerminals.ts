// VS Code's terminals and their shell integration in memory, for the specs of what runs commands
// in them (src/vscode/terminal/): a window that opens terminals, a shell the test scripts command
// by command (what it prints, when and how it ends, what Ctrl-C does), and the API's events fired
// a tick later, as VS Code fires them.
import type * as vscode from 'vscode';
import { Emitter } from '../base/event';
import type { CommandOutcome, CommandRunner } from '../tools/tool';
import type { TerminalWindow } from '../vscode/terminal/shellIntegration';

const later = (fn: () => void): void => {
	setImmediate(fn);
};

/** What a command read through `read()` delivers, to each reader from the moment it reads; `close` ends it (one never closed models the API's known hang). */
export class OutputStream implements AsyncIterable<string> {
	private readonly chunks: string[] = [];
	private wake: (() => void) | undefined;
	private closed = false;

	push(chunk: string): void {
		this.chunks.push(chunk);
		this.wake?.();
	}

	close(): void {
		this.closed = true;
		this.wake?.();
	}

	async *[Symbol.asyncIterator](): AsyncIterator<string> {
		for (;;) {
			const chunk = this.chunks.shift();
			if (chunk !== undefined) {
				yield chunk;
				continue;
			}
			if (this.closed) {
				return;
			}
			await new Promise<void>((resolve) => {
				this.wake = resolve;
			});
		}
	}
}

/** One `executeCommand`: the test's script prints and ends it. */
export class FakeCommand {
	/** What Ctrl-C does; by default nothing (a program that ignores it). */
	onInterrupt: () => void = () => undefined;
	private readonly readers: OutputStream[] = [];
	private readonly early: string[] = [];
	private done = false;

	constructor(
		readonly command: string,
		readonly terminal: FakeTerminal,
		private readonly ended: (code: number | undefined) => void,
	) {}

	get running(): boolean {
		return !this.done;
	}

	read(): AsyncIterable<string> {
		const stream = new OutputStream();
		for (const chunk of this.early.splice(0)) {
			stream.push(chunk);
		}
		if (this.done) {
			stream.close();
		}
		this.readers.push(stream);
		return stream;
	}

	print(text: string): void {
		if (this.readers.length === 0) {
			this.early.push(text);
		}
		for (const reader of this.readers) {
			reader.push(text);
		}
	}

	/** The command ends with `code` (undefined: the shell reported none). */
	end(code: number | undefined): void {
		this.close();
		later(() => {
			this.ended(code);
		});
	}

	/** The output stops without an end event: the shell is gone. */
	close(): void {
		this.done = true;
		for (const reader of this.readers) {
			reader.close();
		}
	}
}

/** How the test's shell answers a command: print, end, or hold it for later. */
export type FakeShell = (command: FakeCommand) => void;

/** Prints the command's words after `echo ` and ends with 0; anything else ends with 0 silently. */
export const echoShell: FakeShell = (command) => {
	if (command.command.startsWith('echo ')) {
		command.print(`${command.command.slice(5)}\r\n`);
	}
	command.end(0);
};

export class FakeTerminal {
	readonly commands: FakeCommand[] = [];
	readonly shown: boolean[] = [];
	readonly sent: string[] = [];
	shellIntegration: vscode.TerminalShellIntegration | undefined;
	disposed = false;

	constructor(
		readonly name: string,
		readonly options: vscode.TerminalOptions,
		private readonly window: FakeTerminalWindow,
	) {}

	get current(): FakeCommand | undefined {
		return this.commands.find((command) => command.running);
	}

	show(preserveFocus?: boolean): void {
		this.shown.push(preserveFocus === true);
	}

	sendText(text: string, addNewLine?: boolean): void {
		this.sent.push(addNewLine === false ? text : `${text}\n`);
		if (text === '\u0003') {
			this.current?.onInterrupt();
		}
	}

	/** Closed by the extension or by the person: the shell and what runs in it end. */
	dispose(): void {
		if (this.disposed) {
			return;
		}
		this.disposed = true;
		this.current?.close();
		later(() => {
			this.window.closed(this);
		});
	}
}

export class FakeTerminalWindow {
	readonly terminals: FakeTerminal[] = [];
	/** Whether a new terminal's shell integration comes up. */
	integrates = true;
	private readonly integrationChanged = new Emitter<vscode.TerminalShellIntegrationChangeEvent>();
	private readonly executionStarted = new Emitter<vscode.TerminalShellExecutionStartEvent>();
	private readonly executionEnded = new Emitter<vscode.TerminalShellExecutionEndEvent>();
	private readonly terminalClosed = new Emitter<vscode.Terminal>();

	constructor(public shell: FakeShell = echoShell) {}

	/** The window as the code under test takes it. */
	get api(): TerminalWindow {
		const create = (options: vscode.TerminalOptions) => this.asTerminal(this.create(options));
		return {
			createTerminal: create as TerminalWindow['createTerminal'],
			onDidChangeTerminalShellIntegration: this.integrationChanged.event,
			onDidStartTerminalShellExecution: this.executionStarted.event,
			onDidEndTerminalShellExecution: this.executionEnded.event,
			onDidCloseTerminal: this.terminalClosed.event,
		};
	}

	closed(terminal: FakeTerminal): void {
		this.terminalClosed.fire(this.asTerminal(terminal));
	}

	private create(options: vscode.TerminalOptions): FakeTerminal {
		const terminal = new FakeTerminal(options.name ?? '', options, this);
		this.terminals.push(terminal);
		if (this.integrates) {
			later(() => {
				if (terminal.disposed) {
					return;
				}
				terminal.shellIntegration = this.integrationOf(terminal);
				this.integrationChanged.fire({ terminal: this.asTerminal(terminal), shellIntegration: terminal.shellIntegration });
			});
		}
		return terminal;
	}

	private integrationOf(terminal: FakeTerminal): vscode.TerminalShellIntegration {
		const executeCommand = (commandLine: string): vscode.TerminalShellExecution => {
			const command = new FakeCommand(commandLine, terminal, (exitCode) => {
				if (!terminal.disposed) {
					this.executionEnded.fire({ terminal: this.asTerminal(terminal), shellIntegration: integration, execution, exitCode });
				}
			});
			const execution = { read: () => command.read() } as unknown as vscode.TerminalShellExecution;
			terminal.commands.push(command);
			later(() => {
				this.executionStarted.fire({ terminal: this.asTerminal(terminal), shellIntegration: integration, execution });
				this.shell(command);
			});
			return execution;
		};
		const integration = { executeCommand } as unknown as vscode.TerminalShellIntegration;
		return integration;
	}

	private asTerminal(terminal: FakeTerminal): vscode.Terminal {
		return terminal as unknown as vscode.Terminal;
	}
}

/** The child-process fallback, in memory: records each command and answers `output`. */
export class RecordingRunner implements CommandRunner {
	readonly commands: string[] = [];

	constructor(private readonly output = 'from the fallback') {}

	run(command: string): Promise<CommandOutcome> {
		this.commands.push(command);
		return Promise.resolve({ output: this.output, exitCode: 0, timedOut: false, truncated: false });
	}
}
