// The editor feeds the reminder engine: before a tool call, take the diagnostics baseline of each
// file it declared it will write (`Tool.touches`, editDiagnosticsObserver.ts); after it, note each file its result says it
// read or wrote (`ToolResult.touched`) and discover the AGENTS.md on the path of each file it
// read; before each WAIT, report files that changed outside Aside's tools. Tools are known only by
// what they declare and report, never by name. One per session, with the session's stale-write
// guard (`seen`, which the tools reach through their ToolContext); failures here are logged and
// never break a turn.
import { errorMessage } from '../base/errors';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import { ChildFileNews } from '../observe/childFileNews';
import { EditedFiles, type EditedFilesOptions, type FileEvents } from '../observe/editedFiles';
import { InstructionFiles, type InstructionFilesOptions } from '../observe/instructionFiles';
import { SeenTexts } from '../observe/seenTexts';
import { TurnWrites } from '../observe/turnWrites';
import type { Owner } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';
import type { RecordLike } from '../reminders/history';
import type { Skill, Skills } from '../skills/skill';
import { SkillActivations } from '../skills/skillActivations';
import { EditDiagnosticsObserver, type ObserverDiagnostics } from './editDiagnosticsObserver';
import { StepWaits } from './stepWaits';
import type { TurnEvent } from '../reminders/turnEvents';
import { shownBytes } from '../observe/shownBytes';
import type { TouchedFile, ToolResult, ToolTouches, WorkspaceFs } from '../tools/tool';

/** A tool call as the observers hear of it. Its name is for log lines only. */
export interface ObservedCall {
	readonly name: string;
}

/** A call about to run, with the files it declared it will show the model or write. */
export interface DeclaredCall extends ObservedCall {
	readonly touches: ToolTouches;
}

/** What the turn loop tells observers, and when. */
export interface TurnObservers {
	/** Before a tool runs (after any permission was granted). */
	beforeTool(call: DeclaredCall, owner: Owner, signal: AbortSignal): Promise<void>;
	/** After its result is recorded; the result's `touched` says what it actually read and wrote. */
	afterTool(call: ObservedCall, result: ToolResult, owner: Owner, signal: AbortSignal): Promise<void>;
	beforeWait(owner: Owner, signal: AbortSignal): Promise<void>;
	/**
	 * The owner finished: its request's diagnostics baselines end, and an agent invocation's
	 * acknowledgements go with its context (a root turn's belong to the chat and stay).
	 */
	endOwner(owner: Owner): void;
	/**
	 * The chat's root conversation was compacted: what its context was given is now what
	 * `selected` (the history after the compaction point) holds. Returns the path-scoped
	 * instruction files only `summarized` had delivered, for `owner`'s next request.
	 */
	compacted?(owner: Owner, selected: readonly RecordLike[], summarized: readonly RecordLike[]): Promise<TurnEvent | undefined>;
	/**
	 * A restore wrote these files back (src/agent/restore.ts): what the agent saw of them no longer
	 * holds (it must Read again before an Edit), and the restore's own writes are no outside change.
	 */
	restored?(paths: readonly string[]): void;
}

export class SessionObservers extends Disposable implements TurnObservers {
	readonly edited: EditedFiles;
	private readonly instructions: InstructionFiles;
	/** Skills whose `paths` a Read matched (skills.activated); none without skills. */
	private readonly skills: SkillActivations | undefined;
	/** What the agent last saw of each file in this chat: the tools' stale-write guard. */
	readonly seen = new SeenTexts();
	/** The files the chat's latest turn wrote (for edits.verify). */
	readonly writes: TurnWrites;
	private readonly waits: StepWaits;
	/** Edit diagnostics; none when the editor has no diagnostics source. */
	private readonly diagnostics: EditDiagnosticsObserver | undefined;
	private readonly childNews = new ChildFileNews();

	constructor(
		private readonly engine: ReminderEngine,
		private readonly fs: WorkspaceFs,
		events: FileEvents,
		roots: () => readonly string[],
		options: EditedFilesOptions,
		private readonly log: Logger,
		diagnostics?: ObserverDiagnostics,
		skills?: Pick<Skills, 'current'>,
		instructions: InstructionFilesOptions = {},
	) {
		super();
		this.skills = skills && new SkillActivations(skills, roots);
		this.edited = this._register(new EditedFiles(fs, events, { ...options, roots, seen: this.seen }));
		this.instructions = new InstructionFiles(fs, roots, instructions);
		this.writes = new TurnWrites(roots);
		this.waits = new StepWaits(engine, log);
		this.diagnostics = diagnostics && new EditDiagnosticsObserver(diagnostics, fs, this.waits);
	}

	/** Files seen to change and not reported yet. */
	get pendingCount(): number {
		return this.edited.pendingCount;
	}

	/** Before a call that writes: each file's diagnostics as they are (its baseline), with the file open. */
	async beforeTool(call: DeclaredCall, owner: Owner, signal: AbortSignal): Promise<void> {
		if (!this.diagnostics) {
			return;
		}
		// One file at a time, so the files are shown in the order the call named them.
		for (const path of call.touches.writes) {
			try {
				await this.diagnostics.takeBaseline(path, owner, signal);
			} catch (error) {
				this.log.warn(`Aside: no diagnostics baseline for ${path}: ${errorMessage(error)}`);
			}
		}
	}

	async afterTool(call: ObservedCall, result: ToolResult, owner: Owner, signal: AbortSignal): Promise<void> {
		if (result.isError) {
			return;
		}
		for (const file of result.touched ?? []) {
			if (file.access === 'written') {
				// The session's turn, whoever's loop wrote it: an invocation works for the user turn.
				this.writes.note(this.engine.roster.turn, file.path);
			}
			try {
				await (file.access === 'read' ? this.afterRead(file, owner) : file.access === 'deleted' ? this.afterDelete(file) : this.afterWrite(file, owner, signal));
			} catch (error) {
				this.log.warn(`Aside: could not observe ${call.name} of ${file.path}: ${errorMessage(error)}`);
			}
		}
	}

	async beforeWait(owner: Owner, signal: AbortSignal): Promise<void> {
		await this.waits.settled(owner);
		try {
			// A child is told too, without taking the chat's report from the root (childFileNews.ts).
			const changed = owner.kind === 'root' ? await this.edited.prepare(signal) : await this.childNews.prepare(this.edited, owner, signal);
			if (changed) {
				this.engine.queueTurnEvent(owner, changed);
			}
		} catch (error) {
			this.log.warn(`Aside: could not check the files the agent saw: ${errorMessage(error)}`);
		}
	}

	/**
	 * Takes what the chat's root context was already given from the chat's own records (the
	 * subjects of their entries): the instruction files and their content, and the problems of
	 * edited files. A new chat restores from none, a reopened one from its transcript, and
	 * compaction from what it keeps (`compacted`).
	 */
	restore(records: readonly RecordLike[]): void {
		this.instructions.restore(records);
		this.skills?.restore(records);
		this.diagnostics?.restore(records);
	}

	async compacted(owner: Owner, selected: readonly RecordLike[], summarized: readonly RecordLike[]): Promise<TurnEvent | undefined> {
		// The edited-files cache stays: it tracks the files on disk, not what the history holds.
		this.restore(selected);
		try {
			return await this.instructions.redeliver(owner, summarized);
		} catch (error) {
			this.log.warn(`Aside: could not give the project instructions again after compaction: ${errorMessage(error)}`);
			return undefined;
		}
	}

	restored(paths: readonly string[]): void {
		for (const path of paths) {
			this.edited.noteRestored(path);
		}
	}

	/** A skill's body went out to `owner` by `$name` (on dispatch): no Read activates it again. */
	skillGiven(owner: Owner, skill: Skill): void {
		this.skills?.given(owner, skill);
	}

	endOwner(owner: Owner): void {
		this.instructions.forget(owner);
		this.skills?.forget(owner);
		this.childNews.forget(owner);
		this.diagnostics?.endOwner(owner);
	}

	private async afterRead(file: TouchedFile, owner: Owner): Promise<void> {
		const shown = await this.snapshot(file);
		if (!shown) {
			return;
		}
		this.edited.noteRead(file.path, shown.bytes, shown.mtimeMs);
		await this.diagnostics?.afterRead(file.path);
		const discovered = await this.instructions.afterRead(owner, file.path);
		if (discovered) {
			this.engine.queueTurnEvent(owner, discovered);
		}
		const activated = this.skills?.afterRead(owner, file.path);
		if (activated) {
			this.engine.queueTurnEvent(owner, activated);
		}
	}

	/** After a write: wait for the file's diagnostics to settle and queue what the edit changed; keep what Aside wrote. */
	private async afterWrite(file: TouchedFile, owner: Owner, signal: AbortSignal): Promise<void> {
		await this.diagnostics?.afterWrite(file.path, owner, signal);
		const shown = await this.snapshot(file);
		if (shown) {
			this.edited.noteOwnWrite(file.path, shown.bytes, shown.mtimeMs);
		}
	}

	/** Aside's own tool deleted it: no outside change to report, and nothing of it is known any more. */
	private afterDelete(file: TouchedFile): Promise<void> {
		this.edited.noteOwnDelete(file.path);
		return Promise.resolve();
	}

	/** The file as the edited-files cache keeps it (its `shownBytes`, and its mtime); undefined when it is no file now. */
	private async snapshot(file: TouchedFile): Promise<{ readonly bytes: Uint8Array; readonly mtimeMs: number } | undefined> {
		const stat = await this.fs.stat(file.path);
		if (stat?.type !== 'file') {
			return undefined;
		}
		const disk = await this.fs.readFile(file.path);
		// Past the cache's per-file bound only a fingerprint is kept: no need to encode the text.
		return { bytes: disk.length > this.edited.cache.maxFileBytes ? disk : shownBytes(disk, file.text), mtimeMs: stat.mtimeMs };
	}
}
