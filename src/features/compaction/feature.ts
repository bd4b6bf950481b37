// The person's compaction (docs/usage.md, Compacting a chat): the Compact button, `/compact` and
// the Compact Chat command, between turns only; the turn's own compaction stays with the turn
// (src/agent/compaction/).
import type { AgentFeature } from '../../agent/chatFeature';
import type { ChatSession } from '../../agent/session';
import type { ChatFeature, FeatureWindow } from '../feature';
import { CompactionPart } from './compactionView';
import { ChatCompaction } from './manualCompaction';

export const COMPACTION_STATE: AgentFeature<ChatCompaction> = {
	id: 'compaction',
	open: (chat) => new ChatCompaction(chat),
};

/** `session`'s compaction by hand, as the window's agent holds it. */
export function compactionOf(window: Pick<FeatureWindow, 'features'>, session: ChatSession): ChatCompaction {
	return window.features.stateOf(COMPACTION_STATE, session);
}

export const COMPACTION: ChatFeature = {
	id: 'compaction',
	agent: COMPACTION_STATE,
	view: (window) => new CompactionPart(() => compactionOf(window, window.sessions.current)),
};
