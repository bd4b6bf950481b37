// What the agent keeps for each chat beside its records: its plan state (plans.ts) and its task
// list (tasks.ts), each made — its reminders installed — the first time the chat is asked for it,
// and dropped with the chat (weakly held).
import type { Clock, IdSource } from '../base/clock';
import { ChatPlans, type PlanFiles } from './plans';
import type { ChatSession } from './session';
import { ChatTasks } from './tasks';

export interface ChatWorkOptions {
	readonly clock: Clock;
	readonly ids: IdSource;
	/** Where approved plans are saved; without it an approval is refused with a message. */
	readonly planFiles?: PlanFiles;
	/** `aside.plan.referenceMaxChars`, read when the reference is built. */
	readonly planReferenceMaxChars: () => number;
	/** Whether the child agent `path` runs now (its task rows are told apart by it). */
	readonly isRunning: (path: string) => boolean;
}

export class ChatWork {
	private readonly plans = new WeakMap<ChatSession, ChatPlans>();
	private readonly tasks = new WeakMap<ChatSession, ChatTasks>();

	constructor(private readonly options: ChatWorkOptions) {}

	/** The plan state of a chat, made (and its plan reminders installed) the first time it is asked for. */
	plansOf(session: ChatSession): ChatPlans {
		let plans = this.plans.get(session);
		if (!plans) {
			const { clock, ids, planFiles } = this.options;
			plans = new ChatPlans(session, {
				clock,
				newId: () => ids.next(),
				...(planFiles ? { files: planFiles } : {}),
				referenceMaxChars: this.options.planReferenceMaxChars,
			});
			this.plans.set(session, plans);
		}
		return plans;
	}

	/** The task list of a chat, made (restored from its records, and its tasks.nudge installed) the first time it is asked for. */
	tasksOf(session: ChatSession): ChatTasks {
		let tasks = this.tasks.get(session);
		if (!tasks) {
			const { clock, ids, isRunning } = this.options;
			// The view shows the rows from the chat's tasks records (src/view/tasksView.ts), not from here.
			tasks = new ChatTasks(session, { clock, newId: () => ids.next(), isRunning });
			this.tasks.set(session, tasks);
		}
		return tasks;
	}

	/** plan.reference again, once, after a compaction: only when the chat has an approved plan. */
	rearmPlan(session: ChatSession): void {
		const plans = this.plansOf(session);
		if (plans.current()) {
			plans.rearm('the chat was compacted');
		}
	}
}
