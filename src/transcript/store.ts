// The writer of a session transcript: one JSONL file per session, appended a line at a time and
// never rewritten (the one exception: open() cuts off a line a crash left incomplete). In the
// extension the directory is `context.storageUri/sessions/`. A store holds the session's lock
// (lock.ts) from before its first write or repair until it is closed: one writer per file.
//
// A record counts once its newline is in the file. append() is synchronous on purpose: when it
// returns, the line is in the OS's hands, so the caller can go on (dispatch a request, run a tool)
// knowing the record that explains it is not lost if the extension host dies next.
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { IDisposable } from '../base/lifecycle';
import { TranscriptLock } from './lock';
import { checkSessionId, contentDir, contentFileName, TranscriptError, transcriptPath } from './paths';
import { checkHeaderLine, endOfLastLine, readFirstLine } from './fileLines';
import { writeImageFiles } from './imageFiles';
import { parseTranscriptRecord, type TranscriptEntry, type TranscriptRecord } from './records';
import { SessionHeader } from './sessionRecords';
import { plural } from '../base/words';

/** Tool output over this many UTF-8 bytes is written to its own file, not into the line. */
export const DEFAULT_INLINE_LIMIT = 64 * 1024;

export interface TranscriptStoreOptions {
	/** Tool-result content over this many UTF-8 bytes goes out of line. */
	readonly inlineLimit?: number;
	readonly log?: Logger;
	/**
	 * The session's lock, already taken; taken here when absent. The store owns it from then on:
	 * it is released on close, or at once when the store cannot be made.
	 */
	readonly lock?: TranscriptLock;
}

/** The lock the store is to hold: the one given (for this session), or a new one. */
function lockFor(dir: string, sessionId: string, options: TranscriptStoreOptions): TranscriptLock {
	const { lock } = options;
	if (lock === undefined) {
		return TranscriptLock.acquire(dir, sessionId, options.log ? { log: options.log } : {});
	}
	if (!lock.isHeld || lock.sessionId !== sessionId || lock.dir !== dir) {
		lock.release();
		throw new TranscriptError(`The lock given for session ${sessionId} is not held for it.`);
	}
	return lock;
}

function isCode(error: unknown, code: string): boolean {
	return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/** UTF-8 length over `limit`, without encoding when the UTF-16 length already decides it. */
function exceeds(text: string, limit: number): boolean {
	if (text.length > limit) {
		return true;
	}
	return text.length * 3 > limit && Buffer.byteLength(text, 'utf8') > limit;
}

export class TranscriptStore implements IDisposable {
	private fd: number | undefined;
	/** Bytes in the file that end in a complete line: where a failed write is cut back to. */
	private size: number;
	/** A write failed and could not be cut back: the next line starts on a fresh line. */
	private torn = false;
	private readonly inlineLimit: number;

	private constructor(
		readonly dir: string,
		readonly sessionId: string,
		readonly path: string,
		fd: number,
		size: number,
		/** Bytes of an incomplete last line that open() cut off (0 when the file was whole). */
		readonly repairedBytes: number,
		private readonly lock: TranscriptLock,
		options: TranscriptStoreOptions,
	) {
		this.fd = fd;
		this.size = size;
		this.inlineLimit = options.inlineLimit ?? DEFAULT_INLINE_LIMIT;
	}

	/** Bytes of whole lines in the file as this writer knows it. */
	get bytes(): number {
		return this.size;
	}

	/** Starts a new transcript with its header line. Throws when the session's file exists. */
	static create(dir: string, header: SessionHeader, options: TranscriptStoreOptions = {}): TranscriptStore {
		const parsed = SessionHeader.safeParse(header);
		if (!parsed.success) {
			throw new TranscriptError(`Not a session header: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
		}
		checkSessionId(parsed.data.id);
		mkdirSync(dir, { recursive: true });
		const path = transcriptPath(dir, parsed.data.id);
		const lock = lockFor(dir, parsed.data.id, options);
		let fd: number;
		try {
			fd = openSync(path, 'ax');
		} catch (error) {
			lock.release();
			throw new TranscriptError(
				isCode(error, 'EEXIST') ? `Session ${parsed.data.id} already has a transcript.` : `Could not create ${path}: ${errorMessage(error)}`,
				{ cause: error },
			);
		}
		const store = new TranscriptStore(dir, parsed.data.id, path, fd, 0, 0, lock, options);
		try {
			store.writeLine(JSON.stringify(parsed.data));
		} catch (error) {
			// No half-made transcript is left behind to block a second attempt.
			store.close();
			rmSync(path, { force: true });
			throw error;
		}
		return store;
	}

	/**
	 * Opens an existing transcript to append to it, holding its lock (throws
	 * TranscriptLockedError when another window holds it). An incomplete last line (a crash
	 * mid-write) is cut off first, so the next record starts on a clean line; load() skips that
	 * same line. The cut happens only under the lock: no live writer can be adding to that line.
	 */
	static open(dir: string, sessionId: string, options: TranscriptStoreOptions = {}): TranscriptStore {
		checkSessionId(sessionId);
		const path = transcriptPath(dir, sessionId);
		let fd: number;
		try {
			fd = openSync(path, 'r+');
		} catch (error) {
			throw new TranscriptError(isCode(error, 'ENOENT') ? `There is no transcript for session ${sessionId}.` : `Could not open ${path}: ${errorMessage(error)}`, { cause: error });
		}
		let lock: TranscriptLock | undefined;
		try {
			lock = lockFor(dir, sessionId, options);
			const total = fstatSync(fd).size;
			checkHeaderLine(readFirstLine(fd, total), sessionId);
			const size = endOfLastLine(fd, total);
			let repaired = 0;
			if (size < total) {
				ftruncateSync(fd, size);
				repaired = total - size;
				options.log?.warn(`Transcript ${sessionId}: cut off an incomplete last line (${plural(repaired, 'byte')}) left by an interrupted write.`);
			}
			closeSync(fd);
			fd = -1;
			// Reopened for appending only: every write lands at the end, whatever the position.
			return new TranscriptStore(dir, sessionId, path, openSync(path, 'a'), size, repaired, lock, options);
		} catch (error) {
			if (fd !== -1) {
				closeSync(fd);
			}
			lock?.release();
			throw error;
		}
	}

	get isClosed(): boolean {
		return this.fd === undefined;
	}

	/**
	 * Checks the record as load() will (throws TranscriptRecordError when it would be rejected)
	 * and appends it as one line. Tool-result content over the inline limit is written to
	 * `<sessionId>.files/` first, so a line never points at a file that is not there yet.
	 */
	append(record: TranscriptEntry): void {
		if (this.fd === undefined) {
			throw new TranscriptError(`The transcript of session ${this.sessionId} is closed.`);
		}
		if ((record as TranscriptRecord).kind === 'session') {
			throw new TranscriptError('The session header is written by create(), once.');
		}
		if (record.kind === 'tool-result' && record.content === null) {
			throw new TranscriptError('append() takes a tool result with its content; the store decides where it is kept.');
		}
		let line = parseTranscriptRecord(record);
		if (line.kind === 'tool-result' && line.content !== null && exceeds(line.content, this.inlineLimit)) {
			line = { ...line, content: null, contentFile: this.writeContent(line.id, line.content) };
		}
		if ((line.kind === 'tool-result' || line.kind === 'user') && line.images?.length) {
			// Images never go inline, whatever their size: their bytes in files, their names in the line.
			line = { ...line, images: writeImageFiles(this.dir, this.sessionId, line.id, line.images) };
		}
		this.writeLine(JSON.stringify(line));
	}

	close(): void {
		if (this.fd !== undefined) {
			const fd = this.fd;
			this.fd = undefined;
			try {
				closeSync(fd);
			} finally {
				this.lock.release();
			}
		}
	}

	dispose(): void {
		this.close();
	}

	// Only outputs over the limit come here, so making sure of the folder each time costs nothing
	// that matters, and a folder removed behind the store's back is made again.
	private writeContent(recordId: string, content: string): string {
		const dir = contentDir(this.dir, this.sessionId);
		const name = contentFileName(recordId);
		try {
			mkdirSync(dir, { recursive: true });
			writeFileSync(join(dir, name), content, 'utf8');
		} catch (error) {
			throw new TranscriptError(`Could not write the output of record ${recordId} to ${join(dir, name)}: ${errorMessage(error)}`, { cause: error });
		}
		return name;
	}

	// One writeSync per line on the one descriptor, and no fsync: after writeSync the bytes are in
	// the OS's page cache, which survives the extension host crashing or being killed. Only a
	// machine crash or power loss can lose them, and then only the last lines, which load()
	// tolerates. An fsync per record would cost milliseconds on every step of every turn.
	private writeLine(text: string): void {
		const fd = this.fd;
		if (fd === undefined) {
			throw new TranscriptError(`The transcript of session ${this.sessionId} is closed.`);
		}
		const line = this.torn ? `\n${text}\n` : `${text}\n`;
		const length = Buffer.byteLength(line, 'utf8');
		let written = 0;
		try {
			// The string as it is (no copy into a Buffer); a short write, which regular files do
			// not do in practice, is finished from an encoded copy.
			written = writeSync(fd, line);
			if (written < length) {
				const bytes = Buffer.from(line, 'utf8');
				while (written < length) {
					const more = writeSync(fd, bytes, written);
					if (more <= 0) {
						throw new Error('the write made no progress');
					}
					written += more;
				}
			}
		} catch (error) {
			if (written > 0) {
				this.cutBack(written);
			}
			throw new TranscriptError(`Could not append to the transcript of session ${this.sessionId}: ${errorMessage(error)}`, { cause: error });
		}
		this.size += length;
		this.torn = false;
	}

	/**
	 * Removes the part of a line a failed write left, or makes the next line start afresh. It cuts
	 * only when the file is exactly what this writer left plus its own `written` bytes: were
	 * anything else there (a writer that took no lock), the cut would take that writer's lines.
	 */
	private cutBack(written: number): void {
		try {
			if (this.fd !== undefined && fstatSync(this.fd).size === this.size + written) {
				ftruncateSync(this.fd, this.size);
				return;
			}
		} catch {
			// Fall through: the partial line stays.
		}
		// The newline before the next record confines the partial line to one bad line.
		this.torn = true;
	}
}
