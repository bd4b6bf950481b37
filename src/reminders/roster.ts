// A roster: the reminder definitions one owner collects at its WAITs, with their firing state
// and turn count. The session has one; each agent invocation gets its own, cloned at spawn.
import type { ReminderConfig } from './config';
import type { CollectedEntry, FiringContext, Owner, Phase, ReminderDefinition, ReminderSubject, WaitFacts } from './definition';
import type { KeyRegistry } from './keys';
import { acceptsBody, type FiringState, isDue, markDelivered } from './policy';

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

	/** After a restart: continue counting from the turn retained history reached. */
	restoreTurn(turn: number): void {
		this._turn = Math.max(this._turn, turn);
	}

	/** Restores firing state from a delivery found in retained history (see history.ts). */
	restoreDelivery(type: string, turn: number, body: string): void {
		const member = this.members.get(type);
		if (member) {
			markDelivered(member.state, turn, body);
		}
	}

	/** Hands a delivery's subjects found in retained history to the definition of `type` (see ReminderDefinition.restore). */
	restoreSubjects(type: string, subjects: readonly ReminderSubject[]): void {
		this.members.get(type)?.definition.restore?.(subjects);
	}

	/** An agent invocation's roster: this roster's agent-scope definitions, fresh state, turn 0. */
	spawnAgentRoster(): ReminderRoster {
		const agent = new ReminderRoster('agent', this.keys);
		for (const { definition } of this.members.values()) {
			if (agent.accepts(definition)) {
				agent.add(definition);
			}
		}
		return agent;
	}

	/**
	 * Evaluates every enabled definition on current state and appends the ones that fire to `out`,
	 * in registration order. Nothing is marked here: each entry's commit marks it.
	 * A trigger or content function that throws is skipped and reported through `onError`.
	 */
	collect(owner: Owner, phase: Phase, facts: WaitFacts, config: ReminderConfig, out: CollectedEntry[], onError: (type: string, error: unknown) => void): void {
		const turn = this._turn;
		const context: FiringContext = { owner, phase, turn, facts };
		for (const { definition, state } of this.members.values()) {
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
				out.push({
					type: definition.type,
					key: definition.key,
					label: definition.label,
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
	}

	private add(definition: ReminderDefinition): void {
		this.keys.require(definition.key);
		this.members.set(definition.type, { definition, state: { fired: false } });
	}
}
