// A worktree fork opens in a new window, whose chats live in that workspace's own storage: the
// fork goes over through the global storage (docs/forks.md). The window that made it
// writes a handoff file named by the worktree folder; Aside in the new window reads it at
// activation, imports the records into its own library, makes the fork current and queues the
// restore report. The chat's checkpoints of the copied turns go with it (their paths moved into
// the worktree, their texts in a blob folder beside the file, written first), so Restore works in
// the new window too. A handoff is consumed once (deleted before it is used); a stale or malformed
// one is ignored (and removed) with a log line, and so is one no window took within a day.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { errorMessage } from '../../base/errors';
import type { Logger } from '../../base/log';
import { BlobFolder } from '../../checkpoints/blobs';
import { EntryFields } from '../../checkpoints/manifest';
import type { ChatCheckpoints, CheckpointEntry } from '../../checkpoints/types';
import type { RestoreReport } from '../../reminders/builtin/sessionFork';
import { parseTranscriptRecord, type TranscriptEntry } from '../../transcript/records';
import { plural } from '../../base/words';

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
	/** The fork's checkpoints (paths in the worktree) and where their texts are read. */
	readonly checkpoints?: HandedCheckpoints;
}

export interface HandedCheckpoints {
	readonly entries: readonly CheckpointEntry[];
	readonly text: ChatCheckpoints['text'];
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
	checkpoints: z.array(EntryFields).optional(),
});

/** The handoff file for worktree `folder` in `dir` (the global storage's handoff folder). */
export function handoffPath(dir: string, folder: string): string {
	return join(dir, `${createHash('sha256').update(resolve(folder)).digest('hex').slice(0, 32)}.json`);
}

/** The folder beside a handoff file that holds its checkpoint texts. */
export function handoffBlobsPath(dir: string, folder: string): string {
	return `${handoffPath(dir, folder).slice(0, -'.json'.length)}.blobs`;
}

/**
 * Writes the handoff for its folder: its checkpoint texts first (each read once, one at a time),
 * then the file atomically (temp file + rename), so a handoff is never there without its texts.
 * A text the source store no longer has is left out (a restore there lists it as not kept).
 * Throws when it cannot; then nothing of it is left.
 */
export async function writeHandoff(dir: string, handoff: ForkHandoff): Promise<string> {
	mkdirSync(dir, { recursive: true });
	const folder = resolve(handoff.folder);
	const path = handoffPath(dir, folder);
	const blobsPath = handoffBlobsPath(dir, folder);
	const temp = `${path}.${process.pid}.tmp`;
	try {
		rmSync(blobsPath, { recursive: true, force: true });
		const entries = handoff.checkpoints?.entries ?? [];
		if (handoff.checkpoints && entries.length > 0) {
			const blobs = new BlobFolder(blobsPath);
			const hashes = new Set(entries.flatMap((entry) => [entry.before, entry.after].filter((hash): hash is string => typeof hash === 'string')));
			for (const hash of hashes) {
				const text = await handoff.checkpoints.text(hash);
				if (text !== undefined) {
					await blobs.put(text, hash);
				}
			}
		}
		const { checkpoints: _texts, ...rest } = handoff;
		writeFileSync(temp, JSON.stringify({ v: HANDOFF_VERSION, ...rest, folder, ...(entries.length > 0 ? { checkpoints: entries } : {}) }));
		renameSync(temp, path);
	} catch (error) {
		rmSync(temp, { force: true });
		rmSync(blobsPath, { recursive: true, force: true });
		throw error;
	}
	return path;
}

/** Removes what is left of the handoff for `folder` (its checkpoint texts, once imported). */
export function discardHandoff(dir: string, folder: string): void {
	rmSync(handoffPath(dir, folder), { force: true });
	rmSync(handoffBlobsPath(dir, folder), { recursive: true, force: true });
}

/** Removes the handoffs (and their texts) no window took within HANDOFF_MAX_AGE_MS; returns how many. */
export function sweepHandoffs(dir: string, now: number, log: Logger): number {
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return 0;
	}
	let swept = 0;
	for (const name of names) {
		const path = join(dir, name);
		try {
			if (now - statSync(path).mtimeMs > HANDOFF_MAX_AGE_MS) {
				rmSync(path, { recursive: true, force: true });
				swept++;
			}
		} catch {
			// Taken meanwhile by its window.
		}
	}
	if (swept > 0) {
		log.info(`Aside: removed ${plural(swept, 'fork handoff file')} no window took within a day.`);
	}
	return swept;
}

/**
 * The handoff waiting for workspace folder `folder`, taken: the file is removed first, so it is
 * used once at most; its checkpoint texts stay until discardHandoff() (after they are imported).
 * A missing one is undefined; a stale, malformed or foreign one is removed, logged and undefined.
 */
export function takeHandoff(dir: string, folder: string, now: number, log: Logger): ForkHandoff | undefined {
	const path = handoffPath(dir, folder);
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
			log.warn(`Aside: the fork handoff ${path} could not be read (${errorMessage(error)}); it is ignored.`);
			discardHandoff(dir, folder);
		}
		return undefined;
	}
	rmSync(path, { force: true });
	const ignored = (): undefined => {
		rmSync(handoffBlobsPath(dir, folder), { recursive: true, force: true });
		return undefined;
	};
	let parsed: z.infer<typeof HandoffFile>;
	try {
		parsed = HandoffFile.parse(JSON.parse(text));
	} catch (error) {
		log.warn(`Aside: ignored a malformed fork handoff for ${folder}: ${errorMessage(error).slice(0, 300)}`);
		ignored(); return;
	}
	if (resolve(parsed.folder) !== resolve(folder)) {
		log.warn(`Aside: ignored a fork handoff for another folder (${parsed.folder}).`);
		ignored(); return;
	}
	if (now - parsed.createdAt > HANDOFF_MAX_AGE_MS || parsed.createdAt > now + HANDOFF_MAX_AGE_MS) {
		log.warn(`Aside: ignored a stale fork handoff for ${folder} (made ${new Date(parsed.createdAt).toISOString()}).`);
		ignored(); return;
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
		ignored(); return;
	}
	if (records[0]?.kind !== 'fork') {
		log.warn(`Aside: ignored a fork handoff for ${folder} that does not start with its fork record.`);
		ignored(); return;
	}
	const blobs = new BlobFolder(handoffBlobsPath(dir, folder));
	const checkpoints: HandedCheckpoints | undefined = parsed.checkpoints && {
		entries: parsed.checkpoints.map((entry) => ({ ...entry, before: entry.before, after: entry.after })),
		text: (hash) => blobs.get(hash),
	};
	return { folder: parsed.folder, createdAt: parsed.createdAt, records, report: parsed.report, ...(checkpoints ? { checkpoints } : {}) };
}
