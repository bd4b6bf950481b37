// A chat's prompt hooks as its root turns meet them (docs/hooks.md): SessionStart when it is due
// (`startup` at a new chat's first message, `resume` at the first message this window sends in a
// chat that already has some, `compact` at the first message after a compaction), its context
// into the chat's pending hook context; UserPromptSubmit, whose context is accepted with the
// message; the reservation of what is pending into the turn's first request (recorded at its WAIT
// commit, given back when it fails before); and the Stop hooks' say on whether the turn ends.
// One per chat; sub-agents have none (their loops never reserve, never run these events).
import { errorMessage } from '../base/errors';
import { PendingHookContext } from '../hooks/pendingContext';
import type { HookContextEntry, PromptHookAnswer, PromptHooks, SessionStartSource } from '../hooks/toolHooks';
import type { Owner } from '../reminders/definition';
import { hookOutcome } from '../reminders/builtin/hookOutcome';
import type { ReminderEngine } from '../reminders/engine';
import type { AgentRecord } from '../transcript/records';
import type { Runtime } from './ports';

/** Pending hook context reserved into one request: recorded once it went out, else given back. */
export interface HookReservation {
	/** What replay renders it as (replayHistory's `reservedHookContext`). */
	readonly replay: { readonly turnId: string; readonly entries: readonly HookContextEntry[] };
	/** The request was accepted: the hook-context record is written (before the request's reminders are committed). */
	commit(requestId: string): void;
	/** The request did not go out (or was never sent): back to pending. Nothing after a commit. */
	release(): void;
}

/** What a root turn asks of its chat's prompt hooks (TurnScope.prompt). */
export interface TurnPromptHooks {
	/** Before the message is recorded: SessionStart if due, then UserPromptSubmit (`blocked`: not sent, and why). */
	beforeMessage(text: string, signal: AbortSignal): Promise<PromptHookAnswer>;
	/** For the turn's first request (each attempt of it): what is pending, or undefined. */
	reserve(turnId: string): HookReservation | undefined;
	/** The turn is about to end with an answer: true when a Stop hook keeps it going (its reason is queued as hook.outcome). */
	keepGoing(active: boolean, owner: Owner, signal: AbortSignal): Promise<boolean>;
}

/** Where a chat's prompt hooks write and queue. */
export interface ChatHooksTarget {
	readonly records: readonly AgentRecord[];
	append(record: AgentRecord): void;
	readonly reminders: ReminderEngine;
}

export class ChatPromptHooks implements TurnPromptHooks {
	readonly pending = new PendingHookContext();
	/** This window has run SessionStart for the chat (so the next one is due only after a compaction). */
	private started = false;
	private compactedSince = false;

	constructor(
		private readonly hooks: PromptHooks,
		private readonly chat: ChatHooksTarget,
		private readonly runtime: Runtime,
	) {}

	/** The chat was compacted (manually, automatically or on overflow): SessionStart `compact` is due at the next message. */
	compacted(): void {
		this.compactedSince = true;
	}

	/** Which SessionStart is due, if any. */
	private due(): SessionStartSource | undefined {
		if (this.compactedSince) {
			return 'compact';
		}
		if (this.started) {
			return undefined;
		}
		return this.chat.records.some((record) => record.kind === 'user' && record.agent === undefined) ? 'resume' : 'startup';
	}

	async beforeMessage(text: string, signal: AbortSignal): Promise<PromptHookAnswer> {
		const source = this.due();
		if (source !== undefined) {
			this.started = true;
			this.compactedSince = false;
			// Pending, not the message's: it is reserved into the request that carries it.
			this.pending.add(await this.hooks.sessionStart(source, signal));
		}
		return this.hooks.userPromptSubmit(text, signal);
	}

	reserve(turnId: string): HookReservation | undefined {
		const entries = this.pending.take();
		if (entries === undefined) {
			return undefined;
		}
		let settled = false;
		return {
			replay: { turnId, entries },
			commit: (requestId) => {
				if (settled) {
					return;
				}
				settled = true;
				const { clock, ids, log } = this.runtime;
				try {
					this.chat.append({ kind: 'hook-context', id: ids.next(), turnId, requestId, at: clock.now(), entries: [...entries] });
				} catch (error) {
					// Unrecorded, it would vanish on reopen: offered again with the next turn instead.
					log.error(`Aside: the hook context of request ${requestId} could not be recorded: ${errorMessage(error)}`);
					this.pending.giveBack(entries);
				}
			},
			release: () => {
				if (!settled) {
					settled = true;
					this.pending.giveBack(entries);
				}
			},
		};
	}

	async keepGoing(active: boolean, owner: Owner, signal: AbortSignal): Promise<boolean> {
		const said = await this.hooks.stop(active, signal);
		if (said?.kind !== 'continue' || signal.aborted) {
			// A halt (continue: false) ends the turn too: the chat already said why.
			return false;
		}
		this.chat.reminders.queueTurnEvent(owner, hookOutcome({ event: 'Stop', tool: '', kind: 'blocked', text: said.reason }));
		return true;
	}
}
