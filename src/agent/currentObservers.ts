// Making a session's observers (SessionObservers with their edit diagnostics) from the editor's
// ports, the one way: the extension does it for each session that becomes current, and the
// diagnostics bench does it to measure exactly what the product runs.
import type { Clock, Timers } from '../base/clock';
import { errorMessage } from '../base/errors';
import { type HasCurrent, whileCurrent } from '../base/current';
import { Disposable, toDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { DiagnosticsSource } from '../observe/diagnostics';
import { EditDiagnostics, type EditDiagnosticsOptions, type EditDiagnosticsTelemetry } from '../observe/editDiagnostics';
import type { EditedFilesOptions, FileEvents } from '../observe/editedFiles';
import type { InstructionFilesOptions } from '../observe/instructionFiles';
import type { ReminderEngine } from '../reminders/engine';
import type { Skills } from '../skills/skill';
import type { WorkspaceFs } from '../tools/tool';
import type { DocumentOpener } from './editDiagnosticsObserver';
import { SessionObservers } from './observers';
import { rebuildSeenFiles } from './reopenedFiles';
import type { ChatSession } from './session';

/** Edit diagnostics' side of the editor: where problems come from, documents, time, and how they are shown. */
export interface EditDiagnosticsPorts {
	readonly source: DiagnosticsSource;
	readonly documents: DocumentOpener;
	readonly clock: Clock;
	readonly timers: Timers;
	readonly options: EditDiagnosticsOptions;
	/** Counts of each wait and comparison, never text or paths. */
	readonly telemetry?: EditDiagnosticsTelemetry;
	/** `aside.diagnostics.openEditedFiles`, read at each edit. */
	readonly openEditedFiles?: () => boolean;
}

/** What a session's observers are made from. */
export interface ObserverPorts {
	readonly fs: WorkspaceFs;
	readonly fileEvents: FileEvents;
	readonly roots: () => readonly string[];
	readonly editedFiles: EditedFilesOptions;
	readonly log: Logger;
	/** Absent: no edit diagnostics (the edited files and AGENTS.md are still observed). */
	readonly diagnostics?: EditDiagnosticsPorts;
	/** Absent: no skill is activated by a Read. */
	readonly skills?: Pick<Skills, 'current'>;
	/** Which instruction files are read (`aside.instructions.files`), and where a malformed one is told of. */
	readonly instructions?: InstructionFilesOptions;
}

/** The observers of one session's engine. */
export function createSessionObservers(engine: ReminderEngine, ports: ObserverPorts): SessionObservers {
	const { diagnostics } = ports;
	return new SessionObservers(
		engine,
		ports.fs,
		ports.fileEvents,
		ports.roots,
		ports.editedFiles,
		ports.log,
		diagnostics && {
			observer: new EditDiagnostics(diagnostics.source, diagnostics.clock, diagnostics.timers, diagnostics.options, diagnostics.telemetry),
			documents: diagnostics.documents,
			...(diagnostics.openEditedFiles ? { openEditedFiles: diagnostics.openEditedFiles } : {}),
		},
		ports.skills,
		ports.instructions,
	);
}

/** The observers of whichever session is current: made when it becomes current, disposed when another does. */
export class CurrentObservers extends Disposable {
	private observers: SessionObservers | undefined;
	private rebuilt: Promise<number> = Promise.resolve(0);

	constructor(sessions: HasCurrent<ChatSession>, ports: ObserverPorts) {
		super();
		this._register(whileCurrent(sessions, (session) => {
			const observers = createSessionObservers(session.reminders, ports);
			// A reopened chat was given files and problems already: its records say which (those
			// its requests still replay, after the compaction point).
			observers.restore(session.selectedRecords);
			// And what it saw of each file: the stale-write guard and the edited-files cache.
			this.rebuilt = rebuildSeenFiles(session.records, observers, ports.fs, ports.roots(), ports.log).catch((error: unknown) => {
				ports.log.warn(`Aside: could not restore what the reopened chat saw of its files: ${errorMessage(error)}`);
				return 0;
			});
			this.observers = observers;
			return toDisposable(() => {
				observers.dispose();
				this.observers = undefined;
			});
		}));
	}

	/** Settles when the current session's files were restored from its records (how many were). */
	get filesRestored(): Promise<number> {
		return this.rebuilt;
	}

	/** The current session's observers; undefined once disposed. */
	get current(): SessionObservers | undefined {
		return this.observers;
	}
}
