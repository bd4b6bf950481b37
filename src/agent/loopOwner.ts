// Whose loop a Turn runs, as the reminder engine knows it: the root turn of a chat, or one agent
// invocation. The loop asks it before each sample and tells it when it ends.
import type { Owner } from '../reminders/definition';
import type { AgentInvocation, ReminderEngine } from '../reminders/engine';
import type { ReminderRoster } from '../reminders/roster';

/** Whose loop it is, as the engine knows it: the root turn of the chat, or one agent invocation. */
export interface LoopOwner {
	readonly owner: Owner;
	/** The owner's roster: the session's, or the invocation's (a compaction reconciles its observations). */
	readonly roster: ReminderRoster;
	/** Before each model sample (an invocation counts its samples as its roster's turns). */
	beginSample(): void;
	/** The loop ended: what is still queued for the owner is dropped. */
	end(): void;
}

/** The root turn `turnId` begins: the session's turn advances. */
export function rootTurn(engine: ReminderEngine, turnId: string): LoopOwner {
	const owner = engine.beginUserTurn(turnId);
	return {
		owner,
		roster: engine.roster,
		beginSample: () => undefined,
		end: () => {
			engine.endUserTurn();
		},
	};
}

/** The loop of an agent invocation (`engine.spawnAgent`). */
export function invocationLoop(invocation: AgentInvocation): LoopOwner {
	return {
		owner: invocation.owner,
		roster: invocation.roster,
		beginSample: () => {
			invocation.beginSample();
		},
		end: () => {
			invocation.end();
		},
	};
}
