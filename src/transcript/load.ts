// Reading transcripts back: one session whole (load), or every session's summary for a picker
// (listSessions). A line is trusted only as a whole record of a known kind; anything else is
// skipped and reported, never half-used, and never a reason to lose the lines around it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../base/log';
import { checkSessionId, contentDir, missingContentPlaceholder, TRANSCRIPT_SUFFIX, TranscriptError, transcriptPath } from './paths';
import { parseTranscriptRecord, SessionMeta, type SessionHeader, type ToolResultRecord, type TranscriptEntry, TranscriptRecordError } from './records';
import { checkHeaderLine } from './store';

const NEWLINE = 0x0a;

export interface TranscriptProblem {
	/** 1-based line of the file. */
	readonly line: number;
	readonly message: string;
}

export interface LoadedTranscript {
	readonly header: SessionHeader;
	/** Every whole, valid record after the header, in file order; tool output resolved. */
	readonly records: TranscriptEntry[];
	/** What was skipped or replaced, and why. */
	readonly problems: TranscriptProblem[];
}

export interface SessionSummary {
	readonly id: string;
	/** The last title a meta record set, if any. */
	readonly title: string | undefined;
	readonly createdAt: number;
	/** The file's modification time: when the last record was written. */
	readonly updatedAt: number;
	/** User messages in the session. */
	readonly turns: number;
}

export interface LoadOptions {
	readonly log?: Logger;
}

function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function readTranscript(dir: string, sessionId: string): Buffer {
	checkSessionId(sessionId);
	const path = transcriptPath(dir, sessionId);
	try {
		return readFileSync(path);
	} catch (error) {
		const missing = error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT';
		throw new TranscriptError(missing ? `There is no transcript for session ${sessionId}.` : `Could not read ${path}: ${errorMessage(error)}`, { cause: error });
	}
}

/**
 * Calls `each` with the byte range of every complete line (without its newline), 1-based line
 * numbers, and returns the size of the torn tail after the last newline. Lines are decoded one
 * at a time by the caller: one non-ASCII character then makes only its own line a two-byte
 * string, not the whole file, and the file is never held as one string.
 */
function forEachLine(buffer: Buffer, each: (start: number, end: number, line: number) => void): number {
	let start = 0;
	let line = 1;
	for (let end = buffer.indexOf(NEWLINE); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
		each(start, end, line++);
		start = end + 1;
	}
	return buffer.length - start;
}

/** The first complete line, decoded, or undefined when the file has no newline. */
function firstLine(buffer: Buffer): string | undefined {
	const end = buffer.indexOf(NEWLINE);
	return end === -1 ? undefined : buffer.toString('utf8', 0, end);
}

/** The record with its out-of-line content read back in; a missing file becomes a placeholder. */
function resolveContent(dir: string, sessionId: string, record: ToolResultRecord, report: (message: string) => void): ToolResultRecord {
	const { contentFile, ...rest } = record;
	if (contentFile === undefined) {
		return record;
	}
	try {
		return { ...rest, content: readFileSync(join(contentDir(dir, sessionId), contentFile), 'utf8') };
	} catch (error) {
		report(`The output of tool call ${record.callId} (${record.name}) was stored in ${sessionId}.files/${contentFile}, which cannot be read (${errorMessage(error)}); a placeholder stands in for it.`);
		return { ...rest, content: missingContentPlaceholder(sessionId, contentFile) };
	}
}

/**
 * Reads a session's transcript. Throws TranscriptError only when there is no usable file: none,
 * unreadable, or without a valid header for this session. Everything after the header that is
 * not a whole valid record is skipped and listed in `problems` (and logged as a warning):
 * an incomplete last line (a crash mid-write; open() cuts it off), a line that is not JSON or
 * not a valid record, a record of an unknown kind (a newer version wrote it).
 */
export function load(dir: string, sessionId: string, options: LoadOptions = {}): LoadedTranscript {
	const buffer = readTranscript(dir, sessionId);
	const header = checkHeaderLine(firstLine(buffer), sessionId);
	const problems: TranscriptProblem[] = [];
	const report = (line: number, message: string): void => {
		problems.push({ line, message });
		options.log?.warn(`Transcript ${sessionId}, line ${line}: ${message}`);
	};
	const records: TranscriptEntry[] = [];
	const readLine = (start: number, end: number, number: number): void => {
		if (number === 1) {
			return; // The header, read above.
		}
		const line = buffer.toString('utf8', start, end);
		if (line.trim() === '') {
			return;
		}
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch {
			// Not the parser's message: it quotes the line, and the line may be anyone's text.
			report(number, 'Not valid JSON; the line was skipped.');
			return;
		}
		let record;
		try {
			record = parseTranscriptRecord(value);
		} catch (error) {
			const unknown = error instanceof TranscriptRecordError && error.code === 'unknown-kind';
			report(number, `${errorMessage(error)} ${unknown ? 'Perhaps a newer version of Aside wrote it; the' : 'The'} line was skipped.`);
			return;
		}
		if (record.kind === 'session') {
			report(number, 'A second session header; the line was skipped.');
			return;
		}
		records.push(record.kind === 'tool-result' ? resolveContent(dir, sessionId, record, (message) => { report(number, message); }) : record);
	};
	let lines = 0;
	const tornBytes = forEachLine(buffer, (start, end, number) => {
		lines = number;
		readLine(start, end, number);
	});
	if (tornBytes > 0) {
		report(lines + 1, `The last line is incomplete (${tornBytes} bytes without a newline), as a crash while writing leaves it; it was skipped and is cut off when the session is next opened for writing.`);
	}
	return { header, records, problems };
}

// Records are written with `kind` first (parseTranscriptRecord's output order), so most lines are
// told apart by their first bytes, undecoded; a line that starts otherwise (written by hand) is parsed.
const USER_PREFIX = Buffer.from('{"kind":"user"');
const META_PREFIX = Buffer.from('{"kind":"meta"');
const KIND_PREFIX = Buffer.from('{"kind":"');

function startsWith(buffer: Buffer, prefix: Buffer, start: number, end: number): boolean {
	return end - start >= prefix.length && buffer.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0;
}

function parseLine(buffer: Buffer, start: number, end: number): unknown {
	try {
		return JSON.parse(buffer.toString('utf8', start, end));
	} catch {
		return undefined; // load() reports it.
	}
}

function kindOfLine(buffer: Buffer, start: number, end: number): unknown {
	if (startsWith(buffer, USER_PREFIX, start, end)) {
		return 'user';
	}
	if (startsWith(buffer, META_PREFIX, start, end)) {
		return 'meta';
	}
	if (startsWith(buffer, KIND_PREFIX, start, end)) {
		return undefined;
	}
	const value = parseLine(buffer, start, end);
	return typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
}

/**
 * Summaries already made, by session id, with the file's size and modification time when made:
 * an unchanged file is not read again, so listing many long chats costs a stat each.
 */
export type SummaryCache = Map<string, { readonly size: number; readonly mtimeMs: number; readonly summary: SessionSummary }>;

/** One session's summary, scanning lines without decoding them (meta lines excepted). */
function summarize(dir: string, sessionId: string, cache: SummaryCache | undefined): SessionSummary {
	const { size, mtimeMs } = statSync(transcriptPath(dir, sessionId));
	const cached = cache?.get(sessionId);
	if (cached?.size === size && cached.mtimeMs === mtimeMs) {
		return cached.summary;
	}
	const summary = scanSummary(dir, sessionId, mtimeMs);
	cache?.set(sessionId, { size, mtimeMs, summary });
	return summary;
}

function scanSummary(dir: string, sessionId: string, updatedAt: number): SessionSummary {
	const buffer = readTranscript(dir, sessionId);
	const header = checkHeaderLine(firstLine(buffer), sessionId);
	let title: string | undefined;
	let turns = 0;
	forEachLine(buffer, (start, end, line) => {
		const kind = line === 1 ? 'session' : kindOfLine(buffer, start, end);
		if (kind === 'user') {
			turns++;
		} else if (kind === 'meta') {
			const meta = SessionMeta.safeParse(parseLine(buffer, start, end));
			if (meta.success && meta.data.title !== undefined) {
				title = meta.data.title;
			}
		}
	});
	return { id: sessionId, title, createdAt: header.createdAt, updatedAt, turns };
}

/**
 * Every session in `dir`, most recently written first. A file that is not a usable transcript
 * is left out (and logged). The turn count is of user lines as written; a damaged user line
 * that load() would skip still counts.
 */
export function listSessions(dir: string, options: LoadOptions & { readonly cache?: SummaryCache } = {}): SessionSummary[] {
	let names: string[];
	try {
		names = readdirSync(dir, { withFileTypes: true })
			.filter((entry) => entry.isFile() && entry.name.endsWith(TRANSCRIPT_SUFFIX))
			.map((entry) => entry.name.slice(0, -TRANSCRIPT_SUFFIX.length));
	} catch (error) {
		if (error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
			return [];
		}
		throw error;
	}
	const sessions: SessionSummary[] = [];
	if (options.cache) {
		// Sessions whose files are gone are forgotten.
		const present = new Set(names);
		for (const id of options.cache.keys()) {
			if (!present.has(id)) {
				options.cache.delete(id);
			}
		}
	}
	for (const id of names) {
		try {
			sessions.push(summarize(dir, id, options.cache));
		} catch (error) {
			options.log?.warn(`Transcript ${id}: left out of the session list: ${errorMessage(error)}`);
		}
	}
	return sessions.sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || a.id.localeCompare(b.id));
}
