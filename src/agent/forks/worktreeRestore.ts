// A new worktree starts from its base commit; the chat's files as of the fork point are put back
// into it from the checkpoints (docs/forks.md): each file Aside's tools changed in the
// copied turns, with its latest `after` text, at the same path relative to the repository root. A
// file the chat deleted is deleted there too. What cannot be put back — a blob the store no longer
// has, a write that fails — is listed; a path outside the repository is not the worktree's at all
// and stays shared. Only files Aside's tools touched are known: a Run's side effects are not.
// The base commit may hold symbolic links: a path whose real place (through its nearest existing
// folder) is outside the worktree is skipped and listed, never written or deleted.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { errorMessage } from '../../base/errors';
import type { ChatCheckpoints, CheckpointEntry } from '../../checkpoints/types';
import { realPathOnDisk, realPlaceInside } from '../../tools/realPlace';
import type { RestoreReport, UnrestoredFile } from '../../reminders/builtin/sessionFork';

/** Each path's last change in the copied turns, in the order the paths were first changed. */
export function latestChanges(entries: readonly CheckpointEntry[], turnIds: ReadonlySet<string>): CheckpointEntry[] {
	const latest = new Map<string, CheckpointEntry>();
	for (const entry of entries) {
		if (turnIds.has(entry.turnId)) {
			latest.delete(entry.path);
			latest.set(entry.path, entry);
		}
	}
	return [...latest.values()].sort((a, b) => a.at - b.at);
}

/** `path` relative to the repository `root`, with `/`; undefined when it is outside it. */
export function insideRepository(root: string, path: string): string | undefined {
	const rel = relative(root, path);
	if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) {
		return undefined;
	}
	return rel.split(sep).join('/');
}

/**
 * The fork's own checkpoints in the worktree's window: the copied turns' entries, each file of the
 * repository at its path in `worktree` (shown relative to it, the new window's folder), so a
 * Restore there puts back the worktree's files, never the original's. A path outside the
 * repository is shared and stays as it is; one inside `.git` is never restored and is left out.
 */
export function worktreeEntries(entries: readonly CheckpointEntry[], turnIds: ReadonlySet<string>, root: string, worktree: string): CheckpointEntry[] {
	return entries.flatMap((entry) => {
		if (!turnIds.has(entry.turnId)) {
			return [];
		}
		const rel = insideRepository(root, entry.path);
		if (rel === undefined) {
			return [entry];
		}
		if (rel === '.git' || rel.startsWith('.git/')) {
			return [];
		}
		return [{ ...entry, path: join(worktree, ...rel.split('/')), shown: rel }];
	});
}

/** Why a path of the worktree is skipped when its real place is outside it. */
export const LEADS_OUTSIDE = 'it leads out of the worktree through a symbolic link, so it was skipped';

/** The worktree's files as the confinement check needs them: real paths, and the names in a folder (a dangling link has a name but no real path). */
const worktreeFs = {
	realPath: realPathOnDisk,
	async readDirectory(path: string) {
		const entries = await readdir(path, { withFileTypes: true });
		return entries.map((entry) => ({ name: entry.name, type: entry.isFile() ? ('file' as const) : entry.isDirectory() ? ('directory' as const) : ('other' as const) }));
	},
};

/** Puts the chat's files as of the fork point into `worktree` (a worktree of the repository at `root`). */
export async function restoreIntoWorktree(
	checkpoints: ChatCheckpoints | undefined,
	turnIds: ReadonlySet<string>,
	root: string,
	worktree: string,
): Promise<RestoreReport> {
	const restored: string[] = [];
	const failed: UnrestoredFile[] = [];
	const shared: string[] = [];
	for (const entry of latestChanges(checkpoints?.entries() ?? [], turnIds)) {
		const rel = insideRepository(root, entry.path);
		if (rel === undefined) {
			shared.push(entry.path);
			continue;
		}
		if (rel === '.git' || rel.startsWith('.git/')) {
			failed.push({ path: rel, why: 'inside .git, never restored' });
			continue;
		}
		const target = join(worktree, ...rel.split('/'));
		try {
			if (!(await realPlaceInside(target, [worktree], worktreeFs))) {
				failed.push({ path: rel, why: LEADS_OUTSIDE });
				continue;
			}
			if (entry.after === null) {
				await rm(target, { force: true });
				restored.push(rel);
				continue;
			}
			if (entry.after === undefined) {
				failed.push({ path: rel, why: 'its new content was not kept (the window closed before it was)' });
				continue;
			}
			const text = await checkpoints?.text(entry.after);
			if (text === undefined) {
				failed.push({ path: rel, why: 'its kept text is gone from the checkpoint store' });
				continue;
			}
			await mkdir(dirname(target), { recursive: true });
			await writeFile(target, text, 'utf8');
			restored.push(rel);
		} catch (error) {
			failed.push({ path: rel, why: `could not be written: ${errorMessage(error)}` });
		}
	}
	return { restored, failed, shared };
}
