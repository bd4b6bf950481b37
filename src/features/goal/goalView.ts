// The goal's part of the view (docs/goals.md): the current chat's goal as GoalView, on every
// change of it (its spend included) and of the current chat, the control's `goal.*` messages and
// `/goal`. Refusals are said in the chat; nothing changed then.
import { whileCurrent } from '../../base/current';
import { errorMessage } from '../../base/errors';
import { Emitter, type Event } from '../../base/event';
import { Disposable, DisposableStore, type IDisposable } from '../../base/lifecycle';
import type { ApprovedPlans } from '../../agent/approvedPlan';
import type { ChatGoal } from './chatGoal';
import type { Goal, GoalUpdate } from './goalFacts';
import type { ChatSession } from '../../agent/session';
import type { GoalView } from '../../protocol/goal';
import type { ViewMessage } from '../../protocol/messages';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import type { SlashCommand } from '../../view/slashCommands';
import { type GoalCommand, goalCommand } from './goalCommand';

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

export class GoalPresenter extends Disposable implements GoalControls, FeatureViewPart {
	readonly id = 'goal';
	readonly commands: readonly SlashCommand[] = [
		{
			name: '/goal',
			args: '[objective | budget 200k | done | clear]',
			summary: 'set or change the chat\'s goal',
			run: (text, view) => {
				const command = goalCommand(text);
				if (command) {
					this.run(command, view);
				}
			},
		},
	];
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

	connect(view: FeatureViewPort): IDisposable {
		const store = new DisposableStore();
		store.add(this.onDidChange((goal) => {
			view.send({ type: 'goal.changed', goal });
		}));
		store.add(this.onDidStop((why) => {
			view.notice('warning', why);
		}));
		return store;
	}

	shown(view: FeatureViewPort): void {
		view.send({ type: 'goal.changed', goal: this.view() });
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		switch (message.type) {
			case 'goal.set': {
				const { type: _type, ...update } = message;
				this.say(view, this.update(update));
				return;
			}
			case 'goal.end':
				this.say(view, this.end(message.how));
				return;
			default:
				return;
		}
	}

	/** `/goal …` typed in the composer (goalCommand.ts). */
	private run(command: GoalCommand, view: FeatureViewPort): void {
		switch (command.kind) {
			case 'show':
				view.send({ type: 'goal.open' });
				return;
			case 'invalid':
				view.notice('warning', command.error);
				return;
			case 'objective':
				this.say(view, this.update({ objective: command.objective }));
				return;
			case 'budget':
				this.say(view, this.update({ budget: command.budget }));
				return;
			case 'end':
				this.say(view, this.end(command.how));
				return;
		}
	}

	private say(view: FeatureViewPort, refused: string | undefined): void {
		if (refused !== undefined) {
			view.notice('warning', refused);
		}
	}
}
