// The chat's permission mode (docs/permissions.md): the toolbar's picker (`mode.select`), with the
// one notice of what full access means. The mode itself is the agent's: every turn reads it.
import type { AgentFeature, ChatMode } from '../../agent/chatFeature';
import type { ChatFeature } from '../feature';
import { ModePart } from './modeView';

export const MODE_STATE: AgentFeature<ChatMode> = {
	id: 'mode',
	open: (chat) => chat.mode,
};

export const MODE: ChatFeature = {
	id: 'mode',
	agent: MODE_STATE,
	view: (window) => new ModePart(window.sessions, () => window.features.stateOf(MODE_STATE, window.sessions.current)),
};
