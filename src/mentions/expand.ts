// Expanding the mentions of a message at send time, through the attachments seam
// (src/agent/attachments.ts): each mention becomes one staged entry in the mention stage, of type
// `mention.<kind>` (bodies in src/reminders/builtin/mentions.ts). A path that names nothing stays
// text; a file the chat was already given unchanged is not sent again. What was given is read
// from the chat's own records (the subjects of the `mention.file` entries its kept history holds),
// which the engine writes only when the request carrying them was dispatched: a cancelled or
// failed request marks nothing as shown, a reopened chat knows what it was given, and a compacted
// one sends again what only the summarized part had.
import { createHash } from 'node:crypto';
import * as nodePath from 'node:path';
import type { MessageAttachments } from '../agent/attachments';
import { errorMessage } from '../base/errors';
import type { DiagnosticEntry } from '../observe/diagnostics';
import { formatDiagnosticLine, sortBySeverity } from '../observe/diagnosticsFormat';
import { MENTION_CHANGES, MENTION_FILE, MENTION_FOLDER, MENTION_PROBLEMS, MENTION_SELECTION } from '../reminders/builtin/catalog';
import {
	type ChangesResult,
	fileAlreadyInContext,
	fileRejected,
	folderRejected,
	mentionedChanges,
	mentionedFile,
	mentionedFolder,
	mentionedPdf,
	mentionedProblems,
	mentionedSelection,
} from '../reminders/builtin/mentions';
import type { StagedEntry } from '../reminders/definition';
import { deliveredSubjects, type RecordLike } from '../reminders/history';
import type { StagedInStage } from '../reminders/staging';
import { displayPath, isInside } from '../tools/paths';
import { formatPages, isPdf, noTextIn, PDF_FIRST_PAGES, PdfError, pdfText } from '../tools/pdf';
import { classifyBytes, formatBytes, splitLines, truncateUtf8, utf8Length } from '../tools/text';
import type { WorkspaceFs } from '../tools/tool';
import { type LineRange, type MentionToken, parseMentions } from './parse';

/** The editor's selection, as plain data. */
export interface EditorSelection {
	/** Absolute. */
	readonly path: string;
	/** 1-based, inclusive. */
	readonly startLine: number;
	readonly endLine: number;
	readonly text: string;
}

/** The problems of one file. */
export interface FileProblems {
	/** Absolute. */
	readonly path: string;
	readonly entries: readonly DiagnosticEntry[];
}

/** What mentions read beside files: the editor's and the git extension's state now. */
export interface MentionPorts {
	readonly fs: WorkspaceFs;
	readonly roots: () => readonly string[];
	/** The current chat's kept records (what a request replays): what it was given. */
	readonly records: () => Iterable<RecordLike>;
	readonly problems: () => readonly FileProblems[];
	readonly selection: () => EditorSelection | undefined;
	/** The working tree's diff per repository, unbounded (bounded here), or why there is none. */
	readonly changes: (signal: AbortSignal) => Promise<ChangesResult>;
	/** `aside.reminders.<type>.enabled`: a kind turned off expands to nothing, and marks nothing as given. */
	readonly isEnabled?: (type: string) => boolean;
}

export interface MentionLimits {
	/** A file larger than this is refused (its size is said). */
	readonly maxFileBytes: number;
	/** What one file (or a selection) attaches at most: lines, and bytes. */
	readonly maxLines: number;
	readonly maxBytes: number;
	readonly maxFolderEntries: number;
	readonly maxProblems: number;
	/** Of the whole `@changes` diff. */
	readonly maxDiffBytes: number;
}

export const DEFAULT_MENTION_LIMITS: MentionLimits = {
	maxFileBytes: 4 * 1024 * 1024,
	maxLines: 500,
	maxBytes: 32 * 1024,
	maxFolderEntries: 200,
	maxProblems: 50,
	maxDiffBytes: 64 * 1024,
};

function hashOf(bytes: Uint8Array): string {
	return createHash('sha256').update(bytes).digest('hex');
}

/** The lines from `first`, as many as the bounds allow, up to `last`. */
function takeLines(lines: readonly string[], first: number, last: number, limits: MentionLimits): { text: string; last: number } {
	const taken: string[] = [];
	let bytes = 0;
	for (let line = first; line <= last && taken.length < limits.maxLines; line++) {
		const text = lines[line - 1] ?? '';
		const size = utf8Length(text) + 1;
		if (taken.length > 0 && bytes + size > limits.maxBytes) {
			break;
		}
		// A single line longer than the bound is cut itself rather than left out.
		taken.push(size > limits.maxBytes ? truncateUtf8(text, limits.maxBytes) : text);
		bytes += size;
	}
	return { text: taken.join('\n'), last: first + taken.length - 1 };
}

type Resolved =
	| { readonly kind: 'none' }
	| { readonly kind: 'rejected'; readonly why: string }
	| { readonly kind: 'file' | 'directory'; readonly path: string };

class Expansion {
	private readonly roots: string[];
	/** `mention.file` subjects the chat's kept history holds: ref → content hashes. */
	private readonly given = new Map<string, Set<string>>();
	/** Files this message already attached or pointed at (`@a.ts` and `@./a.ts` once). */
	private readonly attached = new Set<string>();

	constructor(
		private readonly ports: MentionPorts,
		private readonly limits: MentionLimits,
	) {
		this.roots = ports.roots().map((root) => nodePath.resolve(root));
		for (const subjects of deliveredSubjects(ports.records(), MENTION_FILE.type)) {
			for (const { ref, hashes } of subjects) {
				const known = this.given.get(ref) ?? new Set<string>();
				hashes.forEach((hash) => known.add(hash));
				this.given.set(ref, known);
			}
		}
	}

	private enabled(type: string): boolean {
		return this.ports.isEnabled?.(type) ?? true;
	}

	async entryFor(token: MentionToken, signal: AbortSignal): Promise<StagedEntry | undefined> {
		if (token.kind === 'keyword') {
			switch (token.keyword) {
				case 'problems':
					return this.enabled(MENTION_PROBLEMS.type) ? this.problems() : undefined;
				case 'selection':
					return this.enabled(MENTION_SELECTION.type) ? this.selection() : undefined;
				case 'changes':
					return this.enabled(MENTION_CHANGES.type) ? this.changes(signal) : undefined;
			}
		}
		const resolved = await this.resolve(token);
		// Rejections take the kind the mention was written as: `@x/` a folder, else a file.
		const asFolder = resolved.kind === 'directory' || (resolved.kind !== 'file' && token.folder);
		if (!this.enabled(asFolder ? MENTION_FOLDER.type : MENTION_FILE.type) || resolved.kind === 'none') {
			return undefined;
		}
		if (resolved.kind === 'rejected') {
			return asFolder ? folderRejected(token.raw, resolved.why) : fileRejected(token.raw, resolved.why);
		}
		return resolved.kind === 'directory' ? this.folder(token, resolved.path) : this.file(token, resolved.path, signal);
	}

	/** Where a path mention leads; `none` for a token that names nothing (it stays text). */
	private async resolve(token: Extract<MentionToken, { kind: 'path' }>): Promise<Resolved> {
		const { fs } = this.ports;
		const [first] = this.roots;
		// Written the way a file mention is (a range, quotes): that it names nothing is worth saying.
		const explicit = token.range !== undefined || token.quoted;
		if (first === undefined) {
			return explicit ? { kind: 'rejected', why: 'no workspace folder is open.' } : { kind: 'none' };
		}
		const candidates = nodePath.isAbsolute(token.path) ? [nodePath.resolve(token.path)] : this.roots.map((root) => nodePath.resolve(root, token.path));
		for (const candidate of candidates) {
			const stat = await fs.stat(candidate);
			if (stat === undefined) {
				continue;
			}
			if (!this.roots.some((root) => isInside(candidate, root))) {
				return { kind: 'rejected', why: 'it is outside the workspace folders.' };
			}
			const real = await fs.realPath(candidate);
			const realRoots = await Promise.all(this.roots.map(async (root) => (await fs.realPath(root)) ?? root));
			if (real === undefined || !realRoots.some((root) => isInside(real, root))) {
				return { kind: 'rejected', why: 'it is a symbolic link to a place outside the workspace folders.' };
			}
			if (stat.type === 'directory') {
				return { kind: 'directory', path: candidate };
			}
			if (stat.type !== 'file') {
				return { kind: 'rejected', why: 'it is not a regular file.' };
			}
			if (stat.size > this.limits.maxFileBytes) {
				return { kind: 'rejected', why: `it is ${formatBytes(stat.size)}, over the ${formatBytes(this.limits.maxFileBytes)} a mention attaches. Read it in ranges instead.` };
			}
			return { kind: 'file', path: candidate };
		}
		return explicit ? { kind: 'rejected', why: 'no such file in the workspace folders.' } : { kind: 'none' };
	}

	private async file(token: Extract<MentionToken, { kind: 'path' }>, path: string, signal: AbortSignal): Promise<StagedEntry> {
		const shown = displayPath(path, this.roots);
		const bytes = await this.ports.fs.readFile(path);
		if (isPdf(bytes)) {
			return this.pdf(token, path, bytes, signal);
		}
		const verdict = classifyBytes(bytes);
		if (verdict !== 'text') {
			return fileRejected(token.raw, verdict === 'binary' ? 'it is a binary file.' : 'it is not UTF-8 text.');
		}
		const lines = splitLines(new TextDecoder('utf-8').decode(bytes));
		const total = lines.length;
		const range: LineRange | undefined = token.range;
		if (range && range.start > Math.max(total, 1)) {
			return fileRejected(token.raw, `line ${range.start} is past its end (it has ${total} lines).`);
		}
		const first = range?.start ?? 1;
		const end = Math.min(range?.end ?? total, total);
		const taken = takeLines(lines, first, end, this.limits);
		const cut = taken.last < end;
		const whole = !cut && range === undefined;
		const ref = whole ? path : `${path}#L${first}-${taken.last}`;
		const hash = hashOf(bytes);
		const linesText = whole ? undefined : `lines ${first}–${taken.last}`;
		// The whole file given covers any part of it; a part covers only itself.
		if (this.attached.has(ref) || this.given.get(ref)?.has(hash) || this.given.get(path)?.has(hash)) {
			this.attached.add(ref);
			return fileAlreadyInContext(shown, linesText);
		}
		this.attached.add(ref);
		return mentionedFile({ shown, text: taken.text, first, last: total === 0 ? 0 : taken.last, total, ...(range ? { asked: range } : {}), cut, subject: { ref, hashes: [hash] } });
	}

	/** A PDF: the text of its first pages, bounded like a file; given once like one. */
	private async pdf(token: Extract<MentionToken, { kind: 'path' }>, path: string, bytes: Uint8Array, signal: AbortSignal): Promise<StagedEntry> {
		const shown = displayPath(path, this.roots);
		if (token.range) {
			return fileRejected(token.raw, 'it is a PDF, which has pages rather than lines; mention it without a range and Read it with pages: "START-END".');
		}
		const hash = hashOf(bytes);
		if (this.attached.has(path) || this.given.get(path)?.has(hash)) {
			this.attached.add(path);
			return fileAlreadyInContext(shown);
		}
		let extracted;
		try {
			extracted = await pdfText(bytes, (count) => ({ start: 1, end: Math.min(count, PDF_FIRST_PAGES) }), signal);
		} catch (error) {
			if (error instanceof PdfError) {
				return fileRejected(token.raw, error.message);
			}
			throw error;
		}
		const lines = splitLines(formatPages(extracted.pages));
		const taken = takeLines(lines, 1, lines.length, this.limits);
		const cut = taken.last < lines.length;
		// The last page the attachment reaches: the last `--- page N ---` line it kept.
		const headers = [...taken.text.matchAll(/^--- page (\d+) ---$/gm)];
		const last = cut ? Number(headers.at(-1)?.[1] ?? 1) : (extracted.pages.at(-1)?.number ?? 1);
		this.attached.add(path);
		return mentionedPdf({ shown, text: taken.text, first: 1, last, pageCount: extracted.pageCount, cut, noText: noTextIn(extracted.pages), subject: { ref: path, hashes: [hash] } });
	}

	private async folder(token: Extract<MentionToken, { kind: 'path' }>, path: string): Promise<StagedEntry> {
		let entries: readonly { readonly name: string; readonly type: string }[];
		try {
			entries = await this.ports.fs.readDirectory(path);
		} catch {
			return folderRejected(token.raw, 'it could not be read.');
		}
		const names = [...entries]
			.sort((a, b) => Number(b.type === 'directory') - Number(a.type === 'directory') || a.name.localeCompare(b.name))
			.map((entry) => (entry.type === 'directory' ? `${entry.name}/` : entry.name));
		const listed = names.slice(0, this.limits.maxFolderEntries);
		return mentionedFolder({ shown: displayPath(path, this.roots), names: listed, omitted: names.length - listed.length });
	}

	private problems(): StagedEntry {
		const files = this.ports
			.problems()
			.map((file) => ({ file, entries: sortBySeverity(file.entries.filter((entry) => entry.severity === 'error' || entry.severity === 'warning'), (entry) => entry) }))
			.filter(({ entries }) => entries.length > 0)
			.sort((a, b) => Number(b.entries[0]?.severity === 'error') - Number(a.entries[0]?.severity === 'error') || a.file.path.localeCompare(b.file.path));
		const all = files.flatMap(({ entries }) => entries);
		let left = this.limits.maxProblems;
		const listed = [];
		for (const { file, entries } of files) {
			const taken = entries.slice(0, Math.max(0, left));
			left -= taken.length;
			if (taken.length > 0) {
				listed.push({ shown: displayPath(file.path, this.roots), lines: taken.map((entry) => formatDiagnosticLine(entry, false)) });
			}
		}
		const errors = all.filter((entry) => entry.severity === 'error').length;
		return mentionedProblems({ files: listed, errors, warnings: all.length - errors, omitted: Math.max(0, all.length - this.limits.maxProblems) });
	}

	private selection(): StagedEntry {
		const selection = this.ports.selection();
		if (selection === undefined || selection.text === '') {
			return mentionedSelection(undefined);
		}
		const lines = splitLines(selection.text);
		const taken = takeLines(lines, 1, lines.length, this.limits);
		return mentionedSelection({
			shown: displayPath(selection.path, this.roots),
			first: selection.startLine,
			last: selection.endLine,
			text: taken.text,
			cut: taken.last < lines.length,
		});
	}

	private async changes(signal: AbortSignal): Promise<StagedEntry> {
		const result = await this.ports.changes(signal);
		if (result.kind === 'unavailable') {
			return mentionedChanges(result);
		}
		let left = this.limits.maxDiffBytes;
		const repositories = result.repositories.map((repository) => {
			const diff = truncateUtf8(repository.diff, Math.max(0, left));
			left -= utf8Length(diff);
			return { ...repository, root: displayPath(repository.root, this.roots), diff, cut: repository.cut || diff.length < repository.diff.length };
		});
		return mentionedChanges({ kind: 'diff', repositories });
	}
}

function failed(token: MentionToken, message: string): StagedEntry | undefined {
	if (token.kind === 'path') {
		return (token.folder ? folderRejected : fileRejected)(token.raw, `it could not be read (${message}).`);
	}
	const why = `it could not be read (${message}).`;
	// The editor's problems and selection are read synchronously and do not fail this way.
	return token.keyword === 'changes' ? mentionedChanges({ kind: 'unavailable', why }) : undefined;
}

/**
 * The mentions of a message's text as entries of the mention stage, in the order typed. `limits`
 * may be a function: read at each message, so a changed setting applies to the next one.
 */
export function mentionAttachments(ports: MentionPorts, limits: MentionLimits | (() => MentionLimits) = DEFAULT_MENTION_LIMITS): MessageAttachments {
	return async (text, owner, signal) => {
		const tokens = parseMentions(text);
		if (tokens.length === 0 || owner.kind !== 'root') {
			return [];
		}
		const expansion = new Expansion(ports, typeof limits === 'function' ? limits() : limits);
		const staged: StagedInStage[] = [];
		for (const token of tokens) {
			signal.throwIfAborted();
			let entry: StagedEntry | undefined;
			try {
				entry = await expansion.entryFor(token, signal);
			} catch (error) {
				if (signal.aborted) {
					throw error;
				}
				// One unreadable file (or a failing git) costs its own mention, never the others.
				entry = failed(token, errorMessage(error));
			}
			if (entry) {
				staged.push({ stage: 'mention', entry });
			}
		}
		return staged;
	};
}
