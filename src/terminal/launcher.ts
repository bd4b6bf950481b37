// How a background process is started and ended, whatever runs it: a VS Code terminal of its own
// through the shell integration API, or a child process of the extension host when there is no
// terminal (aside.run.terminal "off", headless, or the integration did not come up). The registry
// (backgroundProcesses.ts) sees only this.
import { Emitter, type Event } from '../base/event';
import type { FallbackReason } from './shellExecution';

/** How a process ended: its exit code as reported, or undefined when the shell reported none (never guessed). */
export interface LaunchExit {
	readonly code: number | undefined;
	/** The signal that ended it, when one did and it is known. */
	readonly signal?: string;
}

export interface LaunchedProcess {
	/** Raw output as it comes (terminal text: escapes and CRs included). */
	readonly onData: Event<string>;
	/** Fires once, when the process ended. */
	readonly onExit: Event<LaunchExit>;
	/** The terminal it runs in, for the person; undefined for a child process. */
	readonly terminalName: string | undefined;
	/** Ctrl-C: what the person would press. */
	interrupt(): void;
	/** Ends it and everything it started, now. */
	kill(): void;
	/** Shows its terminal, when it has one. */
	show?(): void;
	/**
	 * The process whose session holds it and all it started — a terminal's shell, a detached child
	 * process — when known: `kill` ends that session directly (sessionEnd.ts), and the chat records
	 * it, so that a chat reopened after the window went can end what outlived it.
	 */
	readonly leader?: number;
	/** Why it runs as a child process instead of in a terminal, when it does (run.shell-integration says so once per chat and reason). */
	readonly fallback?: FallbackReason;
}

export interface LaunchOptions {
	readonly cwd: string;
	/** The terminal's name ("Aside: p1 npm run dev"). */
	readonly name: string;
}

export interface ProcessLauncher {
	/** Starts `command` in a shell, once a terminal's shell integration is up or in the fallback; a failure to start is an exit with its message as output. */
	start(command: string, options: LaunchOptions): Promise<LaunchedProcess>;
}

/** A launched process's two events and its end, for the launchers: the end fires once, and nothing fires after it. */
export class LaunchEvents {
	private readonly data = new Emitter<string>();
	private readonly exit = new Emitter<LaunchExit>();
	private ended = false;
	readonly onData: Event<string> = this.data.event;
	readonly onExit: Event<LaunchExit> = this.exit.event;

	/** `release`: what the launcher lets go of once the process is gone. */
	constructor(private readonly release?: () => void) {}

	output(chunk: string): void {
		if (!this.ended) {
			this.data.fire(chunk);
		}
	}

	end(value: LaunchExit): void {
		if (this.ended) {
			return;
		}
		this.ended = true;
		this.exit.fire(value);
		this.data.dispose();
		this.exit.dispose();
		this.release?.();
	}
}
