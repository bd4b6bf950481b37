// How full the model's context is, and what the harness's own reminders cost of it: users of
// other agents asked for exactly this. Fed every record of a session once, in order; cheap per
// record, so a 10,000-record session costs nothing extra to keep current. A compaction record is
// the one exception: it sums the reminders of the tail it keeps, once.
import { conversationOf } from '../agent/session';
import type { ContextUseView, ReminderCostView } from '../protocol/messages';
import { CONTEXT_SUMMARY } from '../reminders/builtin/catalog';
import { wrap } from '../reminders/envelope';
import type { AgentRecord, CompactionRecord } from '../transcript/records';
import { summaryMessage } from '../transcript/replay';

/** The usual rough estimate: about four characters a token for English and code. */
const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
	return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** A block as the model saw it: wrapped, escaped. A record never holds a forged body; if one did, count the raw body. */
function blockLength(key: string, body: string): number {
	try {
		return wrap(key, body).length;
	} catch {
		return body.length;
	}
}

/** The `context.summary` block a compaction's summary is replayed as, in characters. */
function summaryLength(record: CompactionRecord): number {
	const [part] = summaryMessage(record).content;
	return part?.type === 'text' ? part.text.length : 0;
}

interface Cost {
	label: string;
	deliveries: number;
	chars: number;
}

/** One record of the root conversation, as much as a later compaction needs of it to find its kept tail. */
interface Seen {
	/** The record's id (injection records have none, and are never a `keepFrom`). */
	readonly id: string | undefined;
	/** Characters of the reminder blocks it holds (an injection's entries, a result's notices). */
	readonly chars: number;
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
	/** `usedTokens` is the latest compaction's estimate, no answer has reported usage since. */
	private estimated = false;
	private cache: { readonly read: number | undefined; readonly write: number | undefined } = { read: undefined, write: undefined };
	private compaction: ContextUseView['compaction'];
	/** Every record of the root conversation, in order (a compaction's `keepFrom` may reach back past an earlier one). */
	private readonly seen: Seen[] = [];
	/** Characters of the reminder blocks the next request replays: the summary, the kept tail's, and everything's after. */
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
				this.remember(record.id, 0);
				this.sinceCompaction++;
				// Only the first one changes what the view says: that there is something to compact.
				return this.sinceCompaction === 1;
			case 'injected-reminders': {
				let chars = 0;
				for (const entry of record.entries) {
					const length = blockLength(entry.key, entry.body);
					this.add(entry.key, entry.label, length);
					chars += length;
				}
				this.remember(undefined, chars);
				return true;
			}
			case 'tool-result': {
				const notices = record.notices ?? [];
				let chars = 0;
				for (const notice of notices) {
					const length = blockLength(notice.key, notice.body);
					this.add(notice.key, notice.key, length);
					chars += length;
				}
				this.remember(record.id, chars);
				return notices.length > 0;
			}
			case 'compaction':
				this.compact(record);
				return true;
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
			tokens: Math.ceil(cost.chars / CHARS_PER_TOKEN),
		}));
		reminders.sort((a, b) => b.tokens - a.tokens || a.key.localeCompare(b.key));
		return {
			...(this.usedTokens === undefined ? {} : { usedTokens: this.usedTokens }),
			...(this.estimated ? { estimated: true } : {}),
			...(limitTokens && limitTokens > 0 ? { limitTokens: Math.floor(limitTokens) } : {}),
			reminders,
			...(this.inContext > 0 ? { remindersInContext: Math.ceil(this.inContext / CHARS_PER_TOKEN) } : {}),
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
		let chars = 0;
		for (let index = from; index < this.seen.length; index++) {
			chars += this.seen[index]?.chars ?? 0;
		}
		const summary = summaryLength(record);
		this.add(CONTEXT_SUMMARY.key, CONTEXT_SUMMARY.label, summary);
		this.inContext = chars + summary;
		this.remember(record.id, 0);
		this.sinceCompaction = 0;
		this.usedTokens = record.tokensAfter;
		this.estimated = true;
		this.compaction = { at: record.at, cause: record.cause, tokensBefore: record.tokensBefore, tokensAfter: record.tokensAfter };
	}

	private remember(id: string | undefined, chars: number): void {
		this.seen.push({ id, chars });
		this.inContext += chars;
	}

	private add(key: string, label: string, chars: number): void {
		const cost = this.costs.get(key);
		if (cost) {
			cost.deliveries++;
			cost.chars += chars;
			cost.label = label;
		} else {
			this.costs.set(key, { label, deliveries: 1, chars });
		}
	}
}
