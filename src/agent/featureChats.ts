// What the agent gives each chat's feature states (chatFeature.ts) when the chat opens them: the
// chat's plans and mode, its sub-agents, and what may be done to it between turns (betweenTurns.ts)
// — work held beside no turn, the turn after it, and a turn no person asked for.
import type { StartedBy } from '../transcript/startedBy';
import type { AgentEnvironment } from './agentEnvironment';
import { betweenTurnsOf, type HeldWork, type RootRequest } from './betweenTurns';
import type { ChatMode, FeatureChat } from './chatFeature';
import type { ChatPlans } from './plans';
import type { AgentPorts } from './ports';
import type { ChatSession } from './session';

/** The agent's side of its chats' feature states. */
export interface FeatureChatsHost {
	readonly env: AgentEnvironment;
	readonly ports: AgentPorts;
	/** The work between turns in flight, if any. */
	readonly held: HeldWork;
	plansOf(session: ChatSession): ChatPlans;
	modeOf(session: ChatSession): ChatMode;
	isChildRunning(path: string): boolean;
	/** Why nothing can be done to the chat now ("… before `doing`."), or undefined. */
	busy(doing: string): string | undefined;
	rootRequest(session: ChatSession, signal: AbortSignal): Promise<RootRequest>;
	restored(session: ChatSession): void;
	compacted(session: ChatSession): void;
	/** Starts a turn in the current chat with `text` as the person's message. */
	startTurn(text: string): void;
	/** Starts a turn no person asked for in `session`, if it can now. */
	startUnasked(session: ChatSession, started: StartedBy): boolean;
	/** Messages that waited for work between turns and are not sent after it: back to the person. */
	returnMessages(sessionId: string, texts: readonly string[]): void;
	changed(): void;
}

/** Each chat's FeatureChat, made from the agent's side. */
export function featureChatOf(host: FeatureChatsHost): (session: ChatSession) => FeatureChat {
	const { env, ports } = host;
	const { clock, ids, log } = ports.runtime;
	return (session) => ({
		session,
		clock,
		newId: () => ids.next(),
		plans: host.plansOf(session),
		mode: host.modeOf(session),
		isChildRunning: (path) => host.isChildRunning(path),
		services: env.featureServices ?? {},
		between: betweenTurnsOf(host.held, {
			ports,
			observers: () => env.observers?.(),
			busy: (doing) => host.busy(doing),
			rootRequest: (signal) => host.rootRequest(session, signal),
			startTurn: (text) => {
				host.startTurn(text);
			},
			startUnasked: (started) => host.startUnasked(session, started),
			continueWith: (texts, stopped) => {
				if (!stopped && env.sessions.current === session) {
					host.startTurn(texts.join('\n\n'));
				} else {
					host.returnMessages(session.id, texts);
				}
			},
			changed: () => {
				host.changed();
			},
			restored: () => {
				host.restored(session);
			},
			compacted: () => {
				host.compacted(session);
			},
		}),
		log,
	});
}
