// Restore… (docs/usage.md, Restoring): files, chat or both back to before a message, previewed
// first, applied between turns, undoable; the `restore` record itself is the transcript's.
import type { AgentFeature } from '../../agent/chatFeature';
import type { ChatSession } from '../../agent/session';
import type { ChatFeature, FeatureWindow } from '../feature';
import { ChatRestore } from './chatRestore';
import { RestorePart } from './restoreView';

export const RESTORE_STATE: AgentFeature<ChatRestore> = {
	id: 'restore',
	open: (chat) => new ChatRestore(chat),
};

/** `session`'s Restore…, as the window's agent holds it. */
export function restoreOf(window: Pick<FeatureWindow, 'features'>, session: ChatSession): ChatRestore {
	return window.features.stateOf(RESTORE_STATE, session);
}

export const RESTORE: ChatFeature = {
	id: 'restore',
	agent: RESTORE_STATE,
	view: (window) => new RestorePart(() => restoreOf(window, window.sessions.current)),
};
