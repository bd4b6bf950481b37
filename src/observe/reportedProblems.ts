// What a chat was told of each file's problems: the diagnostics the model was given (listed as
// new, or as context) that were still there at the last report it received, by identity (as
// diagnosticsCompare sees it: severity, message, code, source; not the range), counted. A later
// edit then counts pre-existing problems the model already has instead of listing them again.
// Changed only when a report is delivered; restored from the subjects of the chat's own records.
import { createHash } from 'node:crypto';
import type { ReminderSubject } from '../reminders/definition';
import { deliveredSubjects, type RecordLike } from '../reminders/history';
import { identity } from './diagnosticsCompare';
import type { DiagnosticEntry } from './diagnostics';

/** A diagnostic's identity as a short hash: what records keep, never the message itself. */
export function problemHash(entry: DiagnosticEntry): string {
	return createHash('sha256').update(identity(entry)).digest('hex').slice(0, 16);
}

function countOf(hashes: Iterable<string>): Map<string, number> {
	const counts = new Map<string, number>();
	for (const hash of hashes) {
		counts.set(hash, (counts.get(hash) ?? 0) + 1);
	}
	return counts;
}

export class ReportedProblems {
	// By document URI: problem hash → how many such problems the model knows of.
	private readonly files = new Map<string, Map<string, number>>();

	/** Splits pre-existing problems of `uri` into those the chat was not given and the count of those it was. */
	split(uri: string, entries: readonly DiagnosticEntry[]): { readonly unreported: DiagnosticEntry[]; readonly reported: number } {
		const left = new Map(this.files.get(uri) ?? []);
		const unreported: DiagnosticEntry[] = [];
		let reported = 0;
		for (const entry of entries) {
			const hash = problemHash(entry);
			const count = left.get(hash) ?? 0;
			if (count > 0) {
				left.set(hash, count - 1);
				reported++;
			} else {
				unreported.push(entry);
			}
		}
		return { unreported, reported };
	}

	/**
	 * What the chat will know of `uri` once a report listing `listed` of its problems `fresh` is
	 * delivered: what it knew that is still there, and what the report lists (never more of one
	 * problem than there are). As a subject for the record.
	 */
	after(uri: string, fresh: readonly DiagnosticEntry[], listed: readonly DiagnosticEntry[]): ReminderSubject {
		const known = new Map(this.files.get(uri) ?? []);
		for (const [hash, count] of countOf(listed.map(problemHash))) {
			known.set(hash, (known.get(hash) ?? 0) + count);
		}
		const hashes: string[] = [];
		for (const [hash, count] of countOf(fresh.map(problemHash))) {
			hashes.push(...Array<string>(Math.min(count, known.get(hash) ?? 0)).fill(hash));
		}
		return { ref: uri, hashes };
	}

	/** A report was delivered: the chat knows this of the file now. */
	learn(subject: ReminderSubject): void {
		if (subject.hashes.length === 0) {
			this.files.delete(subject.ref);
		} else {
			this.files.set(subject.ref, countOf(subject.hashes));
		}
	}

	/** Replaces what the chat knows with what `records` show it was given (none for a new chat). */
	restore(records: Iterable<RecordLike>, type: string): void {
		this.files.clear();
		for (const subjects of deliveredSubjects(records, type)) {
			for (const subject of subjects) {
				this.learn(subject);
			}
		}
	}
}
