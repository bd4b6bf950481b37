// What a user's message brings with it beside its text — mentions (`@src/a.ts`), skills
// (`$name`) — as typed entries in their stages, made at send time from the text exactly as typed.
// The turn stages them on its first request, again on each attempt of it (a retry after a
// too-long refusal) until one went out; their commits (a mention's "already shown" mark) run only
// when that request's payload was dispatched, so a cancelled or failed request marks nothing.
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { Owner } from '../reminders/definition';
import type { StagedInStage } from '../reminders/staging';

/** The entries a message's text brings for `owner`'s turn. Never the text itself: it stays as typed. */
export type MessageAttachments = (text: string, owner: Owner, signal: AbortSignal) => Promise<readonly StagedInStage[]>;

/** Several sources as one, in the order given (mentions before skills); a source that fails is logged and skipped. */
export function combineAttachments(log: Logger, ...sources: readonly MessageAttachments[]): MessageAttachments {
	return async (text, owner, signal) => {
		const all: StagedInStage[] = [];
		for (const source of sources) {
			try {
				all.push(...(await source(text, owner, signal)));
			} catch (error) {
				if (signal.aborted) {
					throw error;
				}
				log.error(`Aside: what the message brings could not be prepared: ${errorMessage(error)}`);
			}
		}
		return all;
	};
}
