// A worktree fork opens in a new window, whose chats live in that workspace's own storage: the
// fork goes over through the global storage (issue 18, docs/forks.md). The window that made it
// writes a handoff file named by the worktree folder; Aside in the new window reads it at
// activation, imports the records into its own library, makes the fork current and queues the
// restore report. A handoff is consumed once (deleted before it is used); a stale or malformed one
// is ignored (and removed) with a log line.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { errorMessage } from '../../base/errors';
import type { Logger } from '../../base/log';
import type { RestoreReport } from '../../reminders/builtin/sessionFork';
import { parseTranscriptRecord, type TranscriptEntry } from '../../transcript/records';

export const HANDOFF_VERSION = 1;
/** A handoff older than this is stale: the window it was for never opened (or opened long ago). */
export const HANDOFF_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface ForkHandoff {
	/** The worktree folder the fork is for (absolute). */
	readonly folder: string;
	readonly createdAt: number;
	/** The fork's transcript after its header: its `fork` record first. */
	readonly records: readonly TranscriptEntry[];
	readonly report: RestoreReport;
}

const HandoffFile = z.object({
	v: z.literal(HANDOFF_VERSION),
	folder: z.string().min(1),
	createdAt: z.number(),
	records: z.array(z.unknown()).min(1),
	report: z.object({
		restored: z.array(z.string()),
		failed: z.array(z.object({ path: z.string(), why: z.string() })),
		shared: z.array(z.string()),
	}),
});

/** The handoff file for worktree `folder` in `dir` (the global storage's handoff folder). */
export function handoffPath(dir: string, folder: string): string {
	return join(dir, `${createHash('sha256').update(resolve(folder)).digest('hex').slice(0, 32)}.json`);
}

/** Writes the handoff for its folder atomically (temp file + rename); throws when it cannot. */
export function writeHandoff(dir: string, handoff: ForkHandoff): string {
	mkdirSync(dir, { recursive: true });
	const path = handoffPath(dir, handoff.folder);
	const temp = `${path}.${process.pid}.tmp`;
	try {
		writeFileSync(temp, JSON.stringify({ v: HANDOFF_VERSION, ...handoff, folder: resolve(handoff.folder) }));
		renameSync(temp, path);
	} catch (error) {
		rmSync(temp, { force: true });
		throw error;
	}
	return path;
}

/**
 * The handoff waiting for workspace folder `folder`, taken: the file is removed first, so it is
 * used once at most. A missing one is undefined; a stale, malformed or foreign one is removed,
 * logged and undefined.
 */
export function takeHandoff(dir: string, folder: string, now: number, log: Logger): ForkHandoff | undefined {
	const path = handoffPath(dir, folder);
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
			log.warn(`Aside: the fork handoff ${path} could not be read (${errorMessage(error)}); it is ignored.`);
			rmSync(path, { force: true });
		}
		return undefined;
	}
	rmSync(path, { force: true });
	let parsed: z.infer<typeof HandoffFile>;
	try {
		parsed = HandoffFile.parse(JSON.parse(text));
	} catch (error) {
		log.warn(`Aside: ignored a malformed fork handoff for ${folder}: ${errorMessage(error).slice(0, 300)}`);
		return undefined;
	}
	if (resolve(parsed.folder) !== resolve(folder)) {
		log.warn(`Aside: ignored a fork handoff for another folder (${parsed.folder}).`);
		return undefined;
	}
	if (now - parsed.createdAt > HANDOFF_MAX_AGE_MS || parsed.createdAt > now + HANDOFF_MAX_AGE_MS) {
		log.warn(`Aside: ignored a stale fork handoff for ${folder} (made ${new Date(parsed.createdAt).toISOString()}).`);
		return undefined;
	}
	const records: TranscriptEntry[] = [];
	try {
		for (const value of parsed.records) {
			const record = parseTranscriptRecord(value);
			if (record.kind === 'session') {
				throw new Error('a session header among the records');
			}
			records.push(record);
		}
	} catch (error) {
		log.warn(`Aside: ignored a fork handoff for ${folder} with a record that is not valid: ${errorMessage(error).slice(0, 300)}`);
		return undefined;
	}
	if (records[0]?.kind !== 'fork') {
		log.warn(`Aside: ignored a fork handoff for ${folder} that does not start with its fork record.`);
		return undefined;
	}
	return { folder: parsed.folder, createdAt: parsed.createdAt, records, report: parsed.report };
}
