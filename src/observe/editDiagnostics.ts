// Edit diagnostics: what an edit by Aside's tools did to a file's problems, as one
// `edit.diagnostics` turn event for the model.
//
//   const observer = new EditDiagnostics(source, clock, timers, { displayPath }, telemetry);
//   observer.beforeEdit(requestId, uri);                                 // before writing: baseline (first edit only), watch
//   const event = await observer.afterEdit(requestId, uri, signal, { lines }); // after writing: settle, compare
//   if (event) engine.queueTurnEvent(owner, event);                       // same key: files add up to one event
//   observer.endRequest(requestId);                                        // the request (turn) is over
//
// `beforeEditSettled` replaces `beforeEdit` when the document was only just opened or shown, so
// its language servers have not reported yet. Both start watching the file's diagnostics for the
// edit about to be written: a report that comes during the write and its save counts for the wait
// after it (see waitForSettle). `lines`, the edited file's line count, widens the windows for long
// files (scaleForLines); `justOpened` says the document was opened or shown only after the write
// (a file the edit created), so its language server may still be starting. URIs are compared as strings: pass them exactly as the
// DiagnosticsSource fires them (VS Code: `Uri.toString()`). The first fresh result of a file is
// compared with its baseline (new, changed, pre-existing: see diagnosticsCompare.ts); later edits
// of it in the same request compare with the last fresh result and carry no context section.
// Pre-existing problems the chat was already given unchanged (reportedProblems.ts) are counted,
// not listed again (the event and its text: diagnosticsReport.ts); `restore(records)` takes what
// a reopened chat was given from its records.
// Resolved problems reach telemetry only. Telemetry gets counts, never text or paths.
import type { Clock, Timers } from '../base/clock';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { RecordLike } from '../reminders/history';
import { EDIT_DIAGNOSTICS } from '../reminders/builtin/catalog/files';
import type { TurnEvent } from '../reminders/turnEvents';
import { answersEdit } from './diagnosticsAnswer';
import { compareDiagnostics, severityRank } from './diagnosticsCompare';
import { DEFAULT_FORMAT_OPTIONS, type FormatOptions } from './diagnosticsFormat';
import { DiagnosticsReports, type FileRecord } from './diagnosticsReport';
import type { DiagnosticEntry, DiagnosticSeverity, DiagnosticsSource } from './diagnostics';
import { DEFAULT_SETTLE_OPTIONS, DiagnosticsWatch, scaleForLines, type SettleOptions, type SettleReason, waitForSettle } from './diagnosticsSettle';
import { ReportedProblems } from './reportedProblems';

export interface EditDiagnosticsOptions extends Partial<SettleOptions>, Partial<FormatOptions> {
	/** How the model is shown the file: workspace-relative, as the tools show paths. */
	readonly displayPath: (uri: string) => string;
	/** The grace for a document opened just now, whose language server may still be starting; default 5000. */
	readonly openGraceMs?: number;
	/**
	 * The person's settings as they are now, read at every edit, so a change applies to the next
	 * edit without a new chat; what it gives wins over the fixed values.
	 */
	readonly limits?: () => Partial<SettleOptions> & Partial<FormatOptions>;
	/** The least severe pre-existing problem worth giving as context; default 'warning'. */
	readonly contextMinSeverity?: DiagnosticSeverity;
	readonly log?: Logger;
}

/** What one edit's wait and comparison came to, as counts only. */
export interface EditDiagnosticsCounts {
	readonly new: number;
	readonly changed: number;
	readonly preExisting: number;
	readonly resolved: number;
	/** The wait hit the cap with diagnostics still changing. */
	readonly timedOut: boolean;
	readonly waitedMs: number;
	/** How the wait ended: quiet after a report, the grace without one, or the cap. */
	readonly endedBy: Exclude<SettleReason, 'aborted'>;
}

export type EditDiagnosticsTelemetry = (counts: EditDiagnosticsCounts) => void;

/** What the editor knows about the edited document. */
export interface EditedDocument {
	/** Its line count: longer files get longer windows. */
	readonly lines?: number;
	/** It was opened or shown only after the write: the grace for a document opened just now. */
	readonly justOpened?: boolean;
}

interface FileState {
	/** The baseline, then the last fresh result; a promise while a settled baseline is awaited. */
	reference: Promise<readonly DiagnosticEntry[]>;
	/** The same once it is there, for the checks made while a wait runs. */
	known?: readonly DiagnosticEntry[];
	/** An edit has claimed the one showing of pre-existing problems. */
	contextClaimed: boolean;
	/** The file's diagnostics changes since the edit about to be written (or being written) began. */
	watch?: DiagnosticsWatch;
}

export class EditDiagnostics {
	private readonly requests = new Map<string, Map<string, FileState>>();
	// What the chat was given, across its requests (turns).
	private readonly reported = new ReportedProblems();
	private readonly openGraceMs: number;
	private readonly reports: DiagnosticsReports;

	constructor(
		private readonly source: DiagnosticsSource,
		private readonly clock: Clock,
		private readonly timers: Timers,
		private readonly options: EditDiagnosticsOptions,
		private readonly telemetry?: EditDiagnosticsTelemetry,
	) {
		this.openGraceMs = options.openGraceMs ?? 5000;
		this.reports = new DiagnosticsReports(this.reported, severityRank(options.contextMinSeverity ?? 'warning'), () => this.format);
	}

	/**
	 * Right before an edit is written: on the file's first edit in this request, takes its
	 * diagnostics now as the baseline; on every edit, starts watching them for `afterEdit`.
	 */
	beforeEdit(requestId: string, uri: string): void {
		const files = this.filesOf(requestId);
		let state = files.get(uri);
		if (!state) {
			const known = this.source.get(uri);
			state = { reference: Promise.resolve(known), known, contextClaimed: false };
			files.set(uri, state);
		}
		this.watch(state, uri);
	}

	/**
	 * Like `beforeEdit`, for a document opened or shown just now: waits for its diagnostics to
	 * settle before taking the baseline (cut short, taking what is there, if `signal` aborts).
	 */
	async beforeEditSettled(requestId: string, uri: string, signal?: AbortSignal, document: EditedDocument = {}): Promise<void> {
		const files = this.filesOf(requestId);
		let state = files.get(uri);
		if (state) {
			await state.reference;
		} else {
			// A document opened just now may wait for its language server to start: a longer grace.
			const settled = waitForSettle(this.source, uri, this.settleFor({ ...document, justOpened: true }), this.clock, this.timers, signal);
			const reference = settled.then(() => this.source.get(uri));
			state = { reference, contextClaimed: false };
			files.set(uri, state);
			state.known = await reference;
		}
		// Reports before this moment were about the file as it was: the edit's own begin now.
		if (this.requests.get(requestId)?.get(uri) === state) {
			this.watch(state, uri);
		}
	}

	/**
	 * After an edit was applied: waits for the file's diagnostics to settle and compares them.
	 * Returns the event to queue, or undefined when there is nothing to say (or the wait was
	 * aborted, or the request ended). An event whose body is null means problems were only
	 * resolved: queue it all the same, so that it corrects an older event not yet delivered.
	 */
	async afterEdit(requestId: string, uri: string, signal?: AbortSignal, document: EditedDocument = {}): Promise<TurnEvent | undefined> {
		const state = this.requests.get(requestId)?.get(uri);
		if (!state) {
			this.options.log?.warn('Edit diagnostics: an edit was reported without beforeEdit; no baseline, so nothing is said about it.');
			return undefined;
		}
		// Everything the comparison needs is taken now, before anything awaits.
		const watch = state.watch;
		state.watch = undefined;
		const referencePromise = state.reference;
		const baseline = state.known;
		// Without a baseline yet, no reading counts as the answer: the longer windows hold.
		const answered = (): boolean => baseline !== undefined && answersEdit(baseline, this.source.get(uri));
		const settled = waitForSettle(this.source, uri, this.settleFor(document), this.clock, this.timers, signal, watch, answered);
		const showContext = !state.contextClaimed;
		state.contextClaimed = true;
		const outcome = await settled;
		watch?.dispose();
		const reference = await referencePromise;
		if (outcome.reason === 'aborted' || this.requests.get(requestId)?.get(uri) !== state) {
			if (showContext) {
				state.contextClaimed = false;
			}
			this.options.log?.debug(`Edit diagnostics: stopped waiting after ${outcome.waitedMs} ms (${outcome.reason === 'aborted' ? 'cancelled' : 'request ended'}).`);
			return undefined;
		}
		const fresh = this.source.get(uri);
		state.reference = Promise.resolve(fresh);
		state.known = fresh;
		const timedOut = outcome.reason === 'cap';
		const comparison = compareDiagnostics(reference, fresh);
		this.report({
			new: comparison.added.length,
			changed: comparison.changed.length,
			preExisting: comparison.preExisting.length,
			resolved: comparison.resolved.length,
			timedOut,
			waitedMs: outcome.waitedMs,
			endedBy: outcome.reason,
		});
		const record: FileRecord = {
			uri,
			path: this.options.displayPath(uri),
			reference,
			fresh,
			showContext,
			edits: 1,
			...(timedOut ? { timedOutAfterMs: outcome.waitedMs } : {}),
		};
		const view = this.reports.view(record);
		if (view.toFix.length === 0 && view.context.length === 0 && (view.alreadyReported ?? 0) === 0 && comparison.resolved.length === 0) {
			return undefined;
		}
		return this.reports.event(record);
	}

	/** What the chat was already given, from its records: a reopened chat's, or none for a new one. */
	restore(records: Iterable<RecordLike>): void {
		this.reported.restore(records, EDIT_DIAGNOSTICS.type);
	}

	/** The request is over: forgets its baselines; waits still running for it come to nothing. */
	endRequest(requestId: string): void {
		for (const state of this.requests.get(requestId)?.values() ?? []) {
			state.watch?.dispose();
		}
		this.requests.delete(requestId);
	}

	/** The windows as the settings are now. */
	private get settle(): SettleOptions {
		const live = this.options.limits?.() ?? {};
		return {
			quietMs: live.quietMs ?? this.options.quietMs ?? DEFAULT_SETTLE_OPTIONS.quietMs,
			graceMs: live.graceMs ?? this.options.graceMs ?? DEFAULT_SETTLE_OPTIONS.graceMs,
			capMs: live.capMs ?? this.options.capMs ?? DEFAULT_SETTLE_OPTIONS.capMs,
			answeredQuietMs: live.answeredQuietMs ?? this.options.answeredQuietMs ?? DEFAULT_SETTLE_OPTIONS.answeredQuietMs,
		};
	}

	/** The caps as the settings are now. */
	private get format(): FormatOptions {
		const live = this.options.limits?.() ?? {};
		return {
			maxPerFile: live.maxPerFile ?? this.options.maxPerFile ?? DEFAULT_FORMAT_OPTIONS.maxPerFile,
			maxTotal: live.maxTotal ?? this.options.maxTotal ?? DEFAULT_FORMAT_OPTIONS.maxTotal,
			maxMessageChars: live.maxMessageChars ?? this.options.maxMessageChars ?? DEFAULT_FORMAT_OPTIONS.maxMessageChars,
		};
	}

	/** The windows for one document: wider for a long one, a longer grace for one opened just now. */
	private settleFor(document: EditedDocument): SettleOptions {
		const options = scaleForLines(this.settle, document.lines);
		// A document opened just now may wait for its language server to start.
		return document.justOpened ? { ...options, graceMs: Math.max(options.graceMs, this.openGraceMs) } : options;
	}

	/** One watch per file: an edit that never reached afterEdit (it failed) leaves one to replace. */
	private watch(state: FileState, uri: string): void {
		state.watch?.dispose();
		state.watch = new DiagnosticsWatch(this.source, uri, this.clock);
	}

	private filesOf(requestId: string): Map<string, FileState> {
		let files = this.requests.get(requestId);
		if (!files) {
			files = new Map();
			this.requests.set(requestId, files);
		}
		return files;
	}

	private report(counts: EditDiagnosticsCounts): void {
		try {
			this.telemetry?.(counts);
		} catch (error) {
			this.options.log?.warn(`Edit diagnostics: the telemetry callback failed: ${errorMessage(error)}`);
		}
	}
}
