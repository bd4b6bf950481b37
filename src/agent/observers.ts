// The editor feeds the reminder engine: after a tool call, note what the agent read or wrote
// and discover the AGENTS.md on a read file's path; before each WAIT, report files that changed
// outside Aside's tools. One per session; failures here are logged and never break a turn.
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import { EditedFiles, type EditedFilesOptions, type FileEvents } from '../observe/editedFiles';
import { InstructionFiles } from '../observe/instructionFiles';
import type { Owner } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';
import { resolveInWorkspace } from '../tools/paths';
import type { ToolResult, WorkspaceFs } from '../tools/tool';

/** What the turn loop tells observers, and when. */
export interface TurnObservers {
	afterTool(call: { readonly name: string; readonly input: unknown }, result: ToolResult, owner: Owner): Promise<void>;
	beforeWait(owner: Owner, signal: AbortSignal): Promise<void>;
	/** The owner finished: forget what was delivered to it. */
	endOwner(owner: Owner): void;
}

function pathOf(input: unknown): string | undefined {
	const path = (input as { path?: unknown } | undefined)?.path;
	return typeof path === 'string' ? path : undefined;
}

export class SessionObservers extends Disposable implements TurnObservers {
	private readonly edited: EditedFiles;
	private readonly instructions: InstructionFiles;

	constructor(
		private readonly engine: ReminderEngine,
		private readonly fs: WorkspaceFs,
		events: FileEvents,
		private readonly roots: () => readonly string[],
		options: EditedFilesOptions,
		private readonly log: Logger,
	) {
		super();
		this.edited = this._register(new EditedFiles(fs, events, { ...options, roots }));
		this.instructions = new InstructionFiles(fs, roots);
	}

	/** Files seen to change and not reported yet. */
	get pendingCount(): number {
		return this.edited.pendingCount;
	}

	async afterTool(call: { readonly name: string; readonly input: unknown }, result: ToolResult, owner: Owner): Promise<void> {
		const input = pathOf(call.input);
		if (result.isError || input === undefined || !['Read', 'Edit', 'Write'].includes(call.name)) {
			return;
		}
		try {
			const path = await resolveInWorkspace(input, this.roots(), this.fs);
			const stat = await this.fs.stat(path);
			if (stat?.type !== 'file') {
				return;
			}
			const bytes = await this.fs.readFile(path);
			if (call.name === 'Read') {
				this.edited.noteRead(path, bytes, stat.mtimeMs);
				const discovered = await this.instructions.afterRead(owner, path);
				if (discovered) {
					this.engine.queueTurnEvent(owner, discovered);
				}
			} else {
				this.edited.noteOwnWrite(path, bytes, stat.mtimeMs);
			}
		} catch (error) {
			this.log.warn(`Aside: could not observe ${call.name} of ${input}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	async beforeWait(owner: Owner, signal: AbortSignal): Promise<void> {
		try {
			const changed = await this.edited.prepare(signal);
			if (changed) {
				this.engine.queueTurnEvent(owner, changed);
			}
		} catch (error) {
			this.log.warn(`Aside: could not check the files the agent saw: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	endOwner(owner: Owner): void {
		this.instructions.forget(owner);
	}
}
