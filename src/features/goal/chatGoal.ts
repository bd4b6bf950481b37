// The goal of one chat (docs/goals.md): an objective, an optional token budget and optionally the
// approved plan it implements, folded from the chat's `goal` records (so a reopened chat has it
// again). Its spend is what every request recorded since it was set charged (goalSpend.ts), the
// sub-agents' included. It installs the chat's goal.current and the sub-agents' goal.budget, and
// reports the root's thresholds itself, each newly passed one once (as a turn event while a root
// turn runs, else on the pending FIFO), recorded so a reopened chat does not tell it again. At
// 100 % the root turn stops after its step (`stopAfterStep`); a restore rolls the goal back.
import type { Clock } from '../../base/clock';
import { errorMessage } from '../../base/errors';
import { Emitter, type Event } from '../../base/event';
import { Disposable } from '../../base/lifecycle';
import { GOAL_BUDGET, GOAL_CURRENT } from './goalReminders';
import { agentGoalBudget, thresholdsPassed, toldThresholds } from './goalBudget';
import { goalCurrent } from './goalCurrent';
import type { ReminderEngine } from '../../reminders/engine';
import { RECORD_KIND } from '../../reminders/record';
import type { AgentRecord } from '../../transcript/records';
import type { GoalRecord } from './goalRecord';
import { rollsBackChat } from '../../transcript/replay';
import type { ApprovedPlans } from '../../agent/approvedPlan';
import type { FeatureState } from '../../agent/chatFeature';
import { checkBudget, checkObjective, type Goal, GoalError, type GoalUpdate } from './goalFacts';
import { goalRecords, takeGoal } from './goalRecords';
import { chargeStep } from './goalSpend';
import { type Active, BudgetReports } from './budgetReports';
import type { Ended } from './goalRecords';

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

export class ChatGoal extends Disposable implements FeatureState {
	private active: Active | undefined;
	/** How the last goal ended, and its objective (goal.current says it once). */
	private ended: Ended | undefined;
	/** Whether goal.current last told the model of an active goal. */
	private toldActive = false;
	/** The root turn whose stop at the budget was recorded (once per turn). */
	private stoppedTurn: string | undefined;
	/** What the root is told of the budget, and when. */
	private readonly reports: BudgetReports;

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
		this.reports = new BudgetReports(session, () => this.active);
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
			roster.register(agentGoalBudget({ passed: () => this.reports.passed() }));
		}
	}

	/** A reopened chat: goal.current stays delivered while the replayed history holds its last delivery (made after the session restored the others). */
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
	carriedPlan(): string | undefined {
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
			this.reports.queueBudgetChange(previous, nextBudget);
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
	stopAfterStep(turnId: string): boolean {
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
		this.reports.dropQueued();
		this.reports.dropStaleBudgetChange();
		this.reports.settle();
		this._onDidChange.fire(this.current());
	}

	/** Folds one record into the goal, its spend and what the root was told. */
	private take(record: AgentRecord): void {
		switch (record.kind) {
			case 'goal':
				({ active: this.active, ended: this.ended } = takeGoal({ active: this.active, ended: this.ended }, record));
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

	/** What a record means for what the root is told (turn events, the FIFO) and the view. */
	private afterAppend(record: AgentRecord): void {
		switch (record.kind) {
			case 'assistant':
				if (this.active && record.usage) {
					this._onDidChange.fire(this.current());
				}
				return;
			case 'tool-result':
				this.reports.reportInTurn();
				return;
			case 'turn-end':
				if (record.agent === undefined) {
					this.reports.settle();
				}
				return;
			case 'goal':
				if (record.change !== 'exhausted' && record.change !== 'changed') {
					// Reports queued under the old limit, or of an ended goal, say nothing true any more.
					this.reports.dropQueued();
				}
				return;
			default:
				return;
		}
	}
}
