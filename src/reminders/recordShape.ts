// The injection record as this version writes it, checked by hand (src/base/shape.ts): a load
// reads hundreds of them, and zod would copy each one and wrapping its bodies would build the
// whole message only to throw it away. Mirrors the Schema in record.ts; record.spec.ts holds
// the two equal. Anything this does not accept exactly goes through zod, which words the error.
import { arrayOf, hasShape, isNonEmpty, isNonNegativeInt, isString, objectOf, oneOf, optional, type Shape } from '../base/shape';
import { findForgedMarker, isValidReminderKey } from './envelope';

const HASH = /^[0-9a-f]{8,128}$/;

const SUBJECT: Shape = {
	ref: (value) => typeof value === 'string' && value.length > 0 && value.length <= 4096,
	hashes: (value) => Array.isArray(value) && value.every((hash) => typeof hash === 'string' && HASH.test(hash)),
};

// A body with a marker is what wrap() refuses (the record could not be replayed): the check
// recordToMessage's trial wrap makes, without building the message.
const ENTRY: Shape = {
	type: isNonEmpty,
	key: (value) => typeof value === 'string' && isValidReminderKey(value),
	label: isString,
	body: (value) => typeof value === 'string' && findForgedMarker(value) === -1,
	reason: isString,
	subjects: optional(arrayOf(SUBJECT)),
};

const RECORD: Shape = {
	kind: (value) => value === 'injected-reminders',
	v: (value) => value === 1,
	phase: oneOf(['turn-start', 'mid-turn']),
	owner: objectOf({ kind: oneOf(['root', 'agent']), id: isNonEmpty }),
	requestId: isNonEmpty,
	at: isNonNegativeInt,
	turn: isNonNegativeInt,
	entries: (value) => Array.isArray(value) && value.length > 0 && value.every((entry) => hasShape(entry, ENTRY, false)),
};

/** Whether `value` is exactly an injection record as this version writes it (`kind` first), one that replays. */
export function isInjectionAsWritten(value: unknown): boolean {
	return hasShape(value, RECORD, true);
}
