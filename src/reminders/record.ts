// The injection record: one per delivery, the only place a reminder's text is kept after it went
// out. It is what the view renders, and what replay turns back into the exact user-role message
// the model saw. Its encoded form is a transcript record, never provider text.
import * as z from 'zod';
import { declareRecord, readRecord, RecordProblem } from '../base/recordDeclaration';
import type { UserMessage } from '../providers/messages';
import { forgedMarkerIn, isValidReminderKey, wrapMany } from './envelope';

export const RECORD_KIND = 'injected-reminders';
export const RECORD_VERSION = 1;

/** See ReminderSubject (definition.ts). Optional: records written before it load as they are. */
const Subject = z.object({
	ref: z.string().min(1).max(4096),
	hashes: z.array(z.string().regex(/^[0-9a-f]{8,128}$/, 'not a hex hash')),
});

const Entry = z.object({
	type: z.string().min(1),
	key: z.string().refine(isValidReminderKey, 'not a valid reminder key'),
	label: z.string(),
	body: z.string(),
	reason: z.string(),
	subjects: z.array(Subject).optional(),
});

export const InjectionRecordSchema = z.object({
	kind: z.literal(RECORD_KIND),
	v: z.literal(RECORD_VERSION),
	phase: z.enum(['turn-start', 'mid-turn']),
	owner: z.object({ kind: z.enum(['root', 'agent']), id: z.string().min(1) }),
	requestId: z.string().min(1),
	/** Milliseconds since the epoch, when the payload was prepared. */
	at: z.number().int().nonnegative(),
	/** The owner roster's turn at delivery. */
	turn: z.number().int().nonnegative(),
	entries: z.array(Entry).min(1),
});

// What the schema cannot say: that the record replays, every body being one wrap() takes. A load
// reads hundreds of these: the check wrap makes, without building the message only to drop it.
export const INJECTION_RECORD = declareRecord(InjectionRecordSchema, (record) => {
	for (const entry of record.entries) {
		const forged = forgedMarkerIn(entry.key, entry.body);
		if (forged !== undefined) {
			return forged;
		}
	}
	return undefined;
});

export type InjectionRecordEntry = z.infer<typeof Entry>;
export type InjectionRecord = z.infer<typeof InjectionRecordSchema>;

export class InjectionRecordError extends Error {
	override readonly name = 'InjectionRecordError';
}

/**
 * The user-role message a record stands for: its entries wrapped once, in order. WAIT builds the
 * dispatched message with this very function, so replay reproduces it byte for byte.
 * Throws ReminderFormatError for a body carrying a marker.
 */
export function recordToMessage(record: InjectionRecord): UserMessage {
	const text = wrapMany(record.entries.map((entry) => [entry.key, entry.body] as const));
	return { role: 'user', content: [{ type: 'text', text }], synthetic: 'reminders' };
}

/** The record as a transcript line (JSON, no newline). */
export function encodeInjectionRecord(record: InjectionRecord): string {
	return JSON.stringify(record);
}

/**
 * Reads a record back from a transcript line (text or already parsed), checking every field and
 * that its bodies still wrap. A value that already is such a record as this version writes it is
 * returned as it is (not copied). Throws InjectionRecordError saying what is wrong.
 */
export function decodeInjectionRecord(line: unknown): InjectionRecord {
	let value = line;
	if (typeof line === 'string') {
		try {
			value = JSON.parse(line) as unknown;
		} catch (error) {
			throw new InjectionRecordError(`An injection record is not valid JSON: ${(error as Error).message}`);
		}
	}
	const read = readRecord(INJECTION_RECORD, value);
	if (read instanceof RecordProblem) {
		throw new InjectionRecordError(read.problem === 'invalid' ? `Not an injection record: ${read.words}` : `An injection record cannot be replayed: ${read.words}`);
	}
	return read;
}
