// A transcript file's lines read in place, without loading the file: the first line (the session
// header, checked) and where the last whole line ends (what a torn-line repair keeps).
import { readSync } from 'node:fs';
import { TranscriptError } from './paths';
import { SessionHeader, TRANSCRIPT_VERSION } from './sessionRecords';

const NEWLINE = 0x0a;
const CHUNK = 64 * 1024;

/** Reads the first line of the file (without its newline), or undefined when there is no newline. */
export function readFirstLine(fd: number, size: number): string | undefined {
	const chunks: Buffer[] = [];
	for (let position = 0; position < size; position += CHUNK) {
		const chunk = Buffer.alloc(Math.min(CHUNK, size - position));
		const read = readSync(fd, chunk, 0, chunk.length, position);
		const newline = chunk.subarray(0, read).indexOf(NEWLINE);
		if (newline !== -1) {
			chunks.push(chunk.subarray(0, newline));
			return Buffer.concat(chunks).toString('utf8');
		}
		chunks.push(chunk.subarray(0, read));
	}
	return undefined;
}

/** The offset just past the file's last newline (0 when it has none), reading backwards. */
export function endOfLastLine(fd: number, size: number): number {
	const chunk = Buffer.alloc(Math.min(CHUNK, size));
	for (let end = size; end > 0; ) {
		const start = Math.max(0, end - CHUNK);
		const read = readSync(fd, chunk, 0, end - start, start);
		const newline = chunk.subarray(0, read).lastIndexOf(NEWLINE);
		if (newline !== -1) {
			return start + newline + 1;
		}
		end = start;
	}
	return 0;
}

/** Checks the header line of an existing transcript; throws TranscriptError saying what is wrong. */
export function checkHeaderLine(line: string | undefined, sessionId: string): SessionHeader {
	if (line === undefined) {
		throw new TranscriptError(`The transcript of session ${sessionId} has no complete first line (it was cut off while being created).`);
	}
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		throw new TranscriptError(`The transcript of session ${sessionId} does not start with a session header (its first line is not JSON).`);
	}
	const parsed = SessionHeader.safeParse(value);
	if (!parsed.success) {
		const version = typeof value === 'object' && value !== null ? (value as { v?: unknown }).v : undefined;
		const newer = typeof version === 'number' && version > TRANSCRIPT_VERSION ? ` It was written by a newer version of Aside (transcript version ${version}).` : '';
		throw new TranscriptError(`The transcript of session ${sessionId} does not start with a valid session header.${newer}`);
	}
	if (parsed.data.id !== sessionId) {
		throw new TranscriptError(`The transcript file of session ${sessionId} holds session ${parsed.data.id}.`);
	}
	return parsed.data;
}
