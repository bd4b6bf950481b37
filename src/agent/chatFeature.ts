// The agent's side of a chat feature (src/features/feature.ts): per-chat state opened with the
// chat, and the points at which the turn asks it. The agent takes a list of these instead of a
// new environment field per feature, and the turn asks the chat's open states instead of a new
// scope field per feature. The states are held weakly, so they go with their chat.
import type { Clock } from '../base/clock';
import type { Logger } from '../base/log';
import { anyOf, type FeatureAccess } from '../tools/featureAccess';
import type { TurnOutcomeKind } from '../vocabulary/outcomes';
import type { ChatPlans } from './plans';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { BetweenTurns } from './betweenTurns';
import type { ChatSession } from './session';

/** A chat's permission mode. */
export interface ChatMode {
	current(): PermissionMode;
	/** The person's choice: the chat's mode from now on (recorded with the chat). */
	select(mode: PermissionMode): void;
}

/**
 * What the window hands particular features beyond the core, to their agent side (FeatureChat) and
 * their view part (src/features/feature.ts): each entry is declared by the feature that takes it
 * (declaration merging, `declare module '…/agent/chatFeature'`), and filled where the window is
 * wired (src/vscode/window/).
 */
export interface FeatureServices {
	readonly [service: string]: unknown;
}

/** What a feature's state of one chat is given when the chat opens it. */
export interface FeatureChat {
	readonly session: ChatSession;
	readonly clock: Clock;
	readonly newId: () => string;
	/** This chat's plans: the one waiting for a decision, the approved one. */
	readonly plans: ChatPlans;
	/** This chat's permission mode: its own, else the setting's. */
	readonly mode: ChatMode;
	/** Whether the sub-agent of owner path `path` runs now. */
	readonly isChildRunning: (path: string) => boolean;
	/** What the feature may do to the chat between its turns. */
	readonly between: BetweenTurns;
	/** What the window hands the features (empty where it hands nothing). */
	readonly services: FeatureServices;
	readonly log: Logger;
}

/**
 * The hooks of one feature's state of one chat, every one optional: a state that answers none
 * (an action such as Restore…) need not declare it; one that does says `implements FeatureState`.
 */
export interface FeatureState {
	/** After a root step's tool calls: true stops the loop there, sending no further request. */
	stopAfterStep?(turnId: string): boolean;
	/** An approved plan file this feature already tells the model of (plan.reference is not repeated for it). */
	carriedPlan?(): string | undefined;
	/** After a chat restore rolled part of the chat back (not a files-only one): the state as the kept records leave it. */
	afterRestore?(): void;
	/** After the chat was compacted (by the turn or by the person). */
	afterCompaction?(): void;
	/** A sub-agent's loop ended with `outcome`; `path` is its owner path (`root/explore#2`). */
	afterChildSettled?(path: string, outcome: TurnOutcomeKind): void;
	/** A root turn of the chat ended with `outcome`, and the agent has gone on to what came next (a message typed meanwhile). */
	afterTurn?(outcome: TurnOutcomeKind): void;
	/** After a Stop that cut work off: lines session.recovery adds about what of this feature's goes on running. */
	recoveryNotes?(): readonly string[];
	/**
	 * What the tools of the loop of `owner` (an owner path: `root`, `root/explore#2`) reach of this
	 * state, under the feature's key (src/tools/featureAccess.ts): asked for each tool call.
	 */
	toolAccess?(owner: string): FeatureAccess;
	dispose?(): void;
}

export interface AgentFeature<S extends object = object> {
	/** Unique; the prefix of the feature's protocol messages. */
	readonly id: string;
	/** The state of one chat: restored from its records, its reminders installed. */
	open(chat: FeatureChat): S;
}

/** Each chat's feature states, opened together the first time the chat is asked for one. */
export class ChatFeatures {
	private readonly states = new WeakMap<ChatSession, Map<string, FeatureState>>();

	constructor(
		private readonly features: readonly AgentFeature[],
		private readonly chatOf: (session: ChatSession) => FeatureChat,
	) {
		const ids = new Set<string>();
		for (const feature of features) {
			if (ids.has(feature.id)) {
				throw new Error(`The chat feature "${feature.id}" is registered twice.`);
			}
			ids.add(feature.id);
		}
	}

	/** `feature`'s state of `session`; throws when the feature is not one of this agent's. */
	stateOf<S extends object>(feature: AgentFeature<S>, session: ChatSession): S {
		const state = this.open(session).get(feature.id);
		if (!state) {
			throw new Error(`The chat feature "${feature.id}" is not registered with this agent.`);
		}
		return state as S;
	}

	/** Every feature's state of `session`, opened (in the list's order) if it was not yet. */
	open(session: ChatSession): ReadonlyMap<string, FeatureState> {
		let states = this.states.get(session);
		if (!states) {
			states = new Map();
			this.states.set(session, states);
			const chat = this.chatOf(session);
			for (const feature of this.features) {
				states.set(feature.id, feature.open(chat));
			}
		}
		return states;
	}

	/** Whether any feature stops the root loop after this step (each is asked: one may record why). */
	stopAfterStep(session: ChatSession, turnId: string): boolean {
		let stop = false;
		for (const state of this.open(session).values()) {
			stop = state.stopAfterStep?.(turnId) === true || stop;
		}
		return stop;
	}

	/** The approved plan file a feature of this chat already tells the model of, if any. */
	carriedPlan(session: ChatSession): string | undefined {
		for (const state of this.open(session).values()) {
			const plan = state.carriedPlan?.();
			if (plan !== undefined) {
				return plan;
			}
		}
		return undefined;
	}

	/** The chat's open feature states are told that a chat restore rolled part of it back (states opened later fold what it kept). */
	afterRestore(session: ChatSession): void {
		for (const state of this.states.get(session)?.values() ?? []) {
			state.afterRestore?.();
		}
	}

	/** The chat's open feature states are told that it was compacted. */
	afterCompaction(session: ChatSession): void {
		for (const state of this.states.get(session)?.values() ?? []) {
			state.afterCompaction?.();
		}
	}

	/** Every feature of the chat is told that a sub-agent's loop ended. */
	afterChildSettled(session: ChatSession, path: string, outcome: TurnOutcomeKind): void {
		for (const state of this.open(session).values()) {
			state.afterChildSettled?.(path, outcome);
		}
	}

	/** Every feature of the chat is told that a root turn of it ended. */
	afterTurn(session: ChatSession, outcome: TurnOutcomeKind): void {
		for (const state of this.open(session).values()) {
			state.afterTurn?.(outcome);
		}
	}

	/** What the chat's features say goes on running after a Stop (session.recovery's lines). */
	recoveryNotes(session: ChatSession): readonly string[] {
		return [...this.open(session).values()].flatMap((state) => state.recoveryNotes?.() ?? []);
	}

	/** What the chat's features hand the tools of the loop of `owner`. */
	toolAccess(session: ChatSession, owner: string): FeatureAccess {
		return anyOf([...this.open(session).values()].flatMap((state) => (state.toolAccess ? [state.toolAccess(owner)] : [])));
	}
}
