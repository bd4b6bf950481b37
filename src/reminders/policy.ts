// Firing policies decide whether a reminder whose trigger holds should fire now. They read the
// firing state and never write it: the roster marks a reminder fired only from the commit that
// runs after its payload was dispatched, so a failed request leaves it eligible.
import { plural } from '../base/words';

export type FiringPolicy =
	/** At most once per turn of its roster. */
	| { readonly kind: 'every-turn' }
	/** At most once every `turns` turns (`aside.reminders.<type>.interval` overrides it). */
	| { readonly kind: 'interval'; readonly turns: number }
	/** Once, until `rearm()`. */
	| { readonly kind: 'one-shot' }
	/** Whenever its content differs from what was last delivered. */
	| { readonly kind: 'on-change' };

export const everyTurn: FiringPolicy = { kind: 'every-turn' };
export const oneShot: FiringPolicy = { kind: 'one-shot' };
export const onChange: FiringPolicy = { kind: 'on-change' };
export function interval(turns: number): FiringPolicy {
	if (!Number.isInteger(turns) || turns < 1) {
		throw new RangeError(`An interval must be a whole number of turns, at least 1 (got ${turns}).`);
	}
	return { kind: 'interval', turns };
}

/** What a roster remembers about one reminder's deliveries. Written only by commits. */
export interface FiringState {
	/** The roster turn of the last delivery. */
	lastTurn?: number;
	/** The body last delivered (on-change compares the content itself: no collisions, cheap). */
	lastBody?: string;
	/** One-shot: delivered since it was last armed. */
	fired: boolean;
	/** Why a one-shot was re-armed, for the reason of its next delivery. */
	rearmedBecause?: string;
}

export type Decision = { readonly due: true; readonly reason: string } | { readonly due: false };

const NOT_DUE: Decision = { due: false };

/** Before content: is the reminder due at `turn`? On-change is always due here; see `acceptsBody`. */
export function isDue(policy: FiringPolicy, state: FiringState, turn: number, intervalOverride?: number): Decision {
	switch (policy.kind) {
		case 'every-turn':
			return state.lastTurn === turn ? NOT_DUE : { due: true, reason: 'every turn' };
		case 'interval': {
			const turns = intervalOverride ?? policy.turns;
			if (state.lastTurn === undefined) {
				return { due: true, reason: `first time this session (interval ${turns})` };
			}
			const since = turn - state.lastTurn;
			return since >= turns ? { due: true, reason: `interval ${turns} reached (last delivered ${plural(since, 'turn')} ago)` } : NOT_DUE;
		}
		case 'one-shot':
			if (state.fired) {
				return NOT_DUE;
			}
			return { due: true, reason: state.rearmedBecause ? `re-armed: ${state.rearmedBecause}` : 'one-shot, first delivery' };
		case 'on-change':
			// Re-armed: an observation whose delivery left the selected history (compaction) says so.
			return { due: true, reason: state.rearmedBecause ?? (state.lastBody === undefined ? 'first delivery' : 'content changed since last delivered') };
	}
}

/** After content: on-change fires only for a body that differs from the last one delivered. */
export function acceptsBody(policy: FiringPolicy, state: FiringState, body: string | null): boolean {
	return policy.kind !== 'on-change' || body === null || body !== state.lastBody;
}

/** The commit's effect: record a delivery (or a silent acknowledgement) at `turn`. */
export function markDelivered(state: FiringState, turn: number, body: string | null): void {
	state.lastTurn = turn;
	state.fired = true;
	state.rearmedBecause = undefined;
	if (body !== null) {
		state.lastBody = body;
	}
}
