// The goal control's side of the view (docs/goals.md): the current chat's goal as GoalView, on
// every change of it (its spend included) and of the current chat, and what the control and
// `/goal` ask of it. Refusals come back as words for the chat to say; nothing changed then.
import { whileCurrent } from '../base/current';
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import { Disposable, DisposableStore } from '../base/lifecycle';
import type { ApprovedPlans } from '../agent/approvedPlan';
import type { ChatGoal } from '../agent/goal';
import type { Goal, GoalUpdate } from '../agent/goalFacts';
import type { ChatSession } from '../agent/session';
import type { GoalView } from '../protocol/messages';

/** What the view connection can see of the goal and ask of it. */
export interface GoalControls {
	view(): GoalView;
	readonly onDidChange: Event<GoalView>;
	/** A turn stopped because the goal's budget is spent: why, in words for the chat. */
	readonly onDidStop: Event<string>;
	/** Sets or changes the goal; returns why it could not, or undefined. */
	update(update: GoalUpdate): string | undefined;
	/** Completes or clears it; returns why it could not, or undefined. */
	end(how: 'completed' | 'cleared'): string | undefined;
}

export interface GoalSource {
	readonly sessions: { readonly current: ChatSession; readonly onDidChangeCurrent: Event<ChatSession> };
	goalOf(session: ChatSession): ChatGoal;
	readonly approvedPlans: ApprovedPlans;
	/** Fired when the agent's state changes (a plan approved: the control's plan checkbox). */
	readonly onDidChange: Event<unknown>;
}

const count = new Intl.NumberFormat('en-US');

/** Why the agent stopped, for the chat. */
export function stopWords(goal: Goal): string {
	return `The goal's token budget is spent (${count.format(goal.spent)} of ${count.format(goal.budget ?? 0)} tokens), so the agent stopped after this step. Raise the budget in the goal line (or with /goal budget …) to let it go on.`;
}

export class GoalPresenter extends Disposable implements GoalControls {
	private readonly _onDidChange = this._register(new Emitter<GoalView>());
	readonly onDidChange: Event<GoalView> = this._onDidChange.event;
	private readonly _onDidStop = this._register(new Emitter<string>());
	readonly onDidStop: Event<string> = this._onDidStop.event;
	private sent: string | undefined;

	constructor(private readonly source: GoalSource) {
		super();
		this._register(whileCurrent(source.sessions, (session) => {
			const goal = source.goalOf(session);
			const store = new DisposableStore();
			store.add(goal.onDidChange(() => {
				this.fire();
			}));
			store.add(goal.onDidStop((stopped) => {
				this._onDidStop.fire(stopWords(stopped));
			}));
			return store;
		}));
		this._register(source.onDidChange(() => {
			this.fire();
		}));
	}

	view(): GoalView {
		const session = this.source.sessions.current;
		const goal = this.source.goalOf(session).current();
		const plan = this.source.approvedPlans.current()?.file;
		return {
			active: goal
				? {
						objective: goal.objective,
						...(goal.budget === undefined ? {} : { budget: goal.budget }),
						spent: goal.spent,
						...(goal.cacheRead > 0 ? { cacheRead: goal.cacheRead } : {}),
						...(goal.plan === undefined ? {} : { plan: goal.plan }),
						exhausted: goal.exhausted,
					}
				: null,
			...(plan ? { approvedPlan: plan } : {}),
			...(session.isReadOnly ? { readOnly: true } : {}),
		};
	}

	update(update: GoalUpdate): string | undefined {
		return this.act((goal) => {
			goal.update(update);
		});
	}

	end(how: 'completed' | 'cleared'): string | undefined {
		return this.act((goal) => {
			goal.end(how);
		});
	}

	private act(change: (goal: ChatGoal) => void): string | undefined {
		try {
			change(this.source.goalOf(this.source.sessions.current));
			return undefined;
		} catch (error) {
			return errorMessage(error);
		}
	}

	/** Only a view that says something new (the agent changes often). */
	private fire(): void {
		const view = this.view();
		const json = JSON.stringify(view);
		if (json !== this.sent) {
			this.sent = json;
			this._onDidChange.fire(view);
		}
	}
}
