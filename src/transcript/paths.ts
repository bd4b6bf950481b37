// Where a session's files are: `<dir>/<sessionId>.jsonl`, and beside it `<sessionId>.files/` for
// tool outputs too large to keep in a line. Names are checked, so an id never becomes a path.
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const SAFE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const MAX_NAME = 128;

export const TRANSCRIPT_SUFFIX = '.jsonl';

export class TranscriptError extends Error {
	override readonly name = 'TranscriptError';
}

/** Throws unless `id` can be a file name as it is (UUIDs can). */
export function checkSessionId(id: string): void {
	if (!SAFE_NAME.test(id) || id.length > MAX_NAME) {
		throw new TranscriptError(`Invalid session id ${JSON.stringify(id)}: ids must match [A-Za-z0-9._-]+ and not start with a dot.`);
	}
}

export function transcriptPath(dir: string, sessionId: string): string {
	return join(dir, `${sessionId}${TRANSCRIPT_SUFFIX}`);
}

export function contentDir(dir: string, sessionId: string): string {
	return join(dir, `${sessionId}.files`);
}

/**
 * The out-of-line file name for a record: its id when that is a safe name, else a hash of it
 * (record ids are the caller's; they need not be file names).
 */
export function contentFileName(recordId: string): string {
	const base = SAFE_NAME.test(recordId) && recordId.length <= MAX_NAME ? recordId : createHash('sha256').update(recordId).digest('hex').slice(0, 40);
	return `${base}.txt`;
}

/** What replaces content whose out-of-line file is gone. */
export function missingContentPlaceholder(sessionId: string, fileName: string): string {
	return `[output file missing: ${sessionId}.files/${fileName}]`;
}
