// Whether a file's diagnostics, as they stand after an edit, are the language server's answer
// for the edited text or may be one phase of it. The TypeScript server reports a file in
// phases, and VS Code fires a change for each: syntax errors first, then the semantic check
// (for a visible long file its visible lines first, keeping the old problems elsewhere), then
// suggestions. A report that leaves the problems as they were, or changes only syntax errors,
// says nothing about the semantic check still running; one that changes any other problem is
// that check's answer, and only suggestions may follow.
import type { DiagnosticEntry } from './diagnostics';

/** What tells two problems apart for this purpose: severity, source, code, message, range. */
function identity(entry: DiagnosticEntry): string {
	const { start, end } = entry.range;
	return `${entry.severity}|${entry.source ?? ''}|${entry.code ?? ''}|${start.line}:${start.character}-${end.line}:${end.character}|${entry.message}`;
}

/**
 * A syntax error of the TypeScript server (codes 1000–1999, and 17000–17999 for JSX), which
 * comes a phase before the semantic check. Other servers' problems are never taken for one.
 */
export function isSyntaxPhase(entry: DiagnosticEntry): boolean {
	if (entry.source !== 'ts' && entry.source !== 'js') {
		return false;
	}
	const code = Number(entry.code);
	return (code >= 1000 && code < 2000) || (code >= 17000 && code < 18000);
}

/**
 * Whether `now` differs from `before` in a problem that is neither a syntax error nor a hint
 * (suggestions come last, after the answer): the semantic check of the edited text has reported.
 */
export function answersEdit(before: readonly DiagnosticEntry[], now: readonly DiagnosticEntry[]): boolean {
	const counts = new Map<string, { readonly entry: DiagnosticEntry; count: number }>();
	for (const entry of before) {
		const key = identity(entry);
		const known = counts.get(key);
		counts.set(key, { entry, count: (known?.count ?? 0) + 1 });
	}
	for (const entry of now) {
		const key = identity(entry);
		const known = counts.get(key);
		counts.set(key, { entry, count: (known?.count ?? 0) - 1 });
	}
	for (const { entry, count } of counts.values()) {
		if (count !== 0 && entry.severity !== 'hint' && !isSyntaxPhase(entry)) {
			return true;
		}
	}
	return false;
}
