// The entries of `@`-mentions (src/mentions/expand.ts finds and reads what they name): one per
// mention, in the mention stage, typed `mention.<kind>`. Everything from outside — file text,
// paths, diffs, problem messages — is quoted neutralised; the user's own text is never repeated.
import { entryOf, type ReminderDeclaration } from '../declaration';
import type { ReminderSubject, StagedEntry } from '../definition';
import { sanitizeUntrusted } from '../envelope';
import { MENTION_CHANGES, MENTION_FILE, MENTION_FOLDER, MENTION_PROBLEMS, MENTION_SELECTION } from './catalog/mentions';
import { plural } from '../../base/words';

function entry(declaration: ReminderDeclaration, reason: string, body: string, subjects?: readonly ReminderSubject[]): StagedEntry {
	return { ...entryOf(declaration), reason, body, ...(subjects ? { subjects } : {}) };
}

/** Fenced so the model sees where outside text starts and ends (a longer fence when the text holds one). */
export function fenced(text: string): string {
	const longest = Math.max(2, ...[...text.matchAll(/`{3,}/gu)].map((match) => match[0].length));
	const fence = '`'.repeat(longest + 1);
	return `${fence}\n${sanitizeUntrusted(text)}${text.endsWith('\n') || text === '' ? '' : '\n'}${fence}`;
}

export interface FileContent {
	/** As the tools show paths. */
	readonly shown: string;
	readonly text: string;
	/** The lines shown, 1-based inclusive, and the file's line count. */
	readonly first: number;
	readonly last: number;
	readonly total: number;
	/** A range the user asked for (shown as asked, clipped to the file). */
	readonly asked?: { readonly start: number; readonly end: number };
	/** Cut at the attachment's bound before the lines asked for ended. */
	readonly cut: boolean;
	readonly subject: ReminderSubject;
}

export function mentionedFile(file: FileContent): StagedEntry {
	const path = sanitizeUntrusted(file.shown);
	const lines = file.total === 0 ? 'the file is empty' : `lines ${file.first}–${file.last} of ${file.total}`;
	const notes: string[] = [];
	if (file.cut) {
		notes.push(`The attachment stops at line ${file.last}, its size bound. Read the rest with ranged Reads (Read with path "${path}" and offset=${file.last + 1}, a limit at a time) rather than the whole file at once.`);
	} else if (file.asked && file.asked.end > file.total) {
		notes.push(`Lines ${file.asked.start}–${file.asked.end} were asked for; the file ends at line ${file.total}.`);
	}
	const body = [`The user mentioned ${path} (${lines}). Its content, as of this message:`, fenced(file.text), ...notes].join('\n\n');
	return entry(MENTION_FILE, 'you mentioned a file', body, [file.subject]);
}

export interface PdfContent {
	readonly shown: string;
	/** The pages' text, each under a `--- page N ---` line, bounded. */
	readonly text: string;
	/** The pages shown, 1-based inclusive, and the PDF's page count. */
	readonly first: number;
	readonly last: number;
	readonly pageCount: number;
	/** Cut at the attachment's bound inside page `last`. */
	readonly cut: boolean;
	/** None of the pages shown has extractable text (a scanned PDF). */
	readonly noText: boolean;
	readonly subject: ReminderSubject;
}

/** A PDF's text; when it is large, the seed's guidance to Read bounded page ranges rather than all of it. */
export function mentionedPdf(pdf: PdfContent): StagedEntry {
	const path = sanitizeUntrusted(pdf.shown);
	const pages = pdf.first === pdf.last ? `page ${pdf.first}` : `pages ${pdf.first}–${pdf.last}`;
	const notes: string[] = [];
	if (pdf.noText) {
		notes.push(`The pages shown have no extractable text: the PDF is probably scanned images, which cannot be turned into text here.`);
	}
	if (pdf.cut || pdf.last < pdf.pageCount) {
		const next = pdf.cut ? pdf.last : pdf.last + 1;
		notes.push(
			`The attachment stops ${pdf.cut ? `inside page ${pdf.last}` : `after page ${pdf.last}`}, its size bound. It is a large PDF: prefer bounded Reads of the pages you need (Read with path "${path}" and pages: "START-END", e.g. pages: "${next}-${Math.min(pdf.pageCount, next + 9)}") rather than the whole document at once.`,
		);
	}
	const body = [`The user mentioned the PDF ${path} (${pages} of ${pdf.pageCount}). Its text, as of this message:`, fenced(pdf.text), ...notes].join('\n\n');
	return entry(MENTION_FILE, 'you mentioned a PDF', body, [pdf.subject]);
}

export function fileAlreadyInContext(shown: string, lines?: string): StagedEntry {
	const what = lines === undefined ? sanitizeUntrusted(shown) : `${sanitizeUntrusted(shown)} (${lines})`;
	return entry(MENTION_FILE, 'you mentioned a file already given', `The user mentioned ${what} again. It is already in context, unchanged, from an earlier message of this chat; it is not attached again.`);
}

/** Why a mention attaches nothing: a sentence that completes "is not attached: …". */
export function fileRejected(raw: string, why: string): StagedEntry {
	return entry(MENTION_FILE, 'you mentioned a file that could not be attached', `The user mentioned ${sanitizeUntrusted(raw)}, which is not attached: ${sanitizeUntrusted(why)}`);
}

export interface FolderListing {
	readonly shown: string;
	/** Names, a folder's with a trailing `/`, folders first. */
	readonly names: readonly string[];
	/** Entries left out past the bound. */
	readonly omitted: number;
}

export function mentionedFolder(listing: FolderListing): StagedEntry {
	const path = sanitizeUntrusted(listing.shown);
	const lines = listing.names.length === 0 ? '(empty)' : listing.names.map((name) => sanitizeUntrusted(name)).join('\n');
	const more = listing.omitted > 0 ? `\n\n${listing.omitted} more entries are not listed; use List or Glob for them.` : '';
	return entry(MENTION_FOLDER, 'you mentioned a folder', `The user mentioned the folder ${path}. Its entries:\n\n${lines}${more}`);
}

export function folderRejected(raw: string, why: string): StagedEntry {
	return entry(MENTION_FOLDER, 'you mentioned a folder that could not be listed', `The user mentioned ${sanitizeUntrusted(raw)}, which is not listed: ${sanitizeUntrusted(why)}`);
}

export interface ProblemsReport {
	/** Per file (as shown), its formatted problem lines, errors first. */
	readonly files: readonly { readonly shown: string; readonly lines: readonly string[] }[];
	readonly errors: number;
	readonly warnings: number;
	/** Problems past the cap, counted. */
	readonly omitted: number;
}

export function mentionedProblems(report: ProblemsReport): StagedEntry {
	if (report.files.length === 0) {
		return entry(MENTION_PROBLEMS, 'you mentioned @problems', 'The user mentioned @problems: the workspace has no errors or warnings right now.');
	}
	const sections = report.files.map((file) => `${sanitizeUntrusted(file.shown)}:\n${file.lines.map((line) => `  ${line}`).join('\n')}`);
	const more = report.omitted > 0 ? `\n\n${report.omitted} more not listed.` : '';
	return entry(MENTION_PROBLEMS, 'you mentioned @problems', `The user mentioned @problems. The workspace's current problems (${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}):\n\n${sections.join('\n\n')}${more}`);
}

export interface SelectionContent {
	readonly shown: string;
	readonly first: number;
	readonly last: number;
	readonly text: string;
	readonly cut: boolean;
}

export function mentionedSelection(selection: SelectionContent | undefined): StagedEntry {
	if (selection === undefined) {
		return entry(MENTION_SELECTION, 'you mentioned @selection', 'The user mentioned @selection, but no editor has a selection right now: nothing is attached.');
	}
	const path = sanitizeUntrusted(selection.shown);
	const cut = selection.cut ? '\n\nThe selection is longer; only its start is shown. Read the file for the rest.' : '';
	return entry(MENTION_SELECTION, 'you mentioned @selection', `The user mentioned @selection: lines ${selection.first}–${selection.last} of ${path}, as selected in the editor:\n\n${fenced(selection.text)}${cut}`);
}

/** What the git extension answered for the working tree. */
export type ChangesResult =
	| { readonly kind: 'diff'; readonly repositories: readonly { readonly root: string; readonly diff: string; readonly cut: boolean; readonly untracked?: readonly string[] }[] }
	| { readonly kind: 'unavailable'; readonly why: string };

export function mentionedChanges(result: ChangesResult): StagedEntry {
	if (result.kind === 'unavailable') {
		return entry(MENTION_CHANGES, 'you mentioned @changes', `The user mentioned @changes, but there is no diff to attach: ${sanitizeUntrusted(result.why)}`);
	}
	const changed = result.repositories.filter((repository) => repository.diff.trim() !== '' || (repository.untracked ?? []).length > 0);
	if (changed.length === 0) {
		return entry(MENTION_CHANGES, 'you mentioned @changes', 'The user mentioned @changes: the working tree has no uncommitted changes to tracked files.');
	}
	const sections = changed.map((repository) => {
		const cut = repository.cut ? '\n\nThe diff is longer; only its start is shown. Run `git diff` for the rest.' : '';
		const untracked = (repository.untracked ?? []).length > 0 ? `\n\nUntracked files (not in the diff): ${(repository.untracked ?? []).map((path) => sanitizeUntrusted(path)).join(', ')}` : '';
		const diff = repository.diff.trim() === '' ? 'No changes to tracked files.' : fenced(repository.diff);
		return `Uncommitted changes in ${sanitizeUntrusted(repository.root)} (staged, then unstaged):\n\n${diff}${cut}${untracked}`;
	});
	return entry(MENTION_CHANGES, 'you mentioned @changes', `The user mentioned @changes.\n\n${sections.join('\n\n')}`);
}
