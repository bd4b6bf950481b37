// What a Restore… would do to the files, before anything happens: from a chat's
// checkpoints and the message to go back to, each file Aside's tools changed from that message's
// turn on, what it goes back to (the text before its earliest change from there on), what Aside
// last wrote there, and the file as it is now. A file the person changed since Aside's last write
// is never overwritten without them saying so; a file Aside created is deleted only when it is
// still what Aside wrote. Pure: the files come in through a port, as the editor has them.
import { createHash } from 'node:crypto';
import { RESTORED_FILE_ACTIONS } from '../vocabulary/restore';
import { unifiedDiff } from '../tools/diff';
import { isInside } from '../tools/paths';
import type { CheckpointEntry, ChatCheckpoints, ContentHash } from './types';

/**
 * What restoring does with one file:
 * - `change`: put back as it was (Aside modified it);
 * - `recreate`: Aside deleted it, it comes back;
 * - `delete`: Aside created it and it is still what Aside wrote;
 * - `keep`: Aside created it, but it changed since: listed, kept;
 * - `person-changed`: changed since Aside's last write (by the person, or anything but Aside's tools): left as it is unless they choose to overwrite;
 * - `missing`: the text it would go back to is no longer kept: it cannot be restored;
 * - `outside`: it is in no workspace folder now (a folder was removed, or a folder on its way is a symbolic link that leads out of them): refused.
 */
export const RESTORE_ACTIONS = RESTORED_FILE_ACTIONS;
export type RestoreAction = (typeof RESTORE_ACTIONS)[number];

/** The file as the editor has it (an open, unsaved document wins over the disk), and the workspace folders. */
export interface CurrentFiles {
	/** Undefined: no such file. */
	read(path: string): Promise<string | undefined>;
	readonly roots: readonly string[];
	/** Whether the path really lands in a workspace folder, symbolic links followed (src/tools/realPlace.ts); without it, by its text alone. */
	inside?(path: string): Promise<boolean>;
}

export interface PlannedFile {
	readonly path: string;
	readonly shown: string;
	readonly action: RestoreAction;
	/** The text now; null: it does not exist. */
	readonly now: string | null;
	/** What it goes back to; null: it did not exist (or, for `missing`, unknown). */
	readonly target: string | null;
	/** For `person-changed`: what overwriting does. */
	readonly overwrite?: 'change' | 'recreate';
	/** The diff from now to the restored text (empty for `keep`, `missing`, `outside`). */
	readonly diff: string;
}

export interface RestorePlan {
	/** Every file that would change, be recreated, deleted, kept or refused, in the order first changed. */
	readonly files: readonly PlannedFile[];
}

/** Past this many characters on either side a file's diff is not computed (jsdiff's cost grows fast): it says the size instead. */
export const MAX_PREVIEW_DIFF_CHARS = 512 * 1024;

/** The name of a text as the checkpoint store gives it. */
export function hashOf(text: string): ContentHash {
	return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The entries a restore to before the turns `turnIds` undoes: every one of those turns (and so of every later one: the caller names them all). */
export function entriesFrom(entries: readonly CheckpointEntry[], turnIds: ReadonlySet<string>): CheckpointEntry[] {
	return entries.filter((entry) => turnIds.has(entry.turnId));
}

function previewDiff(shown: string, before: string | null, after: string | null): string {
	const a = before ?? '';
	const b = after ?? '';
	if (a.length > MAX_PREVIEW_DIFF_CHARS || b.length > MAX_PREVIEW_DIFF_CHARS) {
		return `${shown}: changed, ${Buffer.byteLength(a, 'utf8').toLocaleString('en-US')} → ${Buffer.byteLength(b, 'utf8').toLocaleString('en-US')} bytes (too large to show as a diff).\n`;
	}
	return unifiedDiff(before === null ? '/dev/null' : shown, after === null ? '/dev/null' : shown, a, b);
}

/** The plan for one file from its first and last entry from the restore point on. */
async function planFile(first: CheckpointEntry, last: CheckpointEntry, checkpoints: ChatCheckpoints, files: CurrentFiles): Promise<PlannedFile | undefined> {
	const { path, shown } = last;
	if (!files.roots.some((root) => isInside(path, root)) || (files.inside && !(await files.inside(path)))) {
		return { path, shown, action: 'outside', now: null, target: null, diff: '' };
	}
	const now = (await files.read(path)) ?? null;
	const nowHash = now === null ? null : hashOf(now);
	if (nowHash === first.before) {
		// Already as it was: nothing to do, nothing to list.
		return undefined;
	}
	// A last write whose new text was never kept (after unknown) cannot be told from a later edit: as changed since.
	const changedSince = nowHash !== last.after;
	if (first.before === null) {
		// Aside created it: deleted only while it is what Aside wrote last.
		if (now === null) {
			return undefined;
		}
		return changedSince ? { path, shown, action: 'keep', now, target: now, diff: '' } : { path, shown, action: 'delete', now, target: null, diff: previewDiff(shown, now, null) };
	}
	// Not known (its copy was lost before it was kept) or gone: the earlier content cannot come back.
	const target = first.before === undefined ? undefined : await checkpoints.text(first.before);
	if (target === undefined) {
		return { path, shown, action: 'missing', now, target: null, diff: '' };
	}
	const diff = previewDiff(shown, now, target);
	const restoring = now === null ? 'recreate' : 'change';
	if (changedSince) {
		return { path, shown, action: 'person-changed', overwrite: restoring, now, target, diff };
	}
	return { path, shown, action: restoring, now, target, diff };
}

/**
 * The plan for a restore that undoes `entries` (the chat's entries from the restore point on, in
 * the order they were made): one line per file, by its earliest and latest entry.
 */
export async function planRestore(entries: readonly CheckpointEntry[], checkpoints: ChatCheckpoints, files: CurrentFiles): Promise<RestorePlan> {
	const byPath = new Map<string, { first: CheckpointEntry; last: CheckpointEntry }>();
	for (const entry of entries) {
		const known = byPath.get(entry.path);
		if (known) {
			known.last = entry;
		} else {
			byPath.set(entry.path, { first: entry, last: entry });
		}
	}
	const planned = await Promise.all([...byPath.values()].map(({ first, last }) => planFile(first, last, checkpoints, files)));
	return { files: planned.filter((file): file is PlannedFile => file !== undefined) };
}

/** Whether applying `file` writes it (a person-changed one only when they chose to overwrite those). */
export function writes(file: PlannedFile, overwriteChanged: boolean): boolean {
	return file.action === 'change' || file.action === 'recreate' || file.action === 'delete' || (file.action === 'person-changed' && overwriteChanged);
}
