// How full the model's context is, and what the harness's own reminders cost of it: users of
// other agents asked for exactly this. Fed every record of a session once, in order; cheap per
// record, so a 10,000-record session costs nothing extra to keep current. A compaction record is
// the one exception: it sums the reminders of the tail it keeps, once. Each block is estimated
// once, as it is taken (`estimateTokens`); every figure the view shows is a sum of those, so the
// context line and the table agree to the token where they count the same blocks.
import { conversationOf } from '../agent/session';
import type { ContextUseView, ReminderCostView } from '../protocol/messages';
import { CONTEXT_SUMMARY } from '../reminders/builtin/catalog/context';
import { wrap } from '../reminders/envelope';
import type { AgentRecord } from '../transcript/records';
import type { RestoreRecord } from '../transcript/restoreRecord';
import type { CompactionRecord } from '../transcript/historyMarkers';
import { rollsBackChat, summaryMessage } from '../transcript/replay';
import { BUILTIN_KEYS } from '../reminders/keys';

/** The usual rough estimate: about four characters a token for English and code. */
const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
	return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** A block as the model saw it, wrapped and escaped, in tokens. A record never holds a forged body; if one did, count the raw body. */
function blockTokens(key: string, body: string): number {
	try {
		return estimateTokens(wrap(key, body));
	} catch {
		return estimateTokens(body);
	}
}

/** The `context.summary` block a compaction's summary is replayed as, in tokens. */
function summaryTokens(record: CompactionRecord): number {
	const [part] = summaryMessage(record).content;
	return part?.type === 'text' ? estimateTokens(part.text) : 0;
}

interface Cost {
	label: string;
	deliveries: number;
	tokens: number;
}

/** What the context holds at a point of the chat: what a restore to that point goes back to. */
interface Point {
	readonly usedTokens: number | undefined;
	readonly inContext: number;
	readonly sinceCompaction: number;
	readonly compaction: ContextUseView['compaction'];
}

/** One record of the root conversation, as much as a later compaction or restore needs of it. */
interface Seen {
	/** The record's id (injection records have none, and are never a `keepFrom`). */
	readonly id: string | undefined;
	/** Tokens of the reminder blocks it holds (an injection's entries, a result's notices). */
	readonly tokens: number;
	/** For a root user record: the context just before it, where a chat restored to it goes on from. */
	readonly before?: Point;
}

/** What the view says beside the tracker's numbers: what the view connection knows of the agent and the settings. */
export interface CompactionFacts {
	/** `aside.context.autoCompactAt` while automatic compaction is on. */
	readonly autoCompactAt?: number;
	/** Whether Compact can run now: no turn running, the chat written here (the tracker adds: something to compact). */
	readonly mayCompact?: boolean;
}

export class ContextUseTracker {
	private readonly costs = new Map<string, Cost>();
	private usedTokens: number | undefined;
	/** `usedTokens` is an estimate (the latest compaction's, or the usage before a restore's point): no answer has reported usage since. */
	private estimated = false;
	private cache: { readonly read: number | undefined; readonly write: number | undefined } = { read: undefined, write: undefined };
	private compaction: ContextUseView['compaction'];
	/** Every record of the root conversation, in order (a compaction's `keepFrom` may reach back past an earlier one). */
	private readonly seen: Seen[] = [];
	/** Tokens of the reminder blocks the next request replays: the summary, the kept tail's, and everything's after. */
	private inContext = 0;
	/** User and assistant records after the compaction point (all of them before any compaction): whether there is anything to compact. */
	private sinceCompaction = 0;

	/** Takes one record; true when the context use it reports changed. */
	take(record: AgentRecord): boolean {
		if (conversationOf(record) !== undefined) {
			// A child's requests are their own context, not the chat's.
			return false;
		}
		switch (record.kind) {
			case 'assistant':
				this.remember(record.id, 0);
				this.sinceCompaction++;
				if (!record.usage) {
					return this.sinceCompaction === 1;
				}
				// The last request's input plus what it produced is what the next one starts from.
				this.usedTokens = record.usage.inputTokens + record.usage.outputTokens;
				this.estimated = false;
				this.cache = { read: record.usage.cacheReadTokens, write: record.usage.cacheWriteTokens };
				return true;
			case 'user':
				this.remember(
					record.id,
					0,
					{ usedTokens: this.usedTokens, inContext: this.inContext, sinceCompaction: this.sinceCompaction, compaction: this.compaction },
				);
				this.sinceCompaction++;
				// Only the first one changes what the view says: that there is something to compact.
				return this.sinceCompaction === 1;
			case 'injected-reminders': {
				let tokens = 0;
				for (const entry of record.entries) {
					const block = blockTokens(entry.key, entry.body);
					// Per key: its declared label (a delivery's own may name what it was about, e.g. a server).
					this.add(entry.key, BUILTIN_KEYS.get(entry.key)?.label ?? entry.label, block);
					tokens += block;
				}
				this.remember(undefined, tokens);
				return true;
			}
			case 'tool-result': {
				const notices = record.notices ?? [];
				let tokens = 0;
				for (const notice of notices) {
					const block = blockTokens(notice.key, notice.body);
					this.add(notice.key, notice.key, block);
					tokens += block;
				}
				this.remember(record.id, tokens);
				return notices.length > 0;
			}
			case 'compaction':
				this.compact(record);
				return true;
			case 'restore':
				return this.restore(record);
			default:
				this.remember('id' in record ? record.id : undefined, 0);
				return false;
		}
	}

	view(limitTokens: number | undefined, facts: CompactionFacts = {}): ContextUseView {
		const reminders: ReminderCostView[] = [...this.costs].map(([key, cost]) => ({
			key,
			label: cost.label,
			deliveries: cost.deliveries,
			tokens: cost.tokens,
		}));
		reminders.sort((a, b) => b.tokens - a.tokens || a.key.localeCompare(b.key));
		return {
			...(this.usedTokens === undefined ? {} : { usedTokens: this.usedTokens }),
			...(this.estimated ? { estimated: true } : {}),
			...(limitTokens && limitTokens > 0 ? { limitTokens: Math.floor(limitTokens) } : {}),
			reminders,
			...(this.inContext > 0 ? { remindersInContext: this.inContext } : {}),
			...(this.cache.read === undefined ? {} : { cacheReadTokens: Math.max(0, Math.round(this.cache.read)) }),
			...(this.cache.write === undefined ? {} : { cacheWriteTokens: Math.max(0, Math.round(this.cache.write)) }),
			...(this.compaction ? { compaction: this.compaction } : {}),
			...(facts.autoCompactAt === undefined ? {} : { autoCompactAt: facts.autoCompactAt }),
			...(facts.mayCompact === undefined ? {} : { canCompact: facts.mayCompact && this.sinceCompaction > 0 }),
		};
	}

	/**
	 * The compaction point moves here: the next request replays the summary, the kept tail (from
	 * `keepFrom`, found as replay finds it) and what follows; until an answer reports usage, the
	 * compaction's own estimate is what the context holds.
	 */
	private compact(record: CompactionRecord): void {
		let from = this.seen.length;
		if (record.keepFrom !== undefined) {
			for (let index = this.seen.length - 1; index >= 0; index--) {
				if (this.seen[index]?.id === record.keepFrom) {
					from = index;
					break;
				}
			}
		}
		let tokens = 0;
		for (let index = from; index < this.seen.length; index++) {
			tokens += this.seen[index]?.tokens ?? 0;
		}
		const summary = summaryTokens(record);
		this.add(CONTEXT_SUMMARY.key, CONTEXT_SUMMARY.label, summary);
		this.inContext = tokens + summary;
		this.remember(record.id, 0);
		this.sinceCompaction = 0;
		this.usedTokens = record.tokensAfter;
		this.estimated = true;
		this.compaction = { at: record.at, cause: record.cause, tokensBefore: record.tokensBefore, tokensAfter: record.tokensAfter };
	}

	/**
	 * A chat restore rolls the conversation back to just before the message it restored to, as
	 * replay does: the context goes back to what it was there (a compaction since then with it),
	 * and the usage reported then is an estimate until the next answer reports again. The table
	 * keeps every block sent. A restore of files only, or to a message no longer there, changes
	 * nothing here.
	 */
	private restore(record: RestoreRecord): boolean {
		let at = -1;
		if (rollsBackChat(record)) {
			for (let index = this.seen.length - 1; index >= 0; index--) {
				if (this.seen[index]?.id === record.to && this.seen[index]?.before) {
					at = index;
					break;
				}
			}
		}
		const point = this.seen[at]?.before;
		if (!point) {
			this.remember(record.id, 0);
			return false;
		}
		this.seen.length = at;
		this.usedTokens = point.usedTokens;
		this.inContext = point.inContext;
		this.sinceCompaction = point.sinceCompaction;
		this.compaction = point.compaction;
		this.estimated = this.usedTokens !== undefined;
		this.remember(record.id, 0);
		return true;
	}

	private remember(id: string | undefined, tokens: number, before?: Point): void {
		this.seen.push({ id, tokens, ...(before ? { before } : {}) });
		this.inContext += tokens;
	}

	private add(key: string, label: string, tokens: number): void {
		const cost = this.costs.get(key);
		if (cost) {
			cost.deliveries++;
			cost.tokens += tokens;
			cost.label = label;
		} else {
			this.costs.set(key, { label, deliveries: 1, tokens });
		}
	}
}
