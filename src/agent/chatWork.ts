// What the agent keeps for each chat beside its records and its chat features (chatFeature.ts): its
// plan state (plans.ts) and its prompt hooks with their pending context (turnHooks.ts), each made —
// its reminders installed — the first time the chat is asked for it, and dropped with the chat
// (weakly held).
import type { Clock, IdSource } from '../base/clock';
import type { Logger } from '../base/log';
import type { PromptHooks } from '../hooks/toolHooks';
import { ChatPlans, type PlanFiles } from './plans';
import type { ChatSession } from './session';
import { ChatPromptHooks } from './turnHooks';

export interface ChatWorkOptions {
	readonly clock: Clock;
	readonly ids: IdSource;
	/** Where approved plans are saved; without it an approval is refused with a message. */
	readonly planFiles?: PlanFiles;
	/** `aside.plan.referenceMaxChars`, read when the reference is built. */
	readonly planReferenceMaxChars: () => number;
	/** The person's SessionStart / UserPromptSubmit / Stop hooks; none, no chat runs them. */
	readonly promptHooks?: PromptHooks;
	readonly log: Logger;
	/** The approved plan file a chat feature already tells the model of (plan.reference is not repeated for it). */
	readonly carriedPlan: (session: ChatSession) => string | undefined;
}

export class ChatWork {
	private readonly plans = new WeakMap<ChatSession, ChatPlans>();
	private readonly hooks = new WeakMap<ChatSession, ChatPromptHooks>();

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
				carriedPlan: () => this.options.carriedPlan(session),
			});
			this.plans.set(session, plans);
		}
		return plans;
	}

	/** The chat's prompt hooks and pending hook context (none without hooks), kept while the window has the chat. */
	promptHooksOf(session: ChatSession): ChatPromptHooks | undefined {
		const { promptHooks, clock, ids, log } = this.options;
		if (!promptHooks) {
			return undefined;
		}
		let hooks = this.hooks.get(session);
		if (!hooks) {
			hooks = new ChatPromptHooks(promptHooks, session, { clock, ids, log });
			this.hooks.set(session, hooks);
		}
		return hooks;
	}

	/** After a compaction of the chat: plan.reference re-armed, SessionStart `compact` due at the next message. */
	compacted(session: ChatSession): void {
		this.rearmPlan(session);
		this.promptHooksOf(session)?.compacted();
	}

	/** After a chat restore: plan.reference re-armed (the rolled-back part may have carried it). */
	restored(session: ChatSession): void {
		this.rearmPlan(session, 'the chat was restored to an earlier message');
	}

	/** plan.reference again, once, after a compaction: only when the chat has an approved plan. */
	private rearmPlan(session: ChatSession, why = 'the chat was compacted'): void {
		const plans = this.plansOf(session);
		if (plans.current()) {
			plans.rearm(why);
		}
	}
}
