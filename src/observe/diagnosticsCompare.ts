// Comparing a file's diagnostics after an edit with a reference taken before it.
//
// Identity is severity + message + code + source; the range is not part of it. A diagnostic
// whose identity was already there, at another range, is pre-existing: an edit above a problem
// moves it, and calling it new would send the model to fix what it did not cause. The cost: an
// edit that removes one problem and adds an identical one elsewhere reports neither.
// A diagnostic with no identity match but the same source, code and start as one that is gone
// (a message that now names another type, a warning that became an error) is "changed": work
// to fix, like a new one. Identical diagnostics are counted, so a second copy of a message
// that was there once is new.
import type { DiagnosticEntry, DiagnosticSeverity, DiagnosticPosition } from './diagnostics';

export interface DiagnosticsComparison {
	/** Not there before, by identity: work to fix. */
	readonly added: readonly DiagnosticEntry[];
	/** Took the place of one that is gone (same source, code and start): work to fix. */
	readonly changed: readonly DiagnosticEntry[];
	/** There before, by identity (possibly moved): context only. */
	readonly preExisting: readonly DiagnosticEntry[];
	/** Gone since the reference (those replaced by a changed one excepted). */
	readonly resolved: readonly DiagnosticEntry[];
}

export const SEVERITY_ORDER: readonly DiagnosticSeverity[] = ['error', 'warning', 'information', 'hint'];

export function severityRank(severity: DiagnosticSeverity): number {
	return SEVERITY_ORDER.indexOf(severity);
}

/** What makes two diagnostics the same problem, wherever they are: severity, message, code, source. */
export function identity(entry: DiagnosticEntry): string {
	return JSON.stringify([entry.severity, entry.message, entry.code ?? null, entry.source ?? null]);
}

function samePosition(a: DiagnosticPosition, b: DiagnosticPosition): boolean {
	return a.line === b.line && a.character === b.character;
}

function distance(a: DiagnosticEntry, b: DiagnosticEntry): number {
	// Lines first, characters break ties: a problem moved by an edit usually shifts by lines.
	return Math.abs(a.range.start.line - b.range.start.line) * 1_000_000 + Math.abs(a.range.start.character - b.range.start.character);
}

/** Splits `fresh` against `reference`; every entry of either lands in exactly one list. */
export function compareDiagnostics(reference: readonly DiagnosticEntry[], fresh: readonly DiagnosticEntry[]): DiagnosticsComparison {
	// Indices, not objects: the same entry object may legitimately appear twice.
	const unmatched = new Set(reference.keys());
	const byIdentity = new Map<string, number[]>();
	reference.forEach((entry, index) => {
		const key = identity(entry);
		byIdentity.set(key, [...(byIdentity.get(key) ?? []), index]);
	});
	const at = (index: number): DiagnosticEntry => reference[index] as DiagnosticEntry;
	const candidates = (entry: DiagnosticEntry): number[] => (byIdentity.get(identity(entry)) ?? []).filter((index) => unmatched.has(index));

	const matched = new Set<number>();
	// Unmoved copies first, so that a moved duplicate cannot take a stationary one's partner.
	fresh.forEach((entry, freshIndex) => {
		const same = candidates(entry).find(
			(index) => samePosition(at(index).range.start, entry.range.start) && samePosition(at(index).range.end, entry.range.end),
		);
		if (same !== undefined) {
			unmatched.delete(same);
			matched.add(freshIndex);
		}
	});
	fresh.forEach((entry, freshIndex) => {
		if (matched.has(freshIndex)) {
			return;
		}
		const nearest = candidates(entry).sort((a, b) => distance(at(a), entry) - distance(at(b), entry))[0];
		if (nearest !== undefined) {
			unmatched.delete(nearest);
			matched.add(freshIndex);
		}
	});

	const changed: DiagnosticEntry[] = [];
	const added: DiagnosticEntry[] = [];
	fresh.forEach((entry, freshIndex) => {
		if (matched.has(freshIndex)) {
			return;
		}
		const replaced = [...unmatched].find(
			(index) => at(index).source === entry.source && at(index).code === entry.code && samePosition(at(index).range.start, entry.range.start),
		);
		if (replaced === undefined) {
			added.push(entry);
		} else {
			unmatched.delete(replaced);
			changed.push(entry);
		}
	});
	return {
		added,
		changed,
		preExisting: fresh.filter((_entry, index) => matched.has(index)),
		resolved: reference.filter((_entry, index) => unmatched.has(index)),
	};
}
