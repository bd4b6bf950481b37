// Reading a session's transcript back whole (load). A line is trusted only as a whole record of
// a known kind; anything else is skipped and reported, never half-used, and never a reason to
// lose the lines around it. Summaries for the chat list are in summary.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import { checkSessionId, contentDir, missingContentPlaceholder, TranscriptError, transcriptPath } from './paths';
import { parseTranscriptRecord, type TranscriptEntry, TranscriptRecordError, type UserRecord } from './records';
import type { SessionHeader } from './sessionRecords';
import type { ToolResultRecord } from './toolResultRecord';
import { checkHeaderLine } from './fileLines';
import { readImageFiles } from './imageFiles';
import { plural } from '../base/words';

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

export interface LoadOptions {
	readonly log?: Logger;
}

export function readTranscript(dir: string, sessionId: string): Buffer {
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
export function forEachLine(buffer: Buffer, each: (start: number, end: number, line: number) => void): number {
	let start = 0;
	let line = 1;
	for (let end = buffer.indexOf(NEWLINE); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
		each(start, end, line++);
		start = end + 1;
	}
	return buffer.length - start;
}

/** The first complete line, decoded, or undefined when the file has no newline. */
export function firstLine(buffer: Buffer): string | undefined {
	const end = buffer.indexOf(NEWLINE);
	return end === -1 ? undefined : buffer.toString('utf8', 0, end);
}

/** The record with its out-of-line content and images read back in; a missing file becomes a placeholder. */
function resolveContent(dir: string, sessionId: string, record: ToolResultRecord, report: (message: string) => void): ToolResultRecord {
	if (record.images?.length) {
		const images = readImageFiles(dir, sessionId, record.images, (file, why) => {
			report(`An image of tool call ${record.callId} (${record.name}) was stored in ${sessionId}.files/${file}, which cannot be read (${why}); a placeholder stands in for it.`);
		});
		record = { ...record, images };
	}
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

/** The user record with its attached images read back in; one whose file is gone keeps its name (replay puts a placeholder). */
function resolveUserImages(dir: string, sessionId: string, record: UserRecord, report: (message: string) => void): UserRecord {
	if (!record.images?.length) {
		return record;
	}
	const images = readImageFiles(dir, sessionId, record.images, (file, why) => {
		report(`An image attached to a message was stored in ${sessionId}.files/${file}, which cannot be read (${why}); a placeholder stands in for it.`);
	});
	return { ...record, images };
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
		const reportHere = (message: string): void => {
			report(number, message);
		};
		records.push(record.kind === 'tool-result' ? resolveContent(dir, sessionId, record, reportHere) : record.kind === 'user' ? resolveUserImages(dir, sessionId, record, reportHere) : record);
	};
	let lines = 0;
	const tornBytes = forEachLine(buffer, (start, end, number) => {
		lines = number;
		readLine(start, end, number);
	});
	if (tornBytes > 0) {
		report(lines + 1, `The last line is incomplete (${plural(tornBytes, 'byte')} without a newline), as a crash while writing leaves it; it was skipped and is cut off when the session is next opened for writing.`);
	}
	return { header, records, problems };
}
