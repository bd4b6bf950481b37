// The user rows of the root conversation as their turn goes on: a message's row is sent when it
// is recorded, and changed twice at most by what comes after it — the turn's first request says
// what became of its mentions (its `injected-reminders` record), and the hook context that was
// pending when that request was prepared arrives at its commit (a `hook-context` record).
import { userImageView } from './imageUploads';
import { conversationOf } from '../agent/session';
import type { HookContextView, MentionChipView, UserTurnItem } from '../protocol/messages';
import type { AgentRecord, UserRecord } from '../transcript/records';
import { ImplementationRequests } from './implementationRequests';
import { chipsOf, type MentionEntryLike, settleChips } from './mentionChips';

/** The view's copy of hook context is bounded like other bodies (the transcript keeps all of it). */
const MAX_HOOK_TEXT_CHARS = 20_000;

function hookContextView(entries: readonly HookContextView[]): HookContextView[] {
	return entries.map(({ event, text }) => ({ event, text: text.length <= MAX_HOOK_TEXT_CHARS ? text : `${text.slice(0, MAX_HOOK_TEXT_CHARS)}\n… ${(text.length - MAX_HOOK_TEXT_CHARS).toLocaleString('en-US')} more characters (the model received all of them)` }));
}

function withParts(base: UserTurnItem, mentions: readonly MentionChipView[], hookContext: readonly HookContextView[]): UserTurnItem {
	const { mentions: _mentions, hookContext: _hookContext, ...rest } = base;
	return {
		...rest,
		...(mentions.length > 0 ? { mentions: [...mentions] } : {}),
		...(hookContext.length > 0 ? { hookContext: hookContextView(hookContext) } : {}),
	};
}

interface Open {
	item: UserTurnItem;
	readonly turnId: string;
	mentions: readonly MentionChipView[];
	/** The record's own hook context (accepted when it was recorded), before any reserved one came. */
	readonly own: readonly HookContextView[];
	reserved: readonly HookContextView[];
	/** The first request was recorded: the chips say their outcome. */
	settled: boolean;
}

export class UserRows {
	/** The root's latest user message, while its turn's first request may still change its row. */
	private open: Open | undefined;
	private readonly requests = new ImplementationRequests();

	/** The row of a user record (a child's prompt is shown as it is: mentions expand only for the root). */
	start(record: UserRecord): UserTurnItem {
		const command = record.command === undefined ? {} : { command: record.command.slice(0, 2000) };
		const startedBy = record.startedBy === undefined ? {} : { startedBy: { ...record.startedBy, body: record.startedBy.body.slice(0, 200_000) } };
		const images = record.images?.length ? { images: record.images.map(userImageView) } : {};
		const row: UserTurnItem = { kind: 'user', id: record.id, text: record.text, at: record.at, ...command, ...startedBy, ...images };
		if (record.agent !== undefined) {
			return row;
		}
		const request = this.requests.take(record);
		const base = request ? { ...row, implementsPlan: request } : row;
		const own = record.hookContext ?? [];
		const mentions = chipsOf(record.text);
		const item = withParts(base, mentions, own);
		this.open = { item, turnId: record.turnId, mentions, own, reserved: [], settled: mentions.length === 0 };
		return item;
	}

	/** The user row this record changed, if it did (its item, as it is now). */
	take(record: AgentRecord): UserTurnItem | undefined {
		this.requests.see(record);
		const { open } = this;
		if (open === undefined || conversationOf(record) !== undefined) {
			return undefined;
		}
		switch (record.kind) {
			case 'injected-reminders':
				return record.phase === 'turn-start' ? this.settle(open, record.entries) : undefined;
			case 'assistant':
				// A request went out carrying no injection: none of its mentions named anything.
				return record.stop === 'failed' || record.stop === 'interrupted' ? undefined : this.settle(open, []);
			case 'hook-context':
				if (record.turnId !== open.turnId) {
					return undefined;
				}
				open.reserved = [...open.reserved, ...record.entries];
				return this.changed(open);
			case 'turn-end':
				this.open = undefined;
				return undefined;
			default:
				return undefined;
		}
	}

	private settle(open: Open, entries: readonly MentionEntryLike[]): UserTurnItem | undefined {
		if (open.settled) {
			return undefined;
		}
		open.settled = true;
		open.mentions = settleChips(open.mentions, entries);
		return this.changed(open);
	}

	private changed(open: Open): UserTurnItem {
		// Reserved context went into the request before the message's own (as replay renders it).
		open.item = withParts(open.item, open.mentions, [...open.reserved, ...open.own]);
		return open.item;
	}
}
