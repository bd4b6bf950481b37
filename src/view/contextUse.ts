// How full the model's context is, and what the harness's own reminders cost of it: users of
// other agents asked for exactly this. Fed every record of a session once, in order; cheap per
// record, so a 10,000-record session costs nothing extra to keep current.
import { conversationOf } from '../agent/session';
import type { ContextUseView, ReminderCostView } from '../protocol/messages';
import { wrap } from '../reminders/envelope';
import type { AgentRecord } from '../transcript/records';

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

interface Cost {
	label: string;
	deliveries: number;
	chars: number;
}

export class ContextUseTracker {
	private readonly costs = new Map<string, Cost>();
	private usedTokens: number | undefined;

	/** Takes one record; true when the context use it reports changed. */
	take(record: AgentRecord): boolean {
		if (conversationOf(record) !== undefined) {
			// A child's requests are their own context, not the chat's.
			return false;
		}
		switch (record.kind) {
			case 'assistant':
				if (!record.usage) {
					return false;
				}
				// The last request's input plus what it produced is what the next one starts from.
				this.usedTokens = record.usage.inputTokens + record.usage.outputTokens;
				return true;
			case 'injected-reminders':
				for (const entry of record.entries) {
					this.add(entry.key, entry.label, blockLength(entry.key, entry.body));
				}
				return true;
			case 'tool-result': {
				const notices = record.notices ?? [];
				for (const notice of notices) {
					this.add(notice.key, notice.key, blockLength(notice.key, notice.body));
				}
				return notices.length > 0;
			}
			default:
				return false;
		}
	}

	view(limitTokens: number | undefined): ContextUseView {
		const reminders: ReminderCostView[] = [...this.costs].map(([key, cost]) => ({
			key,
			label: cost.label,
			deliveries: cost.deliveries,
			tokens: Math.ceil(cost.chars / CHARS_PER_TOKEN),
		}));
		reminders.sort((a, b) => b.tokens - a.tokens || a.key.localeCompare(b.key));
		return {
			...(this.usedTokens === undefined ? {} : { usedTokens: this.usedTokens }),
			...(limitTokens && limitTokens > 0 ? { limitTokens: Math.floor(limitTokens) } : {}),
			reminders,
		};
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
