// A roster: the reminder definitions one owner collects at its WAITs, with their firing state
// and turn count. The session has one; each agent invocation gets its own, cloned at spawn.
import type { ReminderConfig } from './config';
import type { CollectedEntry, FiringContext, Owner, Phase, ReminderContent, ReminderDefinition, ReminderSubject, WaitFacts } from './definition';
import type { KeyRegistry } from './keys';
import { acceptsBody, type FiringState, isDue, markDelivered } from './policy';

/** What reconcileObservations reads of an injection record (src/reminders/record.ts). */
export interface InjectionRecordLike {
	readonly owner: { readonly kind: 'root' | 'agent' };
	readonly turn: number;
	readonly entries: readonly { readonly type: string; readonly body: string; readonly subjects?: readonly ReminderSubject[] }[];
}

/** Why an observation fires again once reconcileObservations found its delivery gone from the selected history. */
export const DROPPED_FROM_HISTORY = 'not in the history this request is built from (compacted)';

type Notice = Exclude<ReminderContent, string>['notice'];
/** A member's notice, by its place among the collected entries. */
type Noticed = { readonly index: number; readonly type: string; readonly notice: NonNullable<Notice> };
type OnError = (type: string, error: unknown) => void;

function isDelivered(state: FiringState): boolean {
	return state.lastTurn !== undefined || state.fired;
}

interface Member {
	readonly definition: ReminderDefinition;
	readonly state: FiringState;
}

export class ReminderRoster {
	private readonly members = new Map<string, Member>();
	private _turn = 0;

	constructor(
		readonly scope: 'session' | 'agent',
		private readonly keys: KeyRegistry,
	) {}

	/** The roster's turn: user turns for the session, model samples for an agent. */
	get turn(): number {
		return this._turn;
	}

	/** Starts the next turn (a user turn for the session, a model sample for an agent). */
	advanceTurn(): number {
		return ++this._turn;
	}

	/** Whether this roster takes definitions of that scope. */
	accepts(definition: ReminderDefinition): boolean {
		return definition.scope === 'all' || definition.scope === this.scope;
	}

	/**
	 * Adds the defaults, idempotently: a type already present is left as it is (with its state),
	 * and definitions of another scope are skipped.
	 */
	installDefaults(definitions: Iterable<ReminderDefinition>): void {
		for (const definition of definitions) {
			if (this.accepts(definition) && !this.members.has(definition.type)) {
				this.add(definition);
			}
		}
	}

	/** Adds one definition. Throws for a type already present, an unregistered key or a scope mismatch. */
	register(definition: ReminderDefinition): void {
		if (this.members.has(definition.type)) {
			throw new Error(`A reminder of type "${definition.type}" is already registered.`);
		}
		if (!this.accepts(definition)) {
			throw new Error(`The reminder "${definition.type}" has scope "${definition.scope}" and cannot join the ${this.scope} roster.`);
		}
		this.add(definition);
	}

	unregister(type: string): boolean {
		return this.members.delete(type);
	}

	has(type: string): boolean {
		return this.members.has(type);
	}

	types(): string[] {
		return [...this.members.keys()];
	}

	/** Arms a one-shot reminder again; `because` becomes the reason of its next delivery. */
	rearm(type: string, because: string): void {
		const member = this.members.get(type);
		if (!member) {
			throw new Error(`No reminder of type "${type}" to re-arm.`);
		}
		member.state.fired = false;
		member.state.rearmedBecause = because;
	}

	/** Forget that `type` was delivered (its delivery left history, e.g. by compaction). */
	forgetDelivery(type: string): void {
		const member = this.members.get(type);
		if (member) {
			member.state.lastTurn = undefined;
			member.state.lastBody = undefined;
			member.state.fired = false;
		}
	}

	/**
	 * The observations' deliveries, checked against the history a request is now built from (after
	 * a compaction, its kept tail and what followed): every observation forgets its deliveries (and
	 * its own record, `forget`), then takes back those `retained` still holds, oldest first. An
	 * observation the selected history no longer holds fires again at the next WAIT; one that is
	 * still there stays quiet. Other definitions keep their state: their deliveries are facts of
	 * the past, not sections of current context.
	 */
	reconcileObservations(retained: readonly InjectionRecordLike[]): void {
		const ownerKind = this.scope === 'session' ? 'root' : 'agent';
		const observations = [...this.members.values()].filter(({ definition }) => definition.observation);
		const dropped = new Set<Member>();
		for (const member of observations) {
			const { definition, state } = member;
			if (isDelivered(state)) {
				dropped.add(member);
			}
			state.lastTurn = undefined;
			state.lastBody = undefined;
			state.fired = false;
			state.rearmedBecause = undefined;
			definition.forget?.();
		}
		const types = new Set(observations.map(({ definition }) => definition.type));
		for (const record of retained) {
			if (record.owner.kind !== ownerKind) {
				continue;
			}
			for (const entry of record.entries) {
				if (!types.has(entry.type)) {
					continue;
				}
				if (entry.subjects === undefined) {
					this.restoreDelivery(entry.type, record.turn, entry.body);
				} else {
					this.restoreSubjects(entry.type, entry.subjects);
					// A definition that restores its own subjects (agents.listing) made that delivery itself;
					// others' subjects are an observer's turn events of the type (nested AGENTS.md), not its delivery.
					const member = this.members.get(entry.type);
					if (member?.definition.restore) {
						markDelivered(member.state, record.turn, null);
					}
				}
			}
		}
		for (const { state } of dropped) {
			if (!isDelivered(state)) {
				state.rearmedBecause = DROPPED_FROM_HISTORY;
			}
		}
	}

	/** After a restart: continue counting from the turn retained history reached. */
	restoreTurn(turn: number): void {
		this._turn = Math.max(this._turn, turn);
	}

	/** Restores firing state from a delivery found in retained history (see history.ts). */
	restoreDelivery(type: string, turn: number, body: string): void {
		const member = this.members.get(type);
		if (member) {
			markDelivered(member.state, turn, member.definition.sectionOf?.(body) ?? body);
		}
	}

	/** Hands a delivery's subjects found in retained history to the definition of `type` (see ReminderDefinition.restore). */
	restoreSubjects(type: string, subjects: readonly ReminderSubject[]): void {
		this.members.get(type)?.definition.restore?.(subjects);
	}

	/**
	 * An agent invocation's roster: this roster's agent-scope definitions, then `extra` (those the
	 * invocation adds: its profile's, its step budget), each with fresh state, at turn 0. An extra
	 * of a type already cloned, or of session scope, is skipped as installDefaults skips it.
	 */
	spawnAgentRoster(extra: Iterable<ReminderDefinition> = []): ReminderRoster {
		const agent = new ReminderRoster('agent', this.keys);
		for (const { definition } of this.members.values()) {
			if (agent.accepts(definition)) {
				agent.add(definition);
			}
		}
		agent.installDefaults(extra);
		return agent;
	}

	/** The definition of this type, or of this wire key (the first registered), if the roster has it. */
	definitionOf(typeOrKey: string): ReminderDefinition | undefined {
		const byType = this.members.get(typeOrKey)?.definition;
		if (byType) {
			return byType;
		}
		for (const { definition } of this.members.values()) {
			if (definition.key === typeOrKey) {
				return definition;
			}
		}
		return undefined;
	}

	/**
	 * Evaluates every enabled definition on current state and appends the ones that fire to `out`,
	 * in registration order. Nothing is marked here: each entry's commit marks it.
	 * A trigger or content function that throws is skipped and reported through `onError`.
	 */
	collect(owner: Owner, phase: Phase, facts: WaitFacts, config: ReminderConfig, out: CollectedEntry[], onError: OnError): void {
		const turn = this._turn;
		const first = out.length;
		const noticed: Noticed[] = [];
		for (const { definition, state } of this.members.values()) {
			const context: FiringContext = { owner, phase, turn, facts, delivered: isDelivered(state) };
			if (!config.isEnabled(definition.type)) {
				continue;
			}
			const decision = isDue(definition.policy, state, turn, config.intervalOf(definition.type));
			if (!decision.due) {
				continue;
			}
			try {
				if (!definition.trigger(context)) {
					continue;
				}
				const content = definition.content(context);
				const body = typeof content === 'string' ? content : content.body;
				if (!acceptsBody(definition.policy, state, body)) {
					continue;
				}
				const extra = typeof content === 'string' ? undefined : content.commit;
				const subjects = typeof content === 'string' ? undefined : content.subjects;
				const notice = typeof content === 'string' ? undefined : content.notice;
				if (notice && body !== null) {
					noticed.push({ index: out.length, type: definition.type, notice });
				}
				out.push({
					type: definition.type,
					key: definition.key,
					label: (typeof content === 'string' ? undefined : content.label) ?? definition.label,
					body,
					reason: (typeof content === 'string' ? undefined : content.reason) ?? decision.reason,
					commit: () => {
						markDelivered(state, turn, body);
						extra?.();
					},
					...(subjects ? { subjects } : {}),
				});
			} catch (error) {
				onError(definition.type, error);
			}
		}
		this.addNotices(out, first, noticed, config, onError);
	}

	/**
	 * A changed observation's notice names the other observations still standing: delivered, in
	 * the selected history, and not delivered again by this same request (known only now that
	 * every definition was evaluated). The body its commit marks stays the section without it.
	 */
	private addNotices(out: CollectedEntry[], first: number, noticed: readonly Noticed[], config: ReminderConfig, onError: OnError): void {
		if (noticed.length === 0) {
			return;
		}
		const fresh = new Set(out.slice(first).filter((entry) => entry.body !== null).map((entry) => entry.type));
		const standing = [...this.members.values()]
			.filter(({ definition, state }) => definition.observation && !fresh.has(definition.type) && config.isEnabled(definition.type) && isDelivered(state))
			.map(({ definition }) => definition);
		for (const { index, type, notice } of noticed) {
			const entry = out[index];
			try {
				const words = notice(standing.filter((definition) => definition.type !== type));
				if (entry && entry.body !== null && words !== '') {
					out[index] = { ...entry, body: `${entry.body}\n\n${words}` };
				}
			} catch (error) {
				onError(type, error);
			}
		}
	}

	private add(definition: ReminderDefinition): void {
		this.keys.require(definition.key);
		this.members.set(definition.type, { definition, state: { fired: false } });
	}
}
