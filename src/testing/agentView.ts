// The agent's part of the view state, for tests of the host side and of the webview.
import type { AgentView } from '../protocol/messages';

/** An agent view with nothing running, nothing pending and no model; `overrides` win. */
export function agentView(overrides: Partial<AgentView> = {}): AgentView {
	return {
		status: { state: 'unavailable', detail: 'No model is connected in this version of Aside, so nothing will answer yet.' },
		provider: 'anthropic',
		model: '',
		models: [],
		mode: 'ask',
		approval: null,
		streaming: null,
		steering: [],
		children: [],
		...overrides,
	};
}
