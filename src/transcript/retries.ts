// A Retry sends a failed turn's message again as a new message (its record says `retryOf`). When
// the failed turn never reached the model, its copy of the message is left out of replay, so the
// model reads the message once; when part of it did reach the model, both stay, with that work.
import type { TranscriptRecord } from './records';

/** The root turns a later message retried and of which no request was accepted (no answer was recorded). */
export function retriedUnsent(records: readonly TranscriptRecord[]): ReadonlySet<string> {
	const retried = new Set<string>();
	const answered = new Set<string>();
	for (const record of records) {
		if (record.kind === 'user' && record.retryOf !== undefined) {
			retried.add(record.retryOf);
		} else if (record.kind === 'assistant' && record.agent === undefined) {
			answered.add(record.turnId);
		}
	}
	for (const turnId of answered) {
		retried.delete(turnId);
	}
	return retried;
}
