// What the root is told of a goal's budget, and when: each newly passed threshold once, as a turn
// event while a root turn runs (checked at every tool result), else on the pending FIFO; a budget
// change as one FIFO event. What was told is marked on the active goal when its entry commits.
import type { StagedEntry } from '../../reminders/definition';
import type { ReminderEngine } from '../../reminders/engine';
import type { TurnEvent } from '../../reminders/turnEvents';
import { GOAL_BUDGET } from './goalReminders';
import { budgetChangeEntry, type BudgetFacts, thresholdEntry, thresholdsPassed } from './goalBudget';
import type { Spend } from './goalSpend';

/** The active goal as the chat folds it from its records. */
export interface Active extends Spend {
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

export class BudgetReports {
	private event: Queued | undefined;
	private fifo: Queued | undefined;
	private budgetChange: {
		readonly previous: number | undefined;
		readonly goal: string | undefined;
		readonly next: number | undefined;
		readonly entry: StagedEntry;
	} | undefined;

	constructor(
		private readonly session: { readonly reminders: ReminderEngine },
		private readonly active: () => Active | undefined,
	) {}

	/** After a chat restore: a budget change queued for a goal or limit the kept records no longer have says nothing true. */
	dropStaleBudgetChange(): void {
		const change = this.budgetChange;
		const active = this.active();
		if (change && (change.goal !== active?.id || change.next !== active?.budget)) {
			this.session.reminders.pending.consume([change.entry]);
			this.budgetChange = undefined;
		}
	}

	private facts(): BudgetFacts | undefined {
		const active = this.active();
		return active?.budget === undefined ? undefined : { goal: active.id, objective: active.objective, budget: active.budget, spent: active.spent };
	}

	/** Thresholds passed and not yet told, nor waiting on the FIFO. */
	private due(): number[] {
		const active = this.active();
		if (!active) {
			return [];
		}
		const waiting = new Set(this.fifo?.thresholds ?? []);
		return thresholdsPassed(active.spent, active.budget).filter((threshold) => !active.told.has(threshold) && !waiting.has(threshold));
	}

	/** A tool-result boundary of a running root turn: newly passed thresholds as its turn event (one, replacing an older one). */
	reportInTurn(): void {
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
	settle(): void {
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
		const active = this.active();
		if (active && entry.subjects?.[0]?.ref === `goal:${active.id}`) {
			for (const threshold of thresholds) {
				active.told.add(threshold);
			}
		}
	}

	/** One budget-change event on the FIFO: a second change before it went out replaces it, keeping the first old limit. */
	queueBudgetChange(previous: number | undefined, next: number | undefined): void {
		const { reminders } = this.session;
		const first = this.budgetChange ? this.budgetChange.previous : previous;
		if (this.budgetChange) {
			reminders.pending.consume([this.budgetChange.entry]);
		}
		const change = budgetChangeEntry(first, next, this.active()?.spent ?? 0);
		const entry: StagedEntry = {
			...change,
			commit: () => {
				if (this.budgetChange?.entry === entry) {
					this.budgetChange = undefined;
				}
			},
		};
		reminders.enqueuePending(entry);
		this.budgetChange = { previous: first, goal: this.active()?.id, next, entry };
	}

	dropQueued(): void {
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
		if (!this.active() && this.budgetChange) {
			reminders.pending.consume([this.budgetChange.entry]);
			this.budgetChange = undefined;
		}
	}

	/** The highest threshold the active goal passed, for its sub-agents. */
	passed(): { readonly facts: BudgetFacts; readonly highest: number } | undefined {
		const facts = this.facts();
		const highest = facts && thresholdsPassed(facts.spent, facts.budget).at(-1);
		return facts && highest !== undefined ? { facts, highest } : undefined;
	}
}

function sameThresholds(a: readonly number[], b: readonly number[]): boolean {
	return a.length === b.length && a.every((value, index) => value === b[index]);
}
