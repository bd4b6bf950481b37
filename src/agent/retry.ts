// Retry after a failed turn: the same message (its mentions, so the same attachments, are
// expanded again when it is sent; the slash command it came from, shown on its row) goes out as a
// new message whose record names the turn it retries. Only the chat's last turn, when it failed,
// can be retried.
import type { ImagePart } from '../providers/messages';
import type { AgentRecord } from '../transcript/records';
import { recordImages } from '../transcript/replayImages';
import type { StartedBy } from '../transcript/startedBy';

/** What a Retry sends again: the message, and the slash command or Aside's reminder it was. */
export interface RetriedMessage {
	readonly text: string;
	readonly command?: string;
	readonly startedBy?: StartedBy;
	/** The images it carried, those whose bytes are here (retried byte for byte). */
	readonly images?: readonly ImagePart[];
}

/** What retrying turn `turnId` sends, or why it cannot be retried (for the chat to say). */
export function retryOf(records: readonly AgentRecord[], turnId: string): RetriedMessage | string {
	let message: RetriedMessage | undefined;
	let failed = false;
	let later = false;
	for (const record of records) {
		if (record.kind === 'user' && record.agent === undefined) {
			if (record.turnId === turnId && message === undefined) {
				// The slash command it came from (an MCP prompt's), or Aside's reminder: the retried row says the same.
				const { text, command, startedBy } = record;
				const images = recordImages(record);
				const extra = { ...(startedBy ? { startedBy } : {}), ...(images.length > 0 ? { images } : {}) };
				message = { text, ...(command === undefined ? {} : { command }), ...extra };
			} else if (message !== undefined) {
				later = true;
			}
		} else if (record.kind === 'turn-end' && record.agent === undefined && record.turnId === turnId) {
			failed = record.outcome === 'failed';
		}
	}
	if (message === undefined) {
		return 'That message is no longer in this chat, so it cannot be sent again.';
	}
	if (!failed) {
		return 'Only a turn that failed can be retried.';
	}
	if (later) {
		return 'Only the chat\'s last turn can be retried: send the message again instead.';
	}
	return message;
}
