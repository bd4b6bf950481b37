// One chat's checkpoints on disk: `chats/<sessionId>.jsonl`, append-only, one CheckpointEntry a
// line. Before the write only what is known without hashing goes in: an entry whose previous text
// was copied aside unhashed (pending.ts) or whose new text is still to be kept has no `before` or
// `after` but an `id`; just after the write, `{"settles": id, "before": hash, "after": hash}`
// gives them once those texts are kept (afterWrite.ts). What no line settles is not known.
// Read with zod: a damaged line (a torn append, a hand edit) is skipped and logged, and the lines
// around it stand.
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import * as z from 'zod';
import type { Logger } from '../base/log';
import type { CheckpointEntry, ContentHash } from './types';

const Hash = z.string().regex(/^[0-9a-f]{64}$/);

/** An entry's fields; a text's hash absent: not known (the handoff of a worktree fork reads entries with it too). */
export const EntryFields = z.object({
	turnId: z.string().min(1),
	at: z.number(),
	path: z.string().min(1),
	shown: z.string(),
	before: Hash.nullable().optional(),
	after: Hash.nullable().optional(),
});

/** A manifest line: one whose texts are not all known has an `id` its settle line names. */
const EntryLine = EntryFields.extend({
	id: z.string().min(1).max(64).optional(),
});

const SettleLine = z.object({
	settles: z.string().min(1).max(64),
	before: Hash.optional(),
	after: Hash.optional(),
});

/** What a settle line gives an entry: the hashes of its texts kept after the write. */
export interface Settled {
	readonly before?: ContentHash;
	readonly after?: ContentHash;
}

/** A line's `id`: an entry written before its new text is kept, to be settled by a later line. */
export function pendingId(): string {
	return randomBytes(8).toString('hex');
}

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

/** An entry as it goes into a manifest: a settled one whole; one whose `after` is not known (yet) with `id` (a new one when none is given). */
export interface ManifestLine {
	readonly entry: CheckpointEntry;
	readonly id?: string;
}

export function serializeEntries(lines: readonly (CheckpointEntry | ManifestLine)[]): string {
	return lines
		.map((line) => {
			const { entry, id } = 'entry' in line ? line : { entry: line, id: undefined };
			const { turnId, at, path, shown, before, after } = entry;
			const known = before !== undefined && after !== undefined;
			// JSON leaves an undefined field out: what is not known is absent.
			return `${JSON.stringify({ turnId, at, path, shown, before, after, ...(known ? {} : { id: id ?? pendingId() }) })}\n`;
		})
		.join('');
}

/** The entries of a manifest's text, in order, each settled by its settle line; each damaged line is skipped and logged once. */
export function parseEntries(text: string, name: string, log: Logger): CheckpointEntry[] {
	const entries: CheckpointEntry[] = [];
	/** Where each entry waiting for its settle line is. */
	const waiting = new Map<string, number>();
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
		const settle = SettleLine.safeParse(parsed);
		if (settle.success) {
			const at = waiting.get(settle.data.settles);
			const entry = at === undefined ? undefined : entries[at];
			if (at !== undefined && entry) {
				// A change may be settled in two lines (its new text just after the write, its previous one recovered after a crash).
				entries[at] = {
					...entry,
					before: entry.before !== undefined ? entry.before : settle.data.before,
					after: entry.after !== undefined ? entry.after : settle.data.after,
				};
			}
			// A settle line whose entry is damaged or gone settles nothing.
			continue;
		}
		const entry = EntryLine.safeParse(parsed);
		if (entry.success && ((entry.data.before !== undefined && entry.data.after !== undefined) || entry.data.id !== undefined)) {
			const { id, before, after, ...rest } = entry.data;
			if (id !== undefined) {
				waiting.set(id, entries.length);
			}
			entries.push({ ...rest, before, after });
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
export function appendEntries(path: string, lines: readonly (CheckpointEntry | ManifestLine)[]): void {
	appendText(path, serializeEntries(lines));
}

/** Appends the line that settles entry `id`: the texts kept after the write. */
export function appendSettle(path: string, id: string, settled: Settled): void {
	appendText(path, `${JSON.stringify({ settles: id, ...settled })}\n`);
}

function appendText(path: string, text: string): void {
	const fd = openSync(path, 'a+');
	try {
		const { size } = fstatSync(fd);
		const last = Buffer.alloc(1);
		const torn = size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
		writeSync(fd, (torn ? '\n' : '') + text);
	} finally {
		closeSync(fd);
	}
}
