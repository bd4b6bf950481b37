// What the window hands each chat's processes feature (src/features/processes/): how processes are
// launched (a VS Code terminal of their own, or a child process), where their output goes (a file
// Read opens), each chat's foreground runner (its "Aside" terminal), and the window's list of every
// chat's background processes — for **Aside: Stop Background Processes**, and so that nothing a
// chat started keeps running unseen once the window goes.
import { Emitter, type Event } from '../base/event';
import type { Timers } from '../base/clock';
import type { IDisposable } from '../base/lifecycle';
import type { CommandRunner } from '../tools/tool';
import type { BackgroundProcess, BackgroundProcesses } from './backgroundProcesses';
import type { ProcessLauncher } from './launcher';
import type { OutputFile } from './processOutput';

export interface ProcessHost {
	readonly launcher: ProcessLauncher;
	/** A new path for a process's output (a file Read opens); `stem` names it (`process-p1`). */
	outputPath(stem: string): string;
	/** The file at `path` a process's output is written to, as it comes. */
	file(path: string): OutputFile | undefined;
	/** A chat's foreground runner: its own terminal, made on first use; disposed with the chat's state. */
	foreground(): CommandRunner & IDisposable;
	readonly chats: ChatProcessList;
	/** aside.run.wakeOnExit now: whether a process that ends by itself may start a turn in its idle chat (absent: never). */
	wakeOnExit?(): boolean;
	/** The timers the wake waits with (absent: the system's). */
	readonly timers?: Timers;
}

/** One chat's background processes, as the window lists them. */
export interface ChatProcessEntry {
	readonly chatId: string;
	readonly processes: BackgroundProcesses;
	/** The chat was opened again in this window: the state that listed them lets go of them (adopt). */
	readonly release?: () => void;
	/** The chat's shell for foreground commands (its "Aside" terminal), closed with a deleted chat. */
	readonly shell?: IDisposable;
}

/** Every chat's background processes in the window. */
export class ChatProcessList implements IDisposable {
	/** Each listed entry, with its listener. */
	private readonly entries = new Map<ChatProcessEntry, IDisposable>();
	private readonly changed = new Emitter<void>();
	/** A process started or ended in any chat. */
	readonly onDidChange: Event<void> = this.changed.event;

	/** Lists `entry` until the returned disposable is; its processes' starts and ends are changes. */
	add(entry: ChatProcessEntry): IDisposable {
		this.entries.set(entry, entry.processes.onDidChange((event) => {
			if (event.kind !== 'output') {
				this.changed.fire();
			}
		}));
		return {
			dispose: () => {
				this.unlist(entry);
			},
		};
	}

	private unlist(entry: ChatProcessEntry): boolean {
		const listener = this.entries.get(entry);
		listener?.dispose();
		return this.entries.delete(entry);
	}

	/**
	 * The processes chat `chatId` already has in this window (it was opened before, and left: they
	 * run on), taken over by the chat's new state: the old one lets go of them and is no longer listed.
	 */
	adopt(chatId: string): BackgroundProcesses | undefined {
		return this.take(chatId)?.processes;
	}

	private take(chatId: string): ChatProcessEntry | undefined {
		const entry = [...this.entries.keys()].findLast((candidate) => candidate.chatId === chatId);
		if (entry === undefined) {
			return undefined;
		}
		this.unlist(entry);
		entry.release?.();
		return entry;
	}

	/** Chat `chatId` was deleted: its processes end now (interrupt, then the end) and its shell closes; its state lets go of them. */
	endChat(chatId: string): void {
		const entry = this.take(chatId);
		if (entry) {
			entry.shell?.dispose();
			void entry.processes.stopAll().finally(() => {
				entry.processes.dispose();
			});
		}
	}

	/** The running processes of every chat, with their chat. */
	running(): readonly { readonly chatId: string; readonly process: BackgroundProcess }[] {
		return [...this.entries.keys()].flatMap(({ chatId, processes }) => processes.running().map((process) => ({ chatId, process })));
	}

	/** Stops every running process of every chat (interrupt, then the end); resolves with those stopped, once all ended. */
	async stopAll(): Promise<readonly { readonly chatId: string; readonly process: BackgroundProcess }[]> {
		const running = this.running();
		await Promise.all([...this.entries.keys()].map(({ processes }) => processes.stopAll()));
		return running;
	}

	dispose(): void {
		// The window goes: each chat's registry kills what still runs.
		for (const [{ processes }, listener] of [...this.entries]) {
			listener.dispose();
			processes.dispose();
		}
		this.entries.clear();
		this.changed.dispose();
	}
}
