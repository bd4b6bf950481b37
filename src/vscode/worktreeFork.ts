// A fork in a new git worktree, VS Code's side (docs/forks.md): offered only when a
// workspace folder is in a git repository (real git, never the Git extension); the person picks
// the repository (when there are several), names the new branch, picks the base commit and the
// folder — each step a QuickPick or InputBox that Escape cancels, with nothing made until the
// last. Then the worktree is made, the chat's files restored into it, the fork handed over through
// the global storage, and the worktree opened in a new window, where the fork is the current chat.
import * as vscode from 'vscode';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { CheckpointStore } from '../checkpoints/types';
import { ForkRefused } from '../agent/forkHistory';
import type { ForkPlace, WorktreeForks } from '../agent/forks';
import { branchProblem, GitError, recentBases, removeWorktree, repositoryRoot } from '../agent/forks/git';
import { discardHandoff, sweepHandoffs, takeHandoff, writeHandoff } from '../agent/forks/handoff';
import { adoptHandoff, defaultWorktreeFolder, folderProblem, makeWorktreeFork, type WorktreeChoice } from '../agent/forks/worktreeFork';
import type { ChatSessions } from '../agent/sessions';
import { plural } from '../base/words';

/** Where handoffs wait, in the global storage. */
export function handoffDir(globalStorage: vscode.Uri): string {
	return vscode.Uri.joinPath(globalStorage, 'fork-handoffs').fsPath;
}

function workspaceFolders(): string[] {
	return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
}

/** The repositories of the workspace folders, each once. */
async function repositories(): Promise<string[]> {
	const roots = await Promise.all(workspaceFolders().map((folder) => repositoryRoot(folder)));
	return [...new Set(roots.filter((root): root is string => root !== undefined))];
}

export interface VsCodeWorktreeForksOptions {
	readonly sessions: ChatSessions;
	readonly checkpoints?: CheckpointStore | undefined;
	readonly globalStorage: vscode.Uri;
	readonly log: Logger;
}

export class VsCodeWorktreeForks implements WorktreeForks {
	constructor(private readonly options: VsCodeWorktreeForksOptions) {}

	async offered(): Promise<boolean> {
		return (await repositories()).length > 0;
	}

	async choosePlace(): Promise<ForkPlace | undefined> {
		const picked = await vscode.window.showQuickPick(
			[
				{ label: '$(comment-discussion) Fork in this window', description: 'a new chat here, with the history up to this message', place: 'here' as const },
				{ label: '$(git-branch) Fork in a new git worktree…', description: 'a new branch in its own folder, opened in a new window', place: 'worktree' as const },
			],
			{ title: 'Fork from here', placeHolder: 'Where should the fork go?' },
		);
		return picked?.place;
	}

	async fork(from: string, running: string | undefined): Promise<string | undefined> {
		try {
			// Refused before anything is asked: a message that cannot be forked.
			this.options.sessions.forkRecords(from, running);
			const choice = await this.choose();
			if (!choice) {
				return undefined;
			}
			return await this.make(from, running, choice, 'new-window');
		} catch (error) {
			return this.refusal(error);
		}
	}

	/**
	 * Makes the worktree fork for `choice` without asking; `open`: in a new window (handed over), or
	 * here (the test hooks: the handoff is written and taken back in this window, as the new window would).
	 */
	async make(from: string, running: string | undefined, choice: WorktreeChoice, open: 'new-window' | 'here'): Promise<string | undefined> {
		const { sessions, checkpoints, log, globalStorage } = this.options;
		const handoff = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Aside: making the worktree ${choice.folder}…` }, () => makeWorktreeFork({ sessions, checkpoints, now: () => Date.now() }, from, running, choice));
		const dir = handoffDir(globalStorage);
		try {
			await writeHandoff(dir, handoff);
		} catch (error) {
			// Without its handoff the worktree's window would open without the fork: take it back.
			await removeWorktree(choice.root, handoff.folder, choice.branch);
			throw new GitError(`The fork could not be handed to the worktree's window (${errorMessage(error)}); the worktree was removed again.`);
		}
		log.info(`Aside: made the worktree ${handoff.folder} (branch ${choice.branch}); ${plural(handoff.report.restored.length, 'file')} restored, ${handoff.report.failed.length} not, ${handoff.report.shared.length} shared.`);
		if (open === 'here') {
			const taken = takeHandoff(dir, handoff.folder, Date.now(), log);
			if (taken) {
				await adoptHandoff(sessions, taken, checkpoints, log);
				discardHandoff(dir, handoff.folder);
			}
			return undefined;
		}
		await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(handoff.folder), { forceNewWindow: true });
		return undefined;
	}

	private refusal(error: unknown): string {
		if (error instanceof ForkRefused || error instanceof GitError) {
			return error.message;
		}
		this.options.log.error(`Aside: could not fork the chat into a worktree: ${errorMessage(error)}`);
		return `Could not fork the chat into a worktree: ${errorMessage(error)}`;
	}

	/** The dialogs, in order; undefined as soon as one is cancelled. */
	private async choose(): Promise<WorktreeChoice | undefined> {
		const repos = await repositories();
		const root = repos.length === 1 ? repos[0] : (await vscode.window.showQuickPick(repos, { title: 'Fork in a new git worktree (1/4)', placeHolder: 'Which repository?' }));
		if (root === undefined) {
			return undefined;
		}
		const branch = await vscode.window.showInputBox({
			title: 'Fork in a new git worktree: the new branch',
			prompt: 'A new branch, made from the base commit you choose next',
			placeHolder: 'aside/try-another-way',
			validateInput: (value) => branchProblem(root, value.trim()),
		});
		if (branch === undefined) {
			return undefined;
		}
		const base = await this.chooseBase(root);
		if (base === undefined) {
			return undefined;
		}
		const folder = await vscode.window.showInputBox({
			title: 'Fork in a new git worktree: its folder',
			prompt: 'Where the worktree goes: outside the workspace folder, a folder that does not exist yet',
			value: defaultWorktreeFolder(root, branch.trim()),
			validateInput: (value) => folderProblem(value.trim(), workspaceFolders()),
		});
		return folder === undefined ? undefined : { root, branch: branch.trim(), base, folder: folder.trim() };
	}

	private async chooseBase(root: string): Promise<string | undefined> {
		const OTHER = '$(edit) Another commit…';
		const bases = await recentBases(root);
		const picked = await vscode.window.showQuickPick(
			[...bases.map((base) => ({ label: base.label, description: base.detail, revision: base.revision })), { label: OTHER, description: 'a hash, tag or branch name', revision: '' }],
			{ title: 'Fork in a new git worktree: the base commit', placeHolder: 'HEAD, a branch or a recent commit', matchOnDescription: true },
		);
		if (picked === undefined) {
			return undefined;
		}
		if (picked.label !== OTHER) {
			return picked.revision;
		}
		const typed = await vscode.window.showInputBox({ title: 'Fork in a new git worktree: the base commit', prompt: 'A commit hash, tag or branch name', value: 'HEAD' });
		return typed?.trim() || undefined;
	}
}

/**
 * At activation: the fork another window handed to this worktree, if one waits, becomes the
 * current chat, with its checkpoints in this window's store; handoffs no window took within a day
 * are removed.
 */
export async function adoptWaitingFork(
	globalStorage: vscode.Uri,
	sessions: ChatSessions,
	checkpoints: CheckpointStore | undefined,
	log: Logger,
): Promise<void> {
	const dir = handoffDir(globalStorage);
	sweepHandoffs(dir, Date.now(), log);
	const [folder] = workspaceFolders();
	if (folder === undefined) {
		return;
	}
	try {
		const handoff = takeHandoff(dir, folder, Date.now(), log);
		if (handoff) {
			const session = await adoptHandoff(sessions, handoff, checkpoints, log);
			log.info(`Aside: opened the fork handed over for this worktree, chat ${session.id} (${handoff.checkpoints?.entries.length ?? 0} checkpoint entries).`);
		}
	} catch (error) {
		log.error(`Aside: could not open the fork handed over for this worktree: ${errorMessage(error)}`);
	} finally {
		discardHandoff(dir, folder);
	}
}
