// The session's reminder engine: the session roster, the pending FIFO, the owner-bound turn
// events, and agent invocations with their own rosters. `wait()` is WAIT for any owner: it
// collects every source in stage order and hands the entries to the injector.
import type { Clock } from '../base/clock';
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import { DEFAULT_REMINDER_CONFIG, type ReminderConfig } from './config';
import { type CollectedEntry, type Owner, type ReminderDefinition, type Stage, STAGES, type StagedEntry, type WaitFacts } from './definition';
import { type Injection, injectAtWait, type InjectionRecorder, type PreparedRequest } from './injector';
import { BUILTIN_KEYS, type KeyRegistry } from './keys';
import { PendingFifo } from './pendingFifo';
import type { InjectionRecord } from './record';
import { ReminderRoster } from './roster';
import { type RequestStaging, unstageableBody } from './staging';
import { type TurnEvent, TurnEventQueues } from './turnEvents';
import { withArticle } from '../base/words';

export interface ReminderEngineOptions {
	readonly recorder: InjectionRecorder;
	readonly clock: Clock;
	readonly log: Logger;
	readonly config?: ReminderConfig;
	readonly keys?: KeyRegistry;
	/** Installed into the session roster (and inherited by agents, by scope). */
	readonly defaults?: readonly ReminderDefinition[];
}

const DEFAULT_REASON: Readonly<Record<Stage, string>> = {
	mention: 'mentioned in the message',
	skill: 'skill attached to the message',
	roster: 'queued for the next request',
	observation: 'observed during this turn',
	compaction: 'context was compacted',
	steering: 'typed while the agent was working',
};

/** One agent invocation: its own owner, roster and turn counting (every model sample counts). */
export class AgentInvocation {
	constructor(
		readonly owner: Owner,
		readonly roster: ReminderRoster,
		private readonly onEnd: () => void,
	) {}

	/** Call before each new model sample (not for a retry of the same one). */
	beginSample(): number {
		return this.roster.advanceTurn();
	}

	/** The invocation finished: events still queued for it are dropped. */
	end(): void {
		this.onEnd();
	}
}

export class ReminderEngine extends Disposable {
	readonly keys: KeyRegistry;
	readonly roster: ReminderRoster;
	readonly pending = new PendingFifo();
	private readonly events = new TurnEventQueues();
	private readonly agents = new Map<string, AgentInvocation>();
	private rootOwner: Owner | undefined;
	/** The person's reminder settings, read at every WAIT (a reminder with its own thresholds reads them here too). */
	readonly config: ReminderConfig;

	private readonly _onDidRecord = this._register(new Emitter<InjectionRecord>());
	/** Each record, as soon as it was written (before its commits run). */
	readonly onDidRecord: Event<InjectionRecord> = this._onDidRecord.event;

	constructor(private readonly options: ReminderEngineOptions) {
		super();
		this.keys = options.keys ?? BUILTIN_KEYS;
		this.config = options.config ?? DEFAULT_REMINDER_CONFIG;
		this.roster = new ReminderRoster('session', this.keys);
		this.roster.installDefaults(options.defaults ?? []);
	}

	/** The root turn now running, if any. */
	get currentRootOwner(): Owner | undefined {
		return this.rootOwner;
	}

	/** A new user turn: the previous root owner's events are dropped and the session turn advances. */
	beginUserTurn(turnId: string): Owner {
		this.endUserTurn();
		const owner: Owner = { kind: 'root', id: turnId };
		this.rootOwner = owner;
		this.events.open(owner);
		this.roster.advanceTurn();
		return owner;
	}

	/** The user turn ended (answered, failed or stopped): its undelivered events are dropped. */
	endUserTurn(): void {
		if (this.rootOwner) {
			this.events.close(this.rootOwner);
			this.rootOwner = undefined;
		}
	}

	/**
	 * Spawns an agent invocation with a roster cloned from the session roster's definitions for
	 * agents (scope 'all'), plus `extra`: the agent-only ones this invocation adds (its profile's
	 * reminders, its step budget). An agent-scope default joins only the invocations that add it.
	 */
	spawnAgent(invocationId: string, extra: readonly ReminderDefinition[] = []): AgentInvocation {
		const owner: Owner = { kind: 'agent', id: invocationId };
		if (this.agents.has(invocationId)) {
			throw new Error(`The agent invocation "${invocationId}" is already running.`);
		}
		this.events.open(owner);
		const invocation = new AgentInvocation(owner, this.roster.spawnAgentRoster(extra), () => {
			this.events.close(owner);
			this.agents.delete(invocationId);
		});
		this.agents.set(invocationId, invocation);
		return invocation;
	}

	/**
	 * A registered definition by type or wire key (what an agent profile's `reminders` names): the
	 * session roster's (defaults and those installed since, e.g. contributed ones), else a default
	 * of agent scope.
	 */
	definitionNamed(typeOrKey: string): ReminderDefinition | undefined {
		return this.roster.definitionOf(typeOrKey) ?? (this.options.defaults ?? []).find(
			(definition) => definition.type === typeOrKey || definition.key === typeOrKey,
		);
	}

	/** Queues an observation for `owner`'s next WAIT. False when the owner is no longer running. */
	queueTurnEvent(owner: Owner, event: TurnEvent): boolean {
		this.keys.require(event.key);
		const queued = this.events.queue(owner, event);
		if (!queued) {
			this.options.log.debug(`Reminders: dropped ${withArticle(event.type)} turn event for ${owner.kind} ${owner.id}, which is not running.`);
		}
		return queued;
	}

	/** Appends to the session's pending FIFO, delivered at the root's next request; `durable`: kept with the chat until then. */
	enqueuePending(entry: StagedEntry, durable = false): void {
		this.keys.require(entry.key);
		this.pending.enqueue(entry, durable);
	}

	private rosterOf(owner: Owner): ReminderRoster {
		if (owner.kind === 'root') {
			if (this.rootOwner?.id !== owner.id) {
				throw new Error(`The root turn ${owner.id} is not the running root turn; a finished turn prepares no requests.`);
			}
			return this.roster;
		}
		const invocation = this.agents.get(owner.id);
		if (!invocation) {
			throw new Error(`No running agent invocation "${owner.id}" to prepare a request for.`);
		}
		return invocation.roster;
	}

	/**
	 * WAIT for `request.owner`: collects staged entries, the pending FIFO (root only), the owner's
	 * roster and its turn events, in stage order, and prepares one injection.
	 */
	wait<R extends PreparedRequest>(request: R, staging: RequestStaging | undefined, facts: WaitFacts = {}): Injection<R> {
		const { owner } = request;
		const roster = this.rosterOf(owner);
		const byStage = new Map<Stage, CollectedEntry[]>(STAGES.map((stage) => [stage, []]));
		const add = (stage: Stage, entry: StagedEntry, commit: (() => void) | undefined): void => {
			const registered = this.keys.get(entry.key);
			if (!registered) {
				this.options.log.error(`Reminders: a "${entry.type}" entry was not delivered: its key "${entry.key}" is not registered.`);
				return;
			}
			const enabled = this.config.isEnabled(entry.type);
			byStage.get(stage)?.push({
				type: entry.type,
				key: entry.key,
				label: entry.label ?? registered.label,
				body: enabled ? entry.body : null,
				reason: entry.reason ?? DEFAULT_REASON[stage],
				commit,
				...(entry.subjects ? { subjects: entry.subjects } : {}),
			});
		};

		const rosterStage = byStage.get('roster') ?? [];
		if (owner.kind === 'root') {
			for (const item of this.pending.snapshot()) {
				add('roster', item, () => {
					this.pending.consume([item]);
					item.commit?.();
				});
			}
		}
		roster.collect(owner, request.phase, facts, this.config, rosterStage, (type, error) => {
			this.options.log.error(`Reminders: the "${type}" reminder failed and was skipped: ${errorMessage(error)}`);
		});
		for (const event of this.events.pending(owner)) {
			add(event.stage ?? 'observation', event, () => {
				this.events.remove(owner, event);
				event.commit?.();
			});
		}
		for (const { stage, entry } of staging?.entries ?? []) {
			// Held to stageEntry's rule here too, for entries put on the staging some other way.
			const unstageable = unstageableBody(entry.body);
			if (unstageable !== undefined) {
				this.options.log.error(`Reminders: a "${entry.type}" entry was not staged: ${unstageable}.`);
				continue;
			}
			add(stage, entry, entry.commit);
		}

		const entries: CollectedEntry[] = [];
		for (const stage of STAGES) {
			entries.push(...(byStage.get(stage) ?? []));
		}
		const injection = injectAtWait(request, entries, staging?.commits ?? [], {
			recorder: this.options.recorder,
			clock: this.options.clock,
			turn: roster.turn,
			onRecorded: (record) => {
				this._onDidRecord.fire(record);
			},
		});
		for (const { entry, error } of injection.rejected) {
			this.options.log.error(`Reminders: the "${entry.type}" reminder was not delivered: ${error.message}`);
		}
		return injection;
	}
}
