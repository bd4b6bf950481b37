// One chat's checkpoints on disk: `chats/<sessionId>.jsonl`, append-only, one CheckpointEntry a
// line. Read with zod: a damaged line (a torn append, a hand edit) is skipped and logged, and the
// lines around it stand.
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import * as z from 'zod';
import type { Logger } from '../base/log';
import type { CheckpointEntry } from './types';

const Hash = z.string().regex(/^[0-9a-f]{64}$/);

const EntryLine = z.object({
	turnId: z.string().min(1),
	at: z.number(),
	path: z.string().min(1),
	shown: z.string(),
	before: Hash.nullable(),
	after: Hash.nullable(),
});

/** A session id as a file name: the ids Aside makes (UUIDs) and nothing that could leave the folder. */
const SESSION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export function requireSessionId(sessionId: string): string {
	if (!SESSION_ID.test(sessionId)) {
		throw new Error(`Not a chat id Aside keeps checkpoints for: ${JSON.stringify(sessionId.slice(0, 40))}.`);
	}
	return sessionId;
}

export function manifestName(sessionId: string): string {
	return `${requireSessionId(sessionId)}.jsonl`;
}

/** The session id a manifest's file name stands for, or undefined for any other file. */
export function sessionOfManifest(name: string): string | undefined {
	if (!name.endsWith('.jsonl')) {
		return undefined;
	}
	const id = name.slice(0, -'.jsonl'.length);
	return SESSION_ID.test(id) ? id : undefined;
}

export function serializeEntries(entries: readonly CheckpointEntry[]): string {
	return entries.map((entry) => `${JSON.stringify({ turnId: entry.turnId, at: entry.at, path: entry.path, shown: entry.shown, before: entry.before, after: entry.after })}\n`).join('');
}

/** The entries of a manifest's text, in order; each damaged line is skipped and logged once. */
export function parseEntries(text: string, name: string, log: Logger): CheckpointEntry[] {
	const entries: CheckpointEntry[] = [];
	const lines = text.split('\n');
	for (const [index, line] of lines.entries()) {
		if (line.trim() === '') {
			continue;
		}
		let parsed: unknown;
		try {
			parsed = JSON.parse(line);
		} catch {
			parsed = undefined;
		}
		const entry = EntryLine.safeParse(parsed);
		if (entry.success) {
			entries.push(entry.data);
		} else {
			log.warn(`Aside: checkpoints ${name} line ${index + 1} is damaged and was skipped (the other lines stand).`);
		}
	}
	return entries;
}

/** Reads a manifest; a missing one is an empty chat. */
export function readManifest(path: string, name: string, log: Logger): CheckpointEntry[] {
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
			log.warn(`Aside: could not read checkpoints ${name}: ${(error as Error).message}`);
		}
		return [];
	}
	return parseEntries(text, name, log);
}

/**
 * Appends entries as whole lines, in one write. A line torn by a crash mid-append is one damaged
 * line; a newline first (when the file does not end in one) keeps it from swallowing the next.
 */
export function appendEntries(path: string, entries: readonly CheckpointEntry[]): void {
	const fd = openSync(path, 'a+');
	try {
		const { size } = fstatSync(fd);
		const last = Buffer.alloc(1);
		const torn = size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
		writeSync(fd, (torn ? '\n' : '') + serializeEntries(entries));
	} finally {
		closeSync(fd);
	}
}
