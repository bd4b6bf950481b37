// What the chat shows of domain objects, for specs of the domain that assert on it: src/agent/
// imports nothing from src/view/ (eslint.config.mjs), so its specs look through these.
import type { Agent } from '../agent/agent';
import type { ProviderSetup } from '../agent/providerSetup';
import type { ChatSession } from '../agent/session';
import type { AgentView, SessionView, SetupView, TranscriptItem } from '../protocol/messages';
import { agentView } from '../view/agentView';
import { itemsOf } from '../view/rows';
import { SessionProjection } from '../view/sessionView';
import { setupView } from '../view/setupView';

/** The agent's part of the view state now. */
export function viewOfAgent(agent: Pick<Agent, 'state'>): AgentView {
	return agentView(agent.state);
}

/** The session's items, in record order (one per record that has something to say). */
export function itemsOfSession(session: Pick<ChatSession, 'allRecords'>): TranscriptItem[] {
	return itemsOf(session.allRecords);
}

/** The session as a snapshot carries it: its rows in display order, its title and access. */
export function viewOfSession(session: ChatSession): SessionView {
	const projection = new SessionProjection(session);
	try {
		return projection.toView();
	} finally {
		projection.dispose();
	}
}

/** The empty state's setup actions now. */
export function viewOfSetup(setup: ProviderSetup): SetupView {
	return setupView(setup);
}
