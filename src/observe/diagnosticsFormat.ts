// The body of an `edit.diagnostics` turn event: per edited file, the problems to fix (new or
// changed) first, then those already there (context only), each list sorted by severity; at
// most `maxPerFile` lines per file and `maxTotal` in all (problems to fix win the budget), with
// one aggregate line for the rest. Pre-existing problems the chat was already given unchanged
// are only counted. Everything from a language server is outside text.
import { sanitizeUntrusted } from '../reminders/envelope';
import { severityRank } from './diagnosticsCompare';
import type { DiagnosticEntry, DiagnosticSeverity } from './diagnostics';
import { plural } from '../base/words';

export interface ListedDiagnostic {
	readonly entry: DiagnosticEntry;
	/** It replaced a diagnostic at the same place (see diagnosticsCompare.ts). */
	readonly changed: boolean;
}

export interface FileDiagnosticsReport {
	/** Workspace-relative, as the tools show it. */
	readonly path: string;
	/** How many edits the report covers: 1, or more once merged. */
	readonly edits: number;
	/** Set when the wait hit its cap: diagnostics were still changing after this many ms. */
	readonly timedOutAfterMs?: number;
	/** New or changed: work to fix. */
	readonly toFix: readonly ListedDiagnostic[];
	/** Already there before the first edit: context only. */
	readonly context: readonly DiagnosticEntry[];
	/** Also there before the first edit, and already given to the model unchanged: counted, not listed. */
	readonly alreadyReported?: number;
}

/** A body and, per report (in the order given), the problems it lists. */
export interface PlannedDiagnosticsBody {
	readonly body: string | null;
	readonly listed: readonly (readonly DiagnosticEntry[])[];
}

export interface FormatOptions {
	readonly maxPerFile: number;
	readonly maxTotal: number;
	/** Longer messages are cut with an ellipsis. */
	readonly maxMessageChars: number;
}

export const DEFAULT_FORMAT_OPTIONS: FormatOptions = { maxPerFile: 10, maxTotal: 30, maxMessageChars: 400 };

const SEVERITY_TEXT: Record<DiagnosticSeverity, string> = { error: 'error', warning: 'warning', information: 'info', hint: 'hint' };

/** Most severe first, then by position; stable otherwise. */
export function sortBySeverity<T>(items: readonly T[], entryOf: (item: T) => DiagnosticEntry): T[] {
	return [...items].sort((a, b) => {
		const x = entryOf(a);
		const y = entryOf(b);
		return severityRank(x.severity) - severityRank(y.severity) ||
			x.range.start.line - y.range.start.line ||
			x.range.start.character - y.range.start.character;
	});
}

function codeText(entry: DiagnosticEntry): string | undefined {
	if (entry.code === undefined || entry.code === '') {
		return undefined;
	}
	// TypeScript's numeric codes read as the compiler prints them, the form models know best.
	return entry.source === 'ts' && /^\d+$/.test(entry.code) ? `TS${entry.code}` : entry.code;
}

function messageText(message: string, maxChars: number): string {
	const trimmed = message.trim();
	const cut = trimmed.length > maxChars ? `${trimmed.slice(0, maxChars).trimEnd()}…` : trimmed;
	// Continuation lines (TypeScript's elaborations) stay indented under their problem; the
	// sanitizer runs last so that no later change can put a marker back together.
	return sanitizeUntrusted(cut.replace(/\r?\n\s*/g, '\n    '));
}

/** One problem, e.g. `error TS2322 (ts) at 4:8: Type 'string' is not assignable…` (1-based). */
export function formatDiagnosticLine(entry: DiagnosticEntry, changed: boolean, maxMessageChars = DEFAULT_FORMAT_OPTIONS.maxMessageChars): string {
	const code = codeText(entry);
	const parts = [SEVERITY_TEXT[entry.severity]];
	if (code !== undefined) {
		parts.push(sanitizeUntrusted(code));
	}
	if (entry.source) {
		parts.push(`(${sanitizeUntrusted(entry.source)})`);
	}
	const { line, character } = entry.range.start;
	parts.push(`at ${line + 1}:${character + 1}${changed ? ' (changed)' : ''}:`);
	return `${parts.join(' ')} ${messageText(entry.message, maxMessageChars)}`;
}

function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

/** Takes up to `budget.left` items, spending the shared budget. */
function take<T>(items: readonly T[], budget: { left: number }): T[] {
	const taken = items.slice(0, Math.max(0, budget.left));
	budget.left -= taken.length;
	return taken;
}

function speaks(report: FileDiagnosticsReport): boolean {
	return report.toFix.length > 0 || report.context.length > 0 || (report.alreadyReported ?? 0) > 0;
}

/** The event body for these reports, or null when none has anything to say. */
export function formatDiagnosticsBody(reports: readonly FileDiagnosticsReport[], options: FormatOptions = DEFAULT_FORMAT_OPTIONS): string | null {
	return planDiagnosticsBody(reports, options).body;
}

/** The body, and which problems it lists (within the caps), so that a delivery can remember them. */
export function planDiagnosticsBody(reports: readonly FileDiagnosticsReport[], options: FormatOptions = DEFAULT_FORMAT_OPTIONS): PlannedDiagnosticsBody {
	const speaking = reports.filter(speaks);
	const listed = new Map<FileDiagnosticsReport, DiagnosticEntry[]>();
	const plan = (body: string | null): PlannedDiagnosticsBody => ({ body, listed: reports.map((report) => listed.get(report) ?? []) });
	if (speaking.length === 0) {
		return plan(null);
	}
	const perFile = speaking.map((report) => {
		const toFix = sortBySeverity(report.toFix, (item) => item.entry).slice(0, options.maxPerFile);
		const context = sortBySeverity(report.context, (entry) => entry).slice(0, Math.max(0, options.maxPerFile - toFix.length));
		return { report, toFix, context };
	});
	// Problems to fix take the total budget before any context does.
	const budget = { left: options.maxTotal };
	const shownToFix = perFile.map((file) => take(file.toFix, budget));
	const shownContext = perFile.map((file) => take(file.context, budget));

	const sections: string[] = [];
	let omittedToFix = 0;
	let omittedContext = 0;
	perFile.forEach(({ report }, index) => {
		const toFix = shownToFix[index] ?? [];
		const context = shownContext[index] ?? [];
		omittedToFix += report.toFix.length - toFix.length;
		omittedContext += report.context.length - context.length;
		listed.set(report, [...toFix.map(({ entry }) => entry), ...context]);
		const path = sanitizeUntrusted(report.path);
		const edit = report.edits === 1 ? 'your edit' : `your ${report.edits} edits`;
		const lines: string[] = [];
		if (report.timedOutAfterMs !== undefined) {
			lines.push(`Diagnostics of ${path} were still changing ${seconds(report.timedOutAfterMs)} after ${edit}; these are as they stood then.`);
		}
		lines.push(report.toFix.length === 0 ? `After ${edit} of ${path}, no new problems.` : `After ${edit} of ${path}, ${plural(report.toFix.length, 'new problem')}:`);
		lines.push(...toFix.map(({ entry, changed }) => `  ${formatDiagnosticLine(entry, changed, options.maxMessageChars)}`));
		if (context.length > 0) {
			lines.push(`Already there before ${edit} (context only):`);
			lines.push(...context.map((entry) => `  ${formatDiagnosticLine(entry, false, options.maxMessageChars)}`));
		}
		if ((report.alreadyReported ?? 0) > 0) {
			lines.push(`${plural(report.alreadyReported ?? 0, 'problem')} already reported, unchanged.`);
		}
		sections.push(lines.join('\n'));
	});
	const omitted = omittedToFix + omittedContext;
	if (omitted > 0) {
		sections.push(`${plural(omitted, 'more problem')} not listed (${omittedToFix} new, ${omittedContext} already there).`);
	}
	// Each piece was quoted safely; one last pass costs nothing and covers their joins too.
	return plan(sanitizeUntrusted(sections.join('\n\n')));
}
