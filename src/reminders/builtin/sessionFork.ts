// `session.fork` (docs/forks.md): a fork's provenance, regenerated from its durable
// `fork` record — the source chat and, for a worktree fork, the worktree folder, branch and base
// commit. Sparse: at the fork's first request, then every 20 turns (`aside.reminders.sessionFork.
// interval`). The one-time restore report of a worktree fork (what Aside restored into the
// worktree, what it could not, the paths that stay shared) rides the pending FIFO under the same
// key: it is enqueued at fork time and goes with the first request; a restart before then drops
// it (the FIFO is in memory), and the provenance still says the durable facts.
import type { ForkRecord } from '../../transcript/historyMarkers';
import { entryOf, rosterDefinition } from '../declaration';
import type { ReminderDefinition, StagedEntry } from '../definition';
import { sanitizeUntrusted } from '../envelope';
import { SESSION_FORK } from './catalog';

/** Paths the restore report lists at most per group; the rest are counted. */
export const MAX_REPORTED_PATHS = 50;

/** The provenance body of a fork, from its record alone. */
export function forkProvenance(fork: ForkRecord): string {
	const title = sanitizeUntrusted(fork.source.title);
	const lines = [
		`This chat is a fork of the chat "${title}" (id ${fork.source.id}), made on ${new Date(fork.at).toISOString().replace(/\.\d+Z$/, 'Z')}: its history up to the fork point is a copy of that chat's, up to and including the turn the person forked from. From there the two chats go separate ways: nothing done in one is in the other's history.`,
	];
	if (fork.worktree) {
		const { folder, branch, base } = fork.worktree;
		lines.push(
			`It works in its own git worktree: folder ${sanitizeUntrusted(folder)}, on the new branch ${sanitizeUntrusted(branch)}, started from commit ${sanitizeUntrusted(base)}. Make your changes there; paths outside that folder are shared with the source chat's workspace, and what the source chat changes after the fork is not in this worktree.`,
		);
	}
	return lines.join('\n\n');
}

/** The session roster's `session.fork` for a fork whose record is `fork` (the root's requests only). */
export function sessionFork(fork: ForkRecord): ReminderDefinition {
	return rosterDefinition(SESSION_FORK, {
		scope: 'session',
		trigger: ({ owner }) => owner.kind === 'root',
		content: () => ({ body: forkProvenance(fork), reason: fork.worktree ? 'a worktree fork\'s provenance (interval)' : 'a fork\'s provenance (interval)' }),
	});
}

/** A path the worktree restore could not put back, and why. */
export interface UnrestoredFile {
	readonly path: string;
	readonly why: string;
}

/** What restoring the chat's files into a new worktree did (src/agent/forks/worktreeRestore.ts). */
export interface RestoreReport {
	/** Restored, relative to the repository root. */
	readonly restored: readonly string[];
	/** Inside the repository but not restored (blob gone, could not be written). */
	readonly failed: readonly UnrestoredFile[];
	/** Changed by Aside's tools outside the repository: not in the worktree, still shared. */
	readonly shared: readonly string[];
}

function listed(paths: readonly string[]): string {
	const shown = paths.slice(0, MAX_REPORTED_PATHS).map((path) => `- ${sanitizeUntrusted(path)}`);
	const more = paths.length - shown.length;
	return [...shown, ...(more > 0 ? [`- … and ${more.toLocaleString('en-US')} more`] : [])].join('\n');
}

/** The one-time restore report of a worktree fork, for the pending FIFO. */
export function restoreReport(report: RestoreReport, folder: string): StagedEntry {
	const parts: string[] = [];
	const count = (n: number, one: string, many: string): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
	if (report.restored.length === 0 && report.failed.length === 0 && report.shared.length === 0) {
		parts.push(`The worktree ${sanitizeUntrusted(folder)} was made from its base commit as it is: Aside's tools had changed no file in this chat up to the fork point, so nothing was restored into it.`);
	} else {
		parts.push(
			`When the worktree ${sanitizeUntrusted(folder)} was made from its base commit, Aside put back into it the files its own tools had changed in this chat up to the fork point (their text as of the fork point, at the same path in the repository). Changes made by commands (Run) or outside Aside were not tracked and are not in the worktree.`,
		);
		if (report.restored.length > 0) {
			parts.push(`${count(report.restored.length, 'file was restored', 'files were restored')}:\n${listed(report.restored)}`);
		}
		if (report.failed.length > 0) {
			parts.push(`${count(report.failed.length, 'file could not be restored', 'files could not be restored')}; in the worktree each is as the base commit has it:\n${listed(report.failed.map((file) => `${file.path} (${file.why})`))}`);
		}
		if (report.shared.length > 0) {
			parts.push(`${count(report.shared.length, 'changed path is', 'changed paths are')} outside the repository and so outside the worktree: shared with the source chat's workspace, not copied:\n${listed(report.shared)}`);
		}
	}
	return { ...entryOf(SESSION_FORK), body: parts.join('\n\n'), reason: 'the worktree fork\'s restore report, once, at its first request' };
}
