// A process launcher whose processes the spec drives (what each prints, when it ends), for the
// background processes' registry, reminders and panel without a shell: src/terminal/launcher.ts.
import { Emitter } from '../base/event';
import type { LaunchedProcess, LaunchExit, LaunchOptions, ProcessLauncher } from '../terminal/launcher';
import type { FallbackReason } from '../terminal/shellExecution';

/** A process the test drives: `data.fire` prints, `exit.fire` ends it; Ctrl-C ends it with 130. */
export class ScriptedProcess implements LaunchedProcess {
	readonly data = new Emitter<string>();
	readonly exit = new Emitter<LaunchExit>();
	readonly onData = this.data.event;
	readonly onExit = this.exit.event;
	interrupted = false;
	shown = 0;

	constructor(
		readonly terminalName: string | undefined,
		readonly fallback?: FallbackReason,
		readonly leader?: number,
	) {}

	interrupt(): void {
		this.interrupted = true;
		this.exit.fire({ code: 130, signal: 'SIGINT' });
	}

	kill(): void {
		this.exit.fire({ code: undefined, signal: 'SIGKILL' });
	}

	show(): void {
		this.shown++;
	}
}

/** Launches ScriptedProcesses, kept in `launched` in order; `inTerminal`: each gets the terminal name it was asked for. */
export class ScriptedLauncher implements ProcessLauncher {
	readonly launched: ScriptedProcess[] = [];
	/** The session leader the next processes say they run in (a real process the spec started; never signalled here). */
	leader: number | undefined;

	constructor(private readonly inTerminal = false) {}

	start(_command: string, options: LaunchOptions): Promise<LaunchedProcess> {
		const process = new ScriptedProcess(this.inTerminal ? options.name : undefined, undefined, this.leader);
		this.launched.push(process);
		return Promise.resolve(process);
	}

	/** The last process launched. */
	get last(): ScriptedProcess {
		const process = this.launched.at(-1);
		if (!process) {
			throw new Error('No process was launched.');
		}
		return process;
	}
}
