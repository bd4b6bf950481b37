// "Fork from here" (docs/forks.md): a new chat with the history of the current one up to
// and including a root message's turn, made current; the source stays as it was. Its checkpoints
// of the copied turns go with it (so Restore works in the fork too). A fork in a new git worktree
// is the WorktreeForks port's (src/vscode/worktreeFork.ts): it asks the person, makes the worktree
// and opens it in a new window, where the fork is handed over.
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { CheckpointStore } from '../checkpoints/types';
import { ForkRefused } from './forkHistory';
import type { ChatSessions } from './sessions';

/** Where the fork goes, as the person chose. */
export type ForkPlace = 'here' | 'worktree';

/** The worktree side of forking, in VS Code (dialogs, git, a new window). */
export interface WorktreeForks {
	/** Whether a worktree fork is offered now: a workspace folder is in a git repository. */
	offered(): Promise<boolean>;
	/** Asks whether to fork here or in a new worktree; undefined: the person cancelled. */
	choosePlace(): Promise<ForkPlace | undefined>;
	/** Forks the current chat from `from` into a new worktree (asking branch, base, folder); resolves with why not, or undefined when done or cancelled. */
	fork(from: string, running: string | undefined): Promise<string | undefined>;
}

export interface ChatForksOptions {
	readonly sessions: ChatSessions;
	/** The root turn running now in chat `sessionId`, if any. */
	readonly runningTurn: (sessionId: string) => string | undefined;
	readonly checkpoints?: CheckpointStore | undefined;
	readonly worktrees?: WorktreeForks | undefined;
	readonly log: Logger;
}

export class ChatForks {
	constructor(private readonly options: ChatForksOptions) {}

	/**
	 * Forks the current chat from its root message `from`. `worktree`: true, in a new git worktree;
	 * false, here; absent, the person is asked when a worktree is offered. Resolves with why it
	 * could not be made (for the chat to say), or undefined.
	 */
	async fork(from: string, worktree?: boolean): Promise<string | undefined> {
		const { sessions, worktrees } = this.options;
		const running = this.options.runningTurn(sessions.current.id);
		let place: ForkPlace = worktree === true ? 'worktree' : 'here';
		if (worktree === undefined && worktrees && (await worktrees.offered())) {
			const chosen = await worktrees.choosePlace();
			if (chosen === undefined) {
				return undefined;
			}
			place = chosen;
		}
		if (place === 'worktree') {
			if (!worktrees) {
				return 'A fork in a git worktree is not available here.';
			}
			return worktrees.fork(from, running);
		}
		return this.forkHere(from, running);
	}

	private async forkHere(from: string, running: string | undefined): Promise<string | undefined> {
		const { sessions, checkpoints, log } = this.options;
		let made;
		try {
			made = sessions.fork(from, running);
		} catch (error) {
			if (!(error instanceof ForkRefused)) {
				log.error(`Aside: could not fork chat ${sessions.current.id}: ${errorMessage(error)}`);
			}
			return error instanceof ForkRefused ? error.message : `Could not fork the chat: ${errorMessage(error)}`;
		}
		if (checkpoints) {
			try {
				await checkpoints.copyChat(made.record.source.id, made.session.id, made.prefix.turnIds);
			} catch (error) {
				// The fork stands; only Restore of its copied turns is lost.
				log.warn(`Aside: the checkpoints of chat ${made.record.source.id} could not be copied to its fork ${made.session.id}: ${errorMessage(error)}`);
				return `The chat was forked, but its checkpoints could not be copied: Restore does not reach the copied messages in the fork (${errorMessage(error)}).`;
			}
		}
		return undefined;
	}
}
