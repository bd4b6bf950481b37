// The edit-diagnostics half of a session's observers, present when the editor has a diagnostics
// source and documents: opens the files the agent reads or edits so language servers check them,
// takes each written file's baseline before a call, and starts each edit's settle wait after it.
// Apart from observers.ts, whose other observers need no documents and no language server.
import type { EditDiagnostics } from '../observe/editDiagnostics';
import type { Owner } from '../reminders/definition';
import type { RecordLike } from '../reminders/history';
import type { WorkspaceFs } from '../tools/tool';
import type { StepWaits } from './stepWaits';

/** Opens files as editor documents, so language servers check them; the editor's URIs for paths. */
export interface DocumentOpener {
	uriOf(path: string): string;
	/** Whether the file is open as a document (in an editor tab or not). */
	isOpen(path: string): boolean;
	/** Opens the document without showing it: enough for servers that check every open document. */
	open(path: string): Promise<void>;
	/** Whether the file is in an editor tab, in any group: the TypeScript extension checks only those. */
	isShown(path: string): boolean;
	/** Opens the document and shows it in a preview tab, without taking focus. */
	show(path: string): Promise<void>;
	/** Whether any diagnostics were reported for the file yet. */
	hasDiagnostics(path: string): boolean;
	/** The open document's line count; undefined when it is not open. */
	lineCount(path: string): number | undefined;
}

/** Edit diagnostics, when the editor has a diagnostics source and documents. */
export interface ObserverDiagnostics {
	readonly observer: EditDiagnostics;
	readonly documents: DocumentOpener;
	/**
	 * `aside.diagnostics.openEditedFiles`, read at each edit: show an edited file that is in no
	 * editor tab, so that language servers that check only such files (TypeScript) check it.
	 * Absent: true.
	 */
	readonly openEditedFiles?: () => boolean;
}

export class EditDiagnosticsObserver {
	/** Documents opened on the agent's behalf, which may not have been checked yet. */
	private readonly opened = new Set<string>();

	constructor(
		private readonly diagnostics: ObserverDiagnostics,
		private readonly fs: WorkspaceFs,
		/** The session's step waits: the next WAIT of an edit's owner waits for its diagnostics. */
		private readonly waits: StepWaits,
	) {}

	/** Before a call writes `path`: its diagnostics as they are (its baseline), with the file open. */
	async takeBaseline(path: string, owner: Owner, signal: AbortSignal): Promise<void> {
		const { observer, documents } = this.diagnostics;
		const uri = documents.uriOf(path);
		if ((await this.fs.stat(path)) === undefined) {
			// A file the call creates: nothing was there, so every problem is new.
			observer.beforeEdit(owner.id, uri);
			return;
		}
		// One opened or shown just now (by this edit, or by the Read before it) may not have been
		// checked yet: let its language servers report before taking the baseline.
		const fresh = (await this.makeCheckable(path)) || (this.opened.has(path) && !documents.hasDiagnostics(path));
		if (fresh) {
			await observer.beforeEditSettled(owner.id, uri, signal, { lines: documents.lineCount(path) });
		} else {
			observer.beforeEdit(owner.id, uri);
		}
		// Its language servers have had their chance: a later edit need not wait for them again.
		this.opened.delete(path);
	}

	/**
	 * Agents read before they edit: opening the document now lets its language server report
	 * before the edit, so the edit's baseline is there when it is needed.
	 */
	async afterRead(path: string): Promise<void> {
		const { documents } = this.diagnostics;
		if (!documents.isOpen(path)) {
			await documents.open(path);
			this.opened.add(path);
		}
	}

	/** After a write: the file made checkable, and its wait for settled diagnostics started. */
	async afterWrite(path: string, owner: Owner, signal: AbortSignal): Promise<void> {
		const { observer, documents } = this.diagnostics;
		// A file the call just created, or one whose tab was closed since: let it be checked.
		const justOpened = await this.makeCheckable(path);
		// Not awaited: the step's next calls run meanwhile, and its next WAIT waits for all of them.
		this.waits.add(owner, path, observer.afterEdit(owner.id, documents.uriOf(path), signal, { lines: documents.lineCount(path), justOpened }));
	}

	/** The problems of edited files the chat's root context was already given, from its records. */
	restore(records: readonly RecordLike[]): void {
		this.diagnostics.observer.restore(records);
	}

	/** The owner finished: its request's baselines end. */
	endOwner(owner: Owner): void {
		this.diagnostics.observer.endRequest(owner.id);
	}

	/**
	 * Makes an edited file one its language servers check: open, and (unless the setting says not
	 * to) in an editor tab, as the TypeScript extension checks nothing else. Reads only open the
	 * document: a Read never changes what the person sees. Returns whether it was opened or shown
	 * just now (so not checked yet).
	 */
	private async makeCheckable(path: string): Promise<boolean> {
		const { documents, openEditedFiles } = this.diagnostics;
		if (openEditedFiles?.() ?? true) {
			if (documents.isShown(path)) {
				return false;
			}
			await documents.show(path);
			return true;
		}
		if (documents.isOpen(path)) {
			return false;
		}
		await documents.open(path);
		return true;
	}
}
