// Mentions that name a path: `@file` (a range, a PDF's first pages) and `@folder/`. Where the path
// leads inside the workspace folders, what it attaches within the limits, and what the chat was
// already given (its kept records) or this message already attached, so a file goes only once.
import { createHash } from 'node:crypto';
import * as nodePath from 'node:path';
import { MENTION_FILE } from '../reminders/builtin/catalog/mentions';
import { fileAlreadyInContext, fileRejected, folderRejected, mentionedFile, mentionedFolder, mentionedPdf } from '../reminders/builtin/mentions';
import type { StagedEntry } from '../reminders/definition';
import { deliveredSubjects, type RecordLike } from '../reminders/history';
import { displayPath, isInside } from '../tools/paths';
import { formatPages, isPdf, noTextIn, PDF_FIRST_PAGES, PdfError, pdfText } from '../tools/pdf';
import { classifyBytes, formatBytes, splitLines } from '../tools/text';
import type { WorkspaceFs } from '../tools/tool';
import { takeLines, type MentionLimits } from './limits';
import type { LineRange, MentionToken } from './parse';

export type PathToken = Extract<MentionToken, { kind: 'path' }>;

export type ResolvedPath =
	| { readonly kind: 'none' }
	| { readonly kind: 'rejected'; readonly why: string }
	| { readonly kind: 'file' | 'directory'; readonly path: string };

function hashOf(bytes: Uint8Array): string {
	return createHash('sha256').update(bytes).digest('hex');
}

export class PathMentions {
	/** `mention.file` subjects the chat's kept history holds: ref → content hashes. */
	private readonly given = new Map<string, Set<string>>();
	/** Files this message already attached or pointed at (`@a.ts` and `@./a.ts` once). */
	private readonly attached = new Set<string>();

	constructor(
		private readonly fs: WorkspaceFs,
		/** The workspace folders, resolved. */
		private readonly roots: readonly string[],
		records: Iterable<RecordLike>,
		private readonly limits: MentionLimits,
	) {
		for (const subjects of deliveredSubjects(records, MENTION_FILE.type)) {
			for (const { ref, hashes } of subjects) {
				const known = this.given.get(ref) ?? new Set<string>();
				hashes.forEach((hash) => known.add(hash));
				this.given.set(ref, known);
			}
		}
	}

	/** Where a path mention leads; `none` for a token that names nothing (it stays text). */
	async resolve(token: PathToken): Promise<ResolvedPath> {
		const { fs } = this;
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

	async file(token: PathToken, path: string, signal: AbortSignal): Promise<StagedEntry> {
		const shown = displayPath(path, this.roots);
		const bytes = await this.fs.readFile(path);
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
		return mentionedFile({
			shown,
			text: taken.text,
			first,
			last: total === 0 ? 0 : taken.last,
			total,
			...(range ? { asked: range } : {}),
			cut,
			subject: { ref, hashes: [hash] },
		});
	}

	/** A PDF: the text of its first pages, bounded like a file; given once like one. */
	private async pdf(token: PathToken, path: string, bytes: Uint8Array, signal: AbortSignal): Promise<StagedEntry> {
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
		return mentionedPdf({
			shown,
			text: taken.text,
			first: 1,
			last,
			pageCount: extracted.pageCount,
			cut,
			noText: noTextIn(extracted.pages),
			subject: { ref: path, hashes: [hash] },
		});
	}

	async folder(token: PathToken, path: string): Promise<StagedEntry> {
		let entries: readonly { readonly name: string; readonly type: string }[];
		try {
			entries = await this.fs.readDirectory(path);
		} catch {
			return folderRejected(token.raw, 'it could not be read.');
		}
		const names = [...entries]
			.sort((a, b) => Number(b.type === 'directory') - Number(a.type === 'directory') || a.name.localeCompare(b.name))
			.map((entry) => (entry.type === 'directory' ? `${entry.name}/` : entry.name));
		const listed = names.slice(0, this.limits.maxFolderEntries);
		return mentionedFolder({ shown: displayPath(path, this.roots), names: listed, omitted: names.length - listed.length });
	}
}
