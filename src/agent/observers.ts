// The editor feeds the reminder engine: after a tool call, note what the agent read or wrote
// and discover the AGENTS.md on a read file's path; before each WAIT, report files that changed
// outside Aside's tools. One per session; failures here are logged and never break a turn.
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { EditDiagnostics } from '../observe/editDiagnostics';
import { EditedFiles, type EditedFilesOptions, type FileEvents } from '../observe/editedFiles';
import { InstructionFiles } from '../observe/instructionFiles';
import type { Owner } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';
import { resolveInWorkspace } from '../tools/paths';
import type { ToolResult, WorkspaceFs } from '../tools/tool';

/** Opens files as editor documents, so language servers check them; the editor's URIs for paths. */
export interface DocumentOpener {
	uriOf(path: string): string;
	isOpen(path: string): boolean;
	open(path: string): Promise<void>;
	/** Whether any diagnostics were reported for the file yet. */
	hasDiagnostics(path: string): boolean;
}

type Call = { readonly name: string; readonly input: unknown };

/** What the turn loop tells observers, and when. */
export interface TurnObservers {
	/** Before a tool runs (after any permission was granted). */
	beforeTool(call: Call, owner: Owner, signal: AbortSignal): Promise<void>;
	afterTool(call: Call, result: ToolResult, owner: Owner, signal: AbortSignal): Promise<void>;
	beforeWait(owner: Owner, signal: AbortSignal): Promise<void>;
	/** The owner finished: forget what was delivered to it. */
	endOwner(owner: Owner): void;
}

const WRITES = ['Edit', 'Write'];

function pathOf(input: unknown): string | undefined {
	const path = (input as { path?: unknown } | undefined)?.path;
	return typeof path === 'string' ? path : undefined;
}

export class SessionObservers extends Disposable implements TurnObservers {
	private readonly edited: EditedFiles;
	/** Documents opened on the agent's behalf, which may not have been checked yet. */
	private readonly opened = new Set<string>();
	private readonly instructions: InstructionFiles;

	constructor(
		private readonly engine: ReminderEngine,
		private readonly fs: WorkspaceFs,
		events: FileEvents,
		private readonly roots: () => readonly string[],
		options: EditedFilesOptions,
		private readonly log: Logger,
		/** Edit diagnostics, when the editor has a diagnostics source and documents. */
		private readonly diagnostics?: { readonly observer: EditDiagnostics; readonly documents: DocumentOpener },
	) {
		super();
		this.edited = this._register(new EditedFiles(fs, events, { ...options, roots }));
		this.instructions = new InstructionFiles(fs, roots);
	}

	/** Files seen to change and not reported yet. */
	get pendingCount(): number {
		return this.edited.pendingCount;
	}

	/** Before an edit: the file's diagnostics as they are (its baseline), with the file open. */
	async beforeTool(call: Call, owner: Owner, signal: AbortSignal): Promise<void> {
		const input = pathOf(call.input);
		if (!this.diagnostics || input === undefined || !WRITES.includes(call.name)) {
			return;
		}
		const { observer, documents } = this.diagnostics;
		try {
			const path = await resolveInWorkspace(input, this.roots(), this.fs);
			const uri = documents.uriOf(path);
			const exists = (await this.fs.stat(path)) !== undefined;
			// Language servers check open documents only. One opened just now (by this edit, or by
			// the Read before it) may not have reported yet: let it, before taking the baseline.
			const fresh = !documents.isOpen(path) || (this.opened.has(path) && !documents.hasDiagnostics(path));
			if (!exists || !fresh) {
				observer.beforeEdit(owner.id, uri);
			} else {
				await documents.open(path);
				await observer.beforeEditSettled(owner.id, uri, signal);
			}
		} catch (error) {
			this.log.warn(`Aside: no diagnostics baseline for ${input}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	async afterTool(call: Call, result: ToolResult, owner: Owner, signal: AbortSignal): Promise<void> {
		const input = pathOf(call.input);
		if (result.isError || input === undefined || !['Read', ...WRITES].includes(call.name)) {
			return;
		}
		try {
			const path = await resolveInWorkspace(input, this.roots(), this.fs);
			if (this.diagnostics && WRITES.includes(call.name)) {
				await this.reportDiagnostics(path, owner, signal);
			}
			const stat = await this.fs.stat(path);
			if (stat?.type !== 'file') {
				return;
			}
			const bytes = await this.fs.readFile(path);
			if (call.name === 'Read') {
				this.edited.noteRead(path, bytes, stat.mtimeMs);
				// Agents read before they edit: opening the document now lets its language server
				// report before the edit, so the edit's baseline is there when it is needed.
				if (this.diagnostics && !this.diagnostics.documents.isOpen(path)) {
					await this.diagnostics.documents.open(path);
					this.opened.add(path);
				}
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
		this.diagnostics?.observer.endRequest(owner.id);
	}

	/** After an edit: wait for the file's diagnostics to settle and queue what the edit changed. */
	private async reportDiagnostics(path: string, owner: Owner, signal: AbortSignal): Promise<void> {
		if (!this.diagnostics) {
			return;
		}
		const { observer, documents } = this.diagnostics;
		if (!documents.isOpen(path)) {
			await documents.open(path);
		}
		const event = await observer.afterEdit(owner.id, documents.uriOf(path), signal);
		if (event) {
			this.engine.queueTurnEvent(owner, event);
		}
	}
}
