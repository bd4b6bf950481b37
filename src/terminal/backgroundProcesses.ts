// A chat's background processes (docs/tools.md, "Run in the background"): `Run { background: true }`
// starts one (p1, p2 … per chat), RunOutput reads it, RunStop ends it. Each one's output goes through
// processOutput.ts (a ring, a bounded file); past the file's bound the process is stopped. How each
// one ended is kept: its exit code as reported (undefined when none was: never guessed), the cause
// and the time. The reminders (src/features/processes/) listen to `onDidChange`.
import { Emitter, type Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type { LaunchedProcess, LaunchExit, ProcessLauncher } from './launcher';
import type { FallbackReason } from './shellExecution';
import { DEFAULT_OUTPUT_BOUNDS, type OutputBounds, type OutputFile, ProcessOutput } from './processOutput';

/** What the model asked to be told of: the exit (always), all new output, or lines matching a pattern. */
export type Notify = { readonly kind: 'exit' } | { readonly kind: 'output' } | { readonly kind: 'match'; readonly pattern: RegExp };

/** An exit code in words: as reported, or unknown — never guessed. */
export function exitCodeWords(code: number | undefined): string {
	return code === undefined ? 'exit code unknown (the shell reported none)' : `exit code ${code}`;
}

/** How a process ended: it exited by itself, RunStop (or the person) stopped it, or its output passed the bound. */
export type EndCause = 'exited' | 'stopped' | 'bound';

export interface ProcessEnd extends LaunchExit {
	readonly cause: EndCause;
	readonly at: number;
}

export interface BackgroundProcess {
	readonly id: string;
	readonly command: string;
	readonly startedAt: number;
	readonly notify: Notify;
	readonly outputPath: string;
	readonly terminalName: string | undefined;
	/** Why it runs outside a terminal, when it does. */
	readonly fallback: FallbackReason | undefined;
	/** The process whose session holds it and all it started, when known (launcher.ts). */
	readonly leader: number | undefined;
	readonly output: ProcessOutput;
	/** When output last came. */
	readonly lastOutputAt: number;
	/** Lines matching `notify.match` since the model last read the output. */
	readonly matches: readonly string[];
	readonly end: ProcessEnd | undefined;
}

export type ProcessEvent =
	| { readonly kind: 'started' | 'ended'; readonly process: BackgroundProcess }
	| { readonly kind: 'output'; readonly process: BackgroundProcess; readonly lines: readonly string[] };

export interface BackgroundOptions {
	/** Where process `id`'s output file goes (a path Read opens). */
	readonly outputPath: (id: string) => string;
	readonly now: () => number;
	/** The file a process's output goes to (undefined: only the ring keeps it). */
	readonly file: (path: string) => OutputFile | undefined;
	/** After an interrupt, how long a process gets before it is killed. */
	readonly graceMs?: number;
	readonly bounds?: OutputBounds;
	/** The number of the chat's last process before these (a reopened chat goes on from p4 after p3). */
	readonly numberedFrom?: number;
}

/** The most matching lines kept for a reminder. */
const MAX_MATCHES = 20;
const DEFAULT_GRACE_MS = 3000;

class Running implements BackgroundProcess {
	lastOutputAt: number;
	matches: string[] = [];
	end: ProcessEnd | undefined;
	stopping: EndCause | undefined;
	readonly done: Promise<ProcessEnd>;

	constructor(
		readonly id: string,
		readonly command: string,
		readonly startedAt: number,
		readonly notify: Notify,
		readonly outputPath: string,
		readonly output: ProcessOutput,
		readonly launched: LaunchedProcess,
		finished: (resolve: (end: ProcessEnd) => void) => void,
	) {
		this.lastOutputAt = startedAt;
		this.done = new Promise(finished);
	}

	get terminalName(): string | undefined {
		return this.launched.terminalName;
	}

	get fallback(): FallbackReason | undefined {
		return this.launched.fallback;
	}

	get leader(): number | undefined {
		return this.launched.leader;
	}
}

export class BackgroundProcesses implements IDisposable {
	private readonly processes = new Map<string, Running>();
	private next: number;
	private readonly changed = new Emitter<ProcessEvent>();
	readonly onDidChange: Event<ProcessEvent> = this.changed.event;

	constructor(
		private readonly launcher: ProcessLauncher,
		private readonly options: BackgroundOptions,
	) {
		this.next = (options.numberedFrom ?? 0) + 1;
	}

	/** Starts `command` (once its terminal is ready, or in the fallback): resolves with the process as it runs. */
	async start(command: string, cwd: string, notify: Notify): Promise<BackgroundProcess> {
		const id = `p${this.next++}`;
		const outputPath = this.options.outputPath(id);
		const output = new ProcessOutput(this.options.file(outputPath), this.options.bounds ?? DEFAULT_OUTPUT_BOUNDS);
		const name = `Aside: ${id} ${command.length > 40 ? `${command.slice(0, 39)}…` : command}`;
		const launched = await this.launcher.start(command, { cwd, name });
		let resolve: (end: ProcessEnd) => void = () => undefined;
		const process = new Running(id, command, this.options.now(), notify, outputPath, output, launched, (done) => {
			resolve = done;
		});
		this.processes.set(id, process);
		launched.onData((chunk) => {
			this.take(process, chunk);
		});
		launched.onExit((exit) => {
			const lines = output.end();
			if (lines.length > 0) {
				this.took(process, lines);
			}
			process.end = { ...exit, cause: process.stopping ?? 'exited', at: this.options.now() };
			resolve(process.end);
			this.changed.fire({ kind: 'ended', process });
		});
		this.changed.fire({ kind: 'started', process });
		return process;
	}

	get(id: string): BackgroundProcess | undefined {
		return this.processes.get(id);
	}

	list(): readonly BackgroundProcess[] {
		return [...this.processes.values()];
	}

	running(): readonly BackgroundProcess[] {
		return this.list().filter((process) => process.end === undefined);
	}

	/** Shows the process's terminal, when it has one; false when it has none. */
	show(id: string): boolean {
		const process = this.processes.get(id);
		if (process?.launched.show === undefined) {
			return false;
		}
		process.launched.show();
		return true;
	}

	/** RunOutput read it: the matches it had are said. */
	read(id: string, since: 'last' | 'start', tailLines?: number): ReturnType<ProcessOutput['read']> | undefined {
		const process = this.processes.get(id);
		if (!process) {
			return undefined;
		}
		process.matches = [];
		return process.output.read(since, tailLines);
	}

	/** Interrupts it, then kills it after the grace period; resolves with how it ended (at once when it already had). */
	stop(id: string, cause: EndCause = 'stopped'): Promise<ProcessEnd> | undefined {
		const process = this.processes.get(id);
		if (!process) {
			return undefined;
		}
		if (process.end === undefined && process.stopping === undefined) {
			process.stopping = cause;
			process.launched.interrupt();
			const kill = setTimeout(() => {
				process.launched.kill();
			}, this.options.graceMs ?? DEFAULT_GRACE_MS);
			void process.done.then(() => {
				clearTimeout(kill);
			});
		}
		return process.done;
	}

	/** Stops every running process (Aside: Stop Background Processes); resolves once all ended. */
	async stopAll(): Promise<readonly BackgroundProcess[]> {
		const running = this.running();
		await Promise.all(running.map((process) => this.stop(process.id) ?? Promise.resolve()));
		return running;
	}

	dispose(): void {
		// The chat or the window goes: nothing of it may keep running unseen.
		for (const process of this.processes.values()) {
			if (process.end === undefined) {
				process.output.end();
				process.launched.kill();
			}
		}
		this.changed.dispose();
	}

	private take(process: Running, chunk: string): void {
		process.lastOutputAt = this.options.now();
		const lines = process.output.push(chunk);
		if (process.output.overBound && process.stopping === undefined) {
			void this.stop(process.id, 'bound');
		}
		this.took(process, lines);
	}

	private took(process: Running, lines: readonly string[]): void {
		if (lines.length === 0) {
			return;
		}
		const { notify } = process;
		if (notify.kind === 'match') {
			for (const line of lines) {
				notify.pattern.lastIndex = 0;
				if (notify.pattern.test(line)) {
					process.matches.push(line);
				}
			}
			process.matches.splice(0, Math.max(0, process.matches.length - MAX_MATCHES));
		}
		this.changed.fire({ kind: 'output', process, lines });
	}
}
