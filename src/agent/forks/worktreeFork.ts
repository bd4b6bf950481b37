// A fork in a new git worktree (docs/forks.md), once the person chose the repository,
// the new branch, the base commit and the folder: the worktree is made with real git, the chat's
// files as of the fork point are restored into it, and the fork's records and restore report are
// what the new window is handed (handoff.ts). Nothing half made is left behind: a failure after
// the worktree was made removes it (and its branch) again.
import { dirname, basename, join, relative, resolve, isAbsolute, sep } from 'node:path';
import { errorMessage } from '../../base/errors';
import type { Logger } from '../../base/log';
import type { CheckpointStore } from '../../checkpoints/types';
import { restoreReport } from '../../reminders/builtin/sessionFork';
import type { ChatSession } from '../session';
import type { ChatSessions } from '../sessions';
import { addWorktree, commitOf, removeWorktree } from './git';
import type { ForkHandoff } from './handoff';
import { restoreIntoWorktree, worktreeEntries } from './worktreeRestore';

/** What the person chose for a worktree fork. */
export interface WorktreeChoice {
	/** The repository's top folder. */
	readonly root: string;
	/** The new branch. */
	readonly branch: string;
	/** A revision naming the base commit (HEAD, a branch, a hash). */
	readonly base: string;
	/** Where the worktree goes (absolute; it must not exist). */
	readonly folder: string;
}

/** The default folder of a worktree for `branch`: beside the repository, `<repo>-worktrees/<branch>` (a branch's slashes become dashes). */
export function defaultWorktreeFolder(root: string, branch: string): string {
	return join(dirname(root), `${basename(root)}-worktrees`, branch.replace(/[/\\]+/g, '-'));
}

/** Why `folder` cannot take a new worktree given the workspace folders, or undefined. */
export function folderProblem(folder: string, workspaceFolders: readonly string[]): string | undefined {
	if (!isAbsolute(folder)) {
		return 'Give an absolute folder.';
	}
	for (const workspace of workspaceFolders) {
		const rel = relative(resolve(workspace), resolve(folder));
		if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))) {
			return `The worktree cannot go inside the workspace folder ${workspace}: choose a folder outside it.`;
		}
	}
	return undefined;
}

export interface WorktreeForkDeps {
	readonly sessions: ChatSessions;
	readonly checkpoints?: CheckpointStore | undefined;
	readonly now: () => number;
}

/**
 * Makes the worktree and the fork's records for it (the current chat, from its root message
 * `from`), restoring the chat's files into it. Throws ForkRefused before anything is made for a
 * message that cannot be forked, GitError when git refuses.
 */
export async function makeWorktreeFork(deps: WorktreeForkDeps, from: string, running: string | undefined, choice: WorktreeChoice): Promise<ForkHandoff> {
	const { sessions } = deps;
	const source = sessions.current;
	sessions.forkRecords(from, running);
	const base = await commitOf(choice.root, choice.base);
	const folder = resolve(choice.folder);
	await addWorktree(choice.root, choice.branch, folder, base);
	try {
		const { records, prefix } = sessions.forkRecords(from, running, { folder, branch: choice.branch, base });
		await deps.checkpoints?.settled();
		const checkpoints = deps.checkpoints?.chat(source.id);
		const report = await restoreIntoWorktree(checkpoints, prefix.turnIds, choice.root, folder);
		// The worktree's window restores the worktree's files: the entries go over with their paths there.
		const handed = checkpoints && {
			entries: worktreeEntries(checkpoints.entries(), prefix.turnIds, choice.root, folder),
			text: (hash: string) => checkpoints.text(hash),
		};
		return { folder, createdAt: deps.now(), records, report, ...(handed && handed.entries.length > 0 ? { checkpoints: handed } : {}) };
	} catch (error) {
		await removeWorktree(choice.root, folder, choice.branch);
		throw error;
	}
}

/**
 * The handed-over fork, imported into this window's library and made current, its restore report
 * queued for its first request, its checkpoints imported into this window's store (so Restore works
 * on the turns it copied). Checkpoints that cannot be imported are logged; the fork stands without them.
 */
export async function adoptHandoff(sessions: ChatSessions, handoff: ForkHandoff, checkpoints: CheckpointStore | undefined, log: Logger): Promise<ChatSession> {
	const session = sessions.adopt(handoff.records);
	session.reminders.enqueuePending(restoreReport(handoff.report, handoff.folder), true);
	if (checkpoints && handoff.checkpoints) {
		try {
			await checkpoints.importChat(session.id, handoff.checkpoints.entries, handoff.checkpoints.text);
		} catch (error) {
			log.warn(`Aside: the fork's checkpoints could not be imported (${errorMessage(error)}); Restore cannot undo the turns it copied.`);
		}
	}
	return session;
}
