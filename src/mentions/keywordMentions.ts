// The keyword mentions, which name the editor's or the repository's state rather than a path:
// `@problems`, `@selection` and `@changes`, each read through its port at send time and bounded by
// the limits. Apart from path mentions: nothing here resolves a path or is given only once.
import { formatDiagnosticLine, sortBySeverity } from '../observe/diagnosticsFormat';
import { type ChangesResult, mentionedChanges, mentionedProblems, mentionedSelection } from '../reminders/builtin/mentions';
import type { StagedEntry } from '../reminders/definition';
import { displayPath } from '../tools/paths';
import { splitLines, truncateUtf8, utf8Length } from '../tools/text';
import { takeLines, type MentionLimits } from './limits';
import type { EditorSelection, FileProblems } from './ports';

/** `@problems`: errors then warnings, files with errors first, at most `maxProblems` in all. */
export function problemsMention(problems: readonly FileProblems[], roots: readonly string[], limits: MentionLimits): StagedEntry {
	const files = problems
		.map((file) => ({ file, entries: sortBySeverity(file.entries.filter((entry) => entry.severity === 'error' || entry.severity === 'warning'), (entry) => entry) }))
		.filter(({ entries }) => entries.length > 0)
		.sort((a, b) => Number(b.entries[0]?.severity === 'error') - Number(a.entries[0]?.severity === 'error') || a.file.path.localeCompare(b.file.path));
	const all = files.flatMap(({ entries }) => entries);
	let left = limits.maxProblems;
	const listed = [];
	for (const { file, entries } of files) {
		const taken = entries.slice(0, Math.max(0, left));
		left -= taken.length;
		if (taken.length > 0) {
			listed.push({ shown: displayPath(file.path, roots), lines: taken.map((entry) => formatDiagnosticLine(entry, false)) });
		}
	}
	const errors = all.filter((entry) => entry.severity === 'error').length;
	return mentionedProblems({ files: listed, errors, warnings: all.length - errors, omitted: Math.max(0, all.length - limits.maxProblems) });
}

/** `@selection`: the editor's selected lines, bounded like a file. */
export function selectionMention(selection: EditorSelection | undefined, roots: readonly string[], limits: MentionLimits): StagedEntry {
	if (selection === undefined || selection.text === '') {
		return mentionedSelection(undefined);
	}
	const lines = splitLines(selection.text);
	const taken = takeLines(lines, 1, lines.length, limits);
	return mentionedSelection({
		shown: displayPath(selection.path, roots),
		first: selection.startLine,
		last: selection.endLine,
		text: taken.text,
		cut: taken.last < lines.length,
	});
}

/** `@changes`: each repository's working-tree diff, `maxDiffBytes` for all of them together. */
export function changesMention(result: ChangesResult, roots: readonly string[], limits: MentionLimits): StagedEntry {
	if (result.kind === 'unavailable') {
		return mentionedChanges(result);
	}
	let left = limits.maxDiffBytes;
	const repositories = result.repositories.map((repository) => {
		const diff = truncateUtf8(repository.diff, Math.max(0, left));
		left -= utf8Length(diff);
		return { ...repository, root: displayPath(repository.root, roots), diff, cut: repository.cut || diff.length < repository.diff.length };
	});
	return mentionedChanges({ kind: 'diff', repositories });
}
