// Fork from here (docs/forks.md): a user row's Fork (`fork.create`), here or in a new git worktree.
// The forking itself is the window's (src/agent/forks.ts: the sessions copy the history and the
// checkpoints); the session.fork reminder tells the model of a fork it wakes up in.
import type { ForkControls } from '../../view/controls';
import type { ChatFeature } from '../feature';
import { ForkPart } from './forkView';

declare module '../../agent/chatFeature' {
	interface FeatureServices {
		/** Forks the current chat; absent where the window offers no forks. */
		readonly forks?: ForkControls;
	}
}

export const FORK: ChatFeature = {
	id: 'fork',
	view: (window) => new ForkPart(window.services.forks, window.log),
};
