// A session's summary for the chat list (title, dates, turns, how its last turn ended), read from
// its transcript without decoding most lines. The session index (sessionIndex.ts) keeps these so
// the list does not read transcripts; this is how an entry is made when the index lacks it.
import { readdirSync, statSync } from 'node:fs';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import { firstLine, forEachLine, readTranscript } from './load';
import { TRANSCRIPT_SUFFIX, transcriptPath } from './paths';
import type { TurnOutcomeKind } from '../vocabulary/outcomes';
import { ForkRecord } from './historyMarkers';
import { SessionMeta } from './sessionRecords';
import { TurnEndRecord } from './records';
import { checkHeaderLine } from './fileLines';

/** How the last turn ended; 'unfinished' when it has no end record (still running, or the window died). */
export type LastOutcome = TurnOutcomeKind | 'unfinished';

export interface SessionSummary {
	readonly id: string;
	/** The last title a meta record set, if any. */
	readonly title: string | undefined;
	readonly createdAt: number;
	/** When the last record was written. */
	readonly updatedAt: number;
	/** User messages in the session (the root's: a sub-agent's task is not one). */
	readonly turns: number;
	/** Absent before the first message. */
	readonly lastOutcome: LastOutcome | undefined;
	/** A fork's source chat, from its `fork` record (its first record), as titled then. */
	readonly forkOf?: { readonly id: string; readonly title: string } | undefined;
}

// Records are written with `kind` first (parseTranscriptRecord's output order), so most lines are
// told apart by their first bytes, undecoded; a line that starts otherwise (written by hand) is parsed.
const USER_PREFIX = Buffer.from('{"kind":"user"');
const META_PREFIX = Buffer.from('{"kind":"meta"');
const TURN_END_PREFIX = Buffer.from('{"kind":"turn-end"');
const FORK_PREFIX = Buffer.from('{"kind":"fork"');
const KIND_PREFIX = Buffer.from('{"kind":"');
// A sub-agent's records carry `agent` (records.ts); inside a JSON string a quote is always
// escaped, so these bytes in a user line are its key, never its text.
const AGENT_KEY = Buffer.from('"agent":"');

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
	for (const [prefix, kind] of [[USER_PREFIX, 'user'], [META_PREFIX, 'meta'], [TURN_END_PREFIX, 'turn-end'], [FORK_PREFIX, 'fork']] as const) {
		if (startsWith(buffer, prefix, start, end)) {
			return kind;
		}
	}
	if (startsWith(buffer, KIND_PREFIX, start, end)) {
		return undefined;
	}
	const value = parseLine(buffer, start, end);
	return typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
}

/**
 * One session's summary, scanning lines without decoding them (meta and turn-end lines excepted).
 * The turn count is of user lines as written; a damaged user line that load() would skip still
 * counts. Throws TranscriptError when the file is not a usable transcript.
 */
export function scanSummary(dir: string, sessionId: string, updatedAt: number): SessionSummary {
	const buffer = readTranscript(dir, sessionId);
	const header = checkHeaderLine(firstLine(buffer), sessionId);
	let title: string | undefined;
	let turns = 0;
	let lastOutcome: LastOutcome | undefined;
	let forkOf: SessionSummary['forkOf'];
	forEachLine(buffer, (start, end, line) => {
		const kind = line === 1 ? 'session' : kindOfLine(buffer, start, end);
		if (kind === 'fork' && line === 2) {
			// A fork's own record is its first; one further on was copied from its source's history.
			const fork = ForkRecord.safeParse(parseLine(buffer, start, end));
			if (fork.success) {
				forkOf = { id: fork.data.source.id, title: fork.data.source.title };
			}
		} else if (kind === 'user' && buffer.subarray(start, end).includes(AGENT_KEY)) {
			// A sub-agent's task, not one of the chat's turns.
		} else if (kind === 'user') {
			turns++;
			lastOutcome = 'unfinished';
		} else if (kind === 'meta') {
			const meta = SessionMeta.safeParse(parseLine(buffer, start, end));
			if (meta.success && meta.data.title !== undefined) {
				title = meta.data.title;
			}
		} else if (kind === 'turn-end' && lastOutcome !== undefined) {
			const turnEnd = TurnEndRecord.safeParse(parseLine(buffer, start, end));
			if (turnEnd.success && turnEnd.data.agent === undefined) {
				lastOutcome = turnEnd.data.outcome;
			}
		}
	});
	return { id: sessionId, title, createdAt: header.createdAt, updatedAt, turns, lastOutcome, ...(forkOf ? { forkOf } : {}) };
}

/** The ids of the transcripts in `dir` (none when it does not exist yet). */
export function transcriptIds(dir: string): string[] {
	try {
		return readdirSync(dir, { withFileTypes: true })
			.filter((entry) => entry.isFile() && entry.name.endsWith(TRANSCRIPT_SUFFIX))
			.map((entry) => entry.name.slice(0, -TRANSCRIPT_SUFFIX.length));
	} catch (error) {
		if (error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
			return [];
		}
		throw error;
	}
}

/** Most recently written first; ties by creation, then id, so the order is stable. */
export function byRecency(a: SessionSummary, b: SessionSummary): number {
	return b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || a.id.localeCompare(b.id);
}

/**
 * Every session in `dir`, read from the transcripts themselves: what the session index is rebuilt
 * from. A file that is not a usable transcript is left out (and logged). `updatedAt` is the
 * file's modification time.
 */
export function listSessions(dir: string, options: { readonly log?: Logger } = {}): SessionSummary[] {
	const sessions: SessionSummary[] = [];
	for (const id of transcriptIds(dir)) {
		try {
			sessions.push(scanSummary(dir, id, statSync(transcriptPath(dir, id)).mtimeMs));
		} catch (error) {
			options.log?.warn(`Transcript ${id}: left out of the session list: ${errorMessage(error)}`);
		}
	}
	return sessions.sort(byRecency);
}
