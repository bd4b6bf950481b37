// What edit diagnostics tell the model: one file's comparison as a record, and the records of one
// request's edits as one `edit.diagnostics` turn event (an accumulating kind: a second edit of a
// file before delivery folds into its record, other files add theirs, in the order first edited).
// Pre-existing problems the chat was already given unchanged are counted, not listed again.
import { EDIT_DIAGNOSTICS } from '../reminders/builtin/catalog/files';
import { entryOf } from '../reminders/declaration';
import { AccumulatingKind, type Rendering, type TurnEvent } from '../reminders/turnEvents';
import { compareDiagnostics, severityRank } from './diagnosticsCompare';
import { type FileDiagnosticsReport, type FormatOptions, planDiagnosticsBody } from './diagnosticsFormat';
import type { DiagnosticEntry } from './diagnostics';
import type { ReportedProblems } from './reportedProblems';
import { plural } from '../base/words';

/** One file's comparison as an event holds it, so that a later edit of it can compare again. */
export interface FileRecord {
	readonly uri: string;
	readonly path: string;
	readonly reference: readonly DiagnosticEntry[];
	readonly fresh: readonly DiagnosticEntry[];
	readonly showContext: boolean;
	readonly edits: number;
	readonly timedOutAfterMs?: number;
}

/** A second edit of a file before delivery: from the state the older record started from to the newest result, so fixed problems drop out. */
function mergeRecords(old: FileRecord, record: FileRecord): FileRecord {
	return { ...record, reference: old.reference, showContext: old.showContext, edits: old.edits + record.edits };
}

export class DiagnosticsReports {
	private readonly kind: AccumulatingKind<FileRecord>;

	constructor(
		/** What the chat was given, across its requests (turns); learns in the event's commit. */
		private readonly reported: ReportedProblems,
		/** The least severe pre-existing problem worth giving as context, as a severity rank. */
		private readonly contextRank: number,
		/** The caps as the settings are now. */
		private readonly format: () => FormatOptions,
	) {
		this.kind = new AccumulatingKind<FileRecord>(entryOf(EDIT_DIAGNOSTICS), {
			identity: (record) => record.uri,
			replace: mergeRecords,
			render: (records) => this.render(records),
		});
	}

	/** The event for one edit's record. */
	event(record: FileRecord): TurnEvent {
		return this.kind.event([record]);
	}

	/** What the record says of its file: problems to fix, context, and the count already reported. */
	view(record: FileRecord): FileDiagnosticsReport {
		const { added, changed, preExisting } = compareDiagnostics(record.reference, record.fresh);
		const context = record.showContext
			? this.reported.split(
					record.uri,
					preExisting.filter((entry) => severityRank(entry.severity) <= this.contextRank),
				)
			: { unreported: [], reported: 0 };
		return {
			path: record.path,
			edits: record.edits,
			...(record.timedOutAfterMs === undefined ? {} : { timedOutAfterMs: record.timedOutAfterMs }),
			toFix: [...added.map((entry) => ({ entry, changed: false })), ...changed.map((entry) => ({ entry, changed: true }))],
			context: context.unreported,
			...(context.reported > 0 ? { alreadyReported: context.reported } : {}),
		};
	}

	private render(records: readonly FileRecord[]): Rendering {
		const views = records.map((record) => this.view(record));
		const toFix = views.reduce((sum, view) => sum + view.toFix.length, 0);
		const speaking = views.filter((view) => view.toFix.length > 0 || view.context.length > 0 || (view.alreadyReported ?? 0) > 0).length;
		const { body, listed } = planDiagnosticsBody(views, this.format());
		// What the chat will know of each file once this is delivered; recorded for a reopen.
		const subjects = records.map((record, index) => this.reported.after(record.uri, record.fresh, listed[index] ?? []));
		return {
			body,
			subjects,
			commit: () => {
				for (const subject of subjects) {
					this.reported.learn(subject);
				}
			},
			reason:
				toFix > 0
					? `${plural(toFix, 'new problem')} in ${plural(speaking, 'edited file')}`
					: speaking > 0
						? `problems already in ${plural(speaking, 'edited file')}`
						: 'an edit resolved problems',
		};
	}
}
