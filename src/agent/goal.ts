// The goal of one chat (docs/goals.md): an objective, an optional token budget and optionally the
// approved plan it implements, folded from the chat's `goal` records (so a reopened chat has it
// again). Its spend is the usage (input + output tokens, as providers report them) of every
// request recorded since the goal was set, the sub-agents' included. It installs the chat's
// goal.current and the sub-agents' goal.budget, and reports the root's thresholds itself: each
// newly passed one once, as a turn event while a root turn runs (checked at every tool result),
// else on the pending FIFO; what was told is recorded as the entries' subjects, so a reopened chat
// does not tell it again. At 100 % the root turn stops after its step (`stopsNow`). A chat restore
// rolls the goal back with its turns (goalRecords.ts); the spend keeps their requests.
import type { Clock } from '../base/clock';
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import { GOAL_BUDGET, GOAL_CURRENT } from '../reminders/builtin/catalog';
import { agentGoalBudget, budgetChangeEntry, type BudgetFacts, thresholdEntry, thresholdsPassed, toldThresholds } from '../reminders/builtin/goalBudget';
import { goalCurrent } from '../reminders/builtin/goalCurrent';
import type { StagedEntry } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';
import { RECORD_KIND } from '../reminders/record';
import type { TurnEvent } from '../reminders/turnEvents';
import type { AgentRecord, GoalRecord } from '../transcript/records';
import { rollsBackChat } from '../transcript/replay';
import type { ApprovedPlans } from './approvedPlan';
import { checkBudget, checkObjective, type Goal, GoalError, type GoalUpdate } from './goalFacts';
import { goalRecords } from './goalRecords';
import { chargeStep, type Spend } from './goalSpend';

/** What of a chat the goal reads and writes. */
export interface GoalSession {
	/** Every record, the sub-agents' included: their usage is charged to the goal. */
	readonly allRecords: readonly AgentRecord[];
	/** The root conversation: what a chat restore rolls back part of. */
	readonly records: readonly AgentRecord[];
	/** The root conversation as its next request replays it (a reopened chat's goal.current counts only if it still holds it). */
	readonly selectedRecords: readonly AgentRecord[];
	append(record: AgentRecord): void;
	readonly reminders: ReminderEngine;
	readonly onDidAppend: Event<AgentRecord>;
	readonly isReadOnly?: boolean;
}

export interface ChatGoalOptions {
	readonly clock: Clock;
	readonly newId: () => string;
	readonly plans: ApprovedPlans;
}

interface Active extends Spend {
	readonly id: string;
	objective: string;
	budget: number | undefined;
	plan: string | undefined;
	readonly setAt: number;
	/** The thresholds the root was told of (or a budget change counted as told). */
	readonly told: Set<number>;
}

/** A threshold report waiting to go out: the turn event or FIFO item, and what it carries. */
interface Queued {
	readonly thresholds: readonly number[];
	readonly entry: StagedEntry;
}

export class ChatGoal extends Disposable {
	private active: Active | undefined;
	/** How the last goal ended, and its objective (goal.current says it once). */
	private ended: { readonly objective: string; readonly how: 'completed' | 'cleared' } | undefined;
	/** Whether goal.current last told the model of an active goal. */
	private toldActive = false;
	/** The root turn whose stop at the budget was recorded (once per turn). */
	private stoppedTurn: string | undefined;
	private event: Queued | undefined;
	private fifo: Queued | undefined;
	private budgetChange: { readonly previous: number | undefined; readonly goal: string | undefined; readonly next: number | undefined; readonly entry: StagedEntry } | undefined;

	private readonly _onDidChange = this._register(new Emitter<Goal | undefined>());
	/** The goal, its spend or its budget state changed. */
	readonly onDidChange: Event<Goal | undefined> = this._onDidChange.event;
	private readonly _onDidStop = this._register(new Emitter<Goal>());
	/** A root turn stopped because the budget is spent (once per turn): the chat says so. */
	readonly onDidStop: Event<Goal> = this._onDidStop.event;

	constructor(
		private readonly session: GoalSession,
		private readonly options: ChatGoalOptions,
	) {
		super();
		this.fold();
		this._register(session.onDidAppend((record) => {
			if (rollsBackChat(record)) {
				this.restored();
				return;
			}
			this.take(record);
			this.afterAppend(record);
		}));
		const { roster } = session.reminders;
		if (!roster.has(GOAL_CURRENT.type)) {
			roster.register(
				goalCurrent({
					active: () => this.current(),
					ended: () => (this.active === undefined && this.toldActive ? this.ended : undefined),
					told: (active) => {
						this.toldActive = active;
					},
				}),
			);
			this.restoreCurrent();
		}
		if (!roster.has(GOAL_BUDGET.type)) {
			roster.register(agentGoalBudget({ passed: () => this.passed() }));
		}
	}

	/** A reopened chat: goal.current stays delivered while the history requests are built from holds its last delivery (made after the session restored the others). */
	private restoreCurrent(): void {
		let delivered: { readonly turn: number; readonly body: string } | undefined;
		for (const record of this.session.selectedRecords) {
			if (record.kind === RECORD_KIND && record.owner.kind === 'root') {
				const entry = record.entries.find((candidate) => candidate.type === GOAL_CURRENT.type);
				if (entry) {
					delivered = { turn: record.turn, body: entry.body };
				}
			}
		}
		if (delivered) {
			this.session.reminders.roster.restoreDelivery(GOAL_CURRENT.type, delivered.turn, delivered.body);
		}
	}

	/** The active goal, if any. */
	current(): Goal | undefined {
		const active = this.active;
		if (!active) {
			return undefined;
		}
		return {
			id: active.id,
			objective: active.objective,
			...(active.budget === undefined ? {} : { budget: active.budget }),
			...(active.plan === undefined ? {} : { plan: active.plan }),
			setAt: active.setAt,
			spent: active.spent, cacheRead: active.cacheRead,
			exhausted: active.budget !== undefined && active.spent >= active.budget,
		};
	}

	/** The active goal's approved plan file, if it carries one (plan.reference is suppressed for it). */
	planFile(): string | undefined {
		return this.active?.plan;
	}

	/**
	 * Sets the goal, or changes the active one: its objective or plan (`changed`, the spend goes
	 * on) and its budget (`budget`, one event with the old and new limits). Throws GoalError,
	 * having changed nothing, on bad input or when the record cannot be written.
	 */
	update(update: GoalUpdate): Goal {
		const active = this.active;
		const objective = update.objective === undefined ? undefined : checkObjective(update.objective);
		const budget = update.budget === undefined ? undefined : checkBudget(update.budget);
		let plan: string | undefined;
		if (update.implementsPlan === true) {
			plan = this.options.plans.current()?.file;
			if (plan === undefined || plan === '') {
				throw new GoalError('This chat has no approved plan for the goal to implement.');
			}
		}
		const { clock, newId } = this.options;
		if (!active) {
			if (objective === undefined) {
				throw new GoalError('Say what the goal is: set an objective first.');
			}
			const id = newId();
			this.record({ kind: 'goal', id, at: clock.now(), change: 'set', goal: id, objective, ...(budget === undefined ? {} : { budget }), ...(plan === undefined ? {} : { plan }) });
			return this.changed();
		}
		const nextObjective = objective ?? active.objective;
		const nextPlan = update.implementsPlan === undefined ? active.plan : plan;
		const nextBudget = update.budget === undefined ? active.budget : budget;
		const base = { kind: 'goal' as const, goal: active.id, objective: nextObjective, ...(nextPlan === undefined ? {} : { plan: nextPlan }) };
		if (nextObjective !== active.objective || nextPlan !== active.plan) {
			this.record({ ...base, id: newId(), at: clock.now(), change: 'changed', ...(active.budget === undefined ? {} : { budget: active.budget }) });
		}
		if (nextBudget !== active.budget) {
			const previous = active.budget;
			const passed = thresholdsPassed(active.spent, nextBudget);
			this.record({ ...base, id: newId(), at: clock.now(), change: 'budget', ...(nextBudget === undefined ? {} : { budget: nextBudget }), ...(previous === undefined ? {} : { previousBudget: previous }), ...(passed.length ? { passed } : {}) });
			this.queueBudgetChange(previous, nextBudget);
		}
		return this.changed();
	}

	/** The person marked the goal complete (`completed`) or removed it (`cleared`). */
	end(how: 'completed' | 'cleared'): void {
		const active = this.active;
		if (!active) {
			throw new GoalError('There is no goal to ' + (how === 'completed' ? 'complete.' : 'clear.'));
		}
		this.record({ kind: 'goal', id: this.options.newId(), at: this.options.clock.now(), change: how, goal: active.id });
		this.changed();
	}

	/**
	 * After a root step's tool calls: whether the budget is spent, so the turn stops here rather
	 * than send another request. The first stop of a turn is recorded (the chat says why).
	 */
	stopsNow(turnId: string): boolean {
		const goal = this.current();
		if (!goal?.exhausted) {
			return false;
		}
		if (this.stoppedTurn !== turnId) {
			this.stoppedTurn = turnId;
			try {
				this.session.append({ kind: 'goal', id: this.options.newId(), at: this.options.clock.now(), change: 'exhausted', goal: goal.id, ...(goal.budget === undefined ? {} : { budget: goal.budget }), spent: goal.spent });
			} catch {
				// The stop holds without its record: the goal control still says the budget is spent.
			}
			this._onDidStop.fire(goal);
		}
		return true;
	}

	private record(record: GoalRecord): void {
		if (this.session.isReadOnly === true) {
			throw new GoalError('This chat is being written in another window, so its goal cannot be changed here.');
		}
		try {
			this.session.append(record);
		} catch (error) {
			throw new GoalError(`Could not record the goal (${errorMessage(error)}), so nothing changed.`);
		}
	}

	private changed(): Goal {
		const goal = this.current() as Goal;
		this._onDidChange.fire(goal);
		return goal;
	}

	/** The goal, its spend and what the root was told, from the records no chat restore rolled back (their answers aside). */
	private fold(): void {
		this.active = undefined;
		this.ended = undefined;
		this.toldActive = false;
		for (const record of goalRecords(this.session.allRecords, this.session.records)) {
			this.take(record);
		}
	}

	/** After a chat restore: the goal as the kept records made it; what was queued says nothing true any more, so what is due is queued anew. */
	private restored(): void {
		this.fold();
		this.dropQueued();
		const change = this.budgetChange;
		if (change && (change.goal !== this.active?.id || change.next !== this.active?.budget)) {
			this.session.reminders.pending.consume([change.entry]);
			this.budgetChange = undefined;
		}
		this.settle();
		this._onDidChange.fire(this.current());
	}

	/** Folds one record into the goal, its spend and what the root was told. */
	private take(record: AgentRecord): void {
		switch (record.kind) {
			case 'goal':
				this.takeGoal(record);
				return;
			case 'assistant':
				if (this.active && record.usage) {
					chargeStep(this.active, record.usage);
				}
				return;
			case RECORD_KIND: {
				for (const entry of record.entries) {
					if (entry.type === GOAL_CURRENT.type && record.owner.kind === 'root') {
						this.toldActive = this.active !== undefined;
					} else if (entry.type === GOAL_BUDGET.type && record.owner.kind === 'root' && this.active) {
						for (const threshold of toldThresholds(this.active.id, entry.subjects)) {
							this.active.told.add(threshold);
						}
					}
				}
				return;
			}
			default:
				return;
		}
	}

	private takeGoal(record: GoalRecord): void {
		const active = this.active;
		switch (record.change) {
			case 'set':
				this.active = { id: record.goal, objective: record.objective ?? '', budget: record.budget, plan: record.plan, setAt: record.at, spent: 0, cacheRead: 0, told: new Set() };
				this.ended = undefined;
				return;
			case 'changed':
				if (active?.id === record.goal) {
					active.objective = record.objective ?? active.objective;
					active.plan = record.plan;
				}
				return;
			case 'budget':
				if (active?.id === record.goal) {
					active.budget = record.budget;
					// Judged against the new limit from here: what it already passes was said by the change.
					active.told.clear();
					for (const threshold of record.passed ?? []) {
						active.told.add(threshold);
					}
				}
				return;
			case 'completed':
			case 'cleared':
				if (active?.id === record.goal) {
					this.ended = { objective: active.objective, how: record.change };
					this.active = undefined;
				}
				return;
			case 'exhausted':
				return;
		}
	}

	/** What a record means for what the root is told (turn events, the FIFO) and the view. */
	private afterAppend(record: AgentRecord): void {
		switch (record.kind) {
			case 'assistant':
				if (this.active && record.usage) {
					this._onDidChange.fire(this.current());
				}
				return;
			case 'tool-result':
				this.reportInTurn();
				return;
			case 'turn-end':
				if (record.agent === undefined) {
					this.settle();
				}
				return;
			case 'goal':
				if (record.change !== 'exhausted' && record.change !== 'changed') {
					// Reports queued under the old limit, or of an ended goal, say nothing true any more.
					this.dropQueued();
				}
				return;
			default:
				return;
		}
	}

	private facts(): BudgetFacts | undefined {
		const active = this.active;
		return active?.budget === undefined ? undefined : { goal: active.id, objective: active.objective, budget: active.budget, spent: active.spent };
	}

	/** Thresholds passed and not yet told, nor waiting on the FIFO. */
	private due(): number[] {
		const active = this.active;
		if (!active) {
			return [];
		}
		const waiting = new Set(this.fifo?.thresholds ?? []);
		return thresholdsPassed(active.spent, active.budget).filter((threshold) => !active.told.has(threshold) && !waiting.has(threshold));
	}

	/** A tool-result boundary of a running root turn: newly passed thresholds as its turn event (one, replacing an older one). */
	private reportInTurn(): void {
		const owner = this.session.reminders.currentRootOwner;
		const facts = this.facts();
		if (!owner || !facts) {
			return;
		}
		const due = this.due();
		if (due.length === 0 || (this.event && sameThresholds(this.event.thresholds, due))) {
			return;
		}
		const entry: TurnEvent = thresholdEntry(facts, due, () => {
			this.markTold(entry, due);
		});
		if (this.session.reminders.queueTurnEvent(owner, entry)) {
			this.event = { thresholds: due, entry };
		}
	}

	/** A root turn ended: its queued events were dropped; what it passed and did not tell goes on the FIFO. */
	private settle(): void {
		this.event = undefined;
		const facts = this.facts();
		const due = this.due();
		if (!facts || due.length === 0) {
			return;
		}
		const thresholds = [...(this.fifo?.thresholds ?? []), ...due].sort((a, b) => a - b);
		if (this.fifo) {
			this.session.reminders.pending.consume([this.fifo.entry]);
		}
		const entry = thresholdEntry(facts, thresholds, () => {
			this.markTold(entry, thresholds);
		});
		this.session.reminders.enqueuePending(entry);
		this.fifo = { thresholds, entry };
	}

	private markTold(entry: StagedEntry, thresholds: readonly number[]): void {
		if (this.event?.entry === entry) {
			this.event = undefined;
		}
		if (this.fifo?.entry === entry) {
			this.fifo = undefined;
		}
		const active = this.active;
		if (active && entry.subjects?.[0]?.ref === `goal:${active.id}`) {
			for (const threshold of thresholds) {
				active.told.add(threshold);
			}
		}
	}

	/** One budget-change event on the FIFO: a second change before it went out replaces it, keeping the first old limit. */
	private queueBudgetChange(previous: number | undefined, next: number | undefined): void {
		const { reminders } = this.session;
		const first = this.budgetChange ? this.budgetChange.previous : previous;
		if (this.budgetChange) {
			reminders.pending.consume([this.budgetChange.entry]);
		}
		const change = budgetChangeEntry(first, next, this.active?.spent ?? 0);
		const entry: StagedEntry = {
			...change,
			commit: () => {
				if (this.budgetChange?.entry === entry) {
					this.budgetChange = undefined;
				}
			},
		};
		reminders.enqueuePending(entry);
		this.budgetChange = { previous: first, goal: this.active?.id, next, entry };
	}

	private dropQueued(): void {
		const { reminders } = this.session;
		if (this.fifo) {
			reminders.pending.consume([this.fifo.entry]);
			this.fifo = undefined;
		}
		const owner = reminders.currentRootOwner;
		if (this.event && owner) {
			// A null body replaces the stale event: nothing is sent, nothing counted as told.
			reminders.queueTurnEvent(owner, { type: GOAL_BUDGET.type, key: GOAL_BUDGET.key, body: null });
		}
		this.event = undefined;
		if (!this.active && this.budgetChange) {
			reminders.pending.consume([this.budgetChange.entry]);
			this.budgetChange = undefined;
		}
	}

	/** The highest threshold the active goal passed, for its sub-agents. */
	private passed(): { readonly facts: BudgetFacts; readonly highest: number } | undefined {
		const facts = this.facts();
		const highest = facts && thresholdsPassed(facts.spent, facts.budget).at(-1);
		return facts && highest !== undefined ? { facts, highest } : undefined;
	}
}

function sameThresholds(a: readonly number[], b: readonly number[]): boolean {
	return a.length === b.length && a.every((value, index) => value === b[index]);
}
