// The task list's part of the view: the current chat's task panel, projected from its records as
// every other part of the chat is (tasksView.ts), in the snapshot and as `tasks.changed` when a
// record changes it. Another chat becoming current is a new snapshot, so it sends nothing then.
import { whileCurrent } from '../../base/current';
import { Emitter, type Event } from '../../base/event';
import { Disposable, type IDisposable } from '../../base/lifecycle';
import type { ChatSession } from '../../agent/session';
import type { ViewState } from '../../protocol/messages';
import type { TasksView } from '../../protocol/tasks';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import { TaskProjection } from './tasksView';

export interface TasksSource {
	readonly current: ChatSession;
	readonly onDidChangeCurrent: Event<ChatSession>;
}

export class TasksPresenter extends Disposable implements FeatureViewPart {
	readonly id = 'tasks';
	/** The current chat's projection. */
	private followed: { readonly session: ChatSession; readonly projection: TaskProjection } | undefined;
	private readonly _onDidChange = this._register(new Emitter<TasksView>());
	/** The current chat's task list changed. */
	readonly onDidChange: Event<TasksView> = this._onDidChange.event;

	constructor(private readonly sessions: TasksSource) {
		super();
		this._register(whileCurrent(sessions, (session) => {
			const projection = this.projectionOf(session);
			return session.onDidAppend((record) => {
				if (projection.take(record)) {
					this._onDidChange.fire(projection.view());
				}
			});
		}));
	}

	/**
	 * The projection of `session`, made from its records the first time it is asked for. The
	 * snapshot of a chat just made current may ask before this part follows it: no record comes
	 * in between, so the projection it makes is the one followed then.
	 */
	private projectionOf(session: ChatSession): TaskProjection {
		if (this.followed?.session !== session) {
			const projection = new TaskProjection();
			for (const record of session.allRecords) {
				projection.take(record);
			}
			this.followed = { session, projection };
		}
		return this.followed.projection;
	}

	/** The current chat's task list. */
	view(): TasksView {
		return this.projectionOf(this.sessions.current).view();
	}

	snapshot(): Partial<ViewState> {
		return { tasks: this.view() };
	}

	connect(view: FeatureViewPort): IDisposable {
		return this.onDidChange((tasks) => {
			view.send({ type: 'tasks.changed', tasks });
		});
	}
}
