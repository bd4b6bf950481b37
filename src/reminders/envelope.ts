// The <system-reminder> wire format (AIMON convention, entities as corrected in DESIGN.md).
// Every harness-origin injection goes through `wrap`/`wrapMany`, and nowhere else builds
// the markup.
//
//   <system-reminder key="files.edited">
//   body, XML-escaped
//   </system-reminder>
import { withArticle } from '../base/words';

export type ReminderFormatErrorCode = 'invalid-key' | 'invalid-body' | 'forged-marker';

export class ReminderFormatError extends Error {
	override readonly name = 'ReminderFormatError';

	constructor(
		readonly code: ReminderFormatErrorCode,
		message: string,
	) {
		super(message);
	}
}

export interface ParsedReminder {
	/** The block's key, or null for a keyless block as other harnesses write them. */
	readonly key: string | null;
	/** The body with the envelope's escaping undone. */
	readonly body: string;
	/** Offset of the opening `<` of the block in the parsed text. */
	readonly start: number;
	/** Offset just past the closing `>` of the block. */
	readonly end: number;
}

const KEY_PATTERN = /^[A-Za-z0-9._-]+$/;

// ASCII case-insensitive, like the markers a model would read as an envelope: `<SYSTEM-REMINDER`
// and `</System-Reminder>` are markers too. The closing marker is matched without its `>` by the
// sanitizer so that a dangling `</system-reminder` is neutralised as well.
// (Without the `u` flag, `i` folds ASCII letters only, so both regexes agree on what a marker is.)
const MARKER = /<(?=\/?system-reminder)/gi;
const FORGED_MARKER = /<(?:system-reminder|\/system-reminder>)/i;
const MARKER_NAME = /system-reminder/i;

/** A harmless stand-in for the `<` of a quoted marker: visible to people and models, not markup. */
const NEUTRALISED_ANGLE = '\u2039';

export function isValidReminderKey(key: string): boolean {
	return typeof key === 'string' && KEY_PATTERN.test(key);
}

/** What a value is, for an error message: `null`, `undefined`, `a number`, … */
function describeValue(value: unknown): string {
	if (value === null || value === undefined) {
		return String(value);
	}
	return withArticle(Array.isArray(value) ? 'array' : typeof value);
}

/** Offset of the first marker in `text` that `wrap` refuses, or -1 (what a body must not hold, for checks before wrapping). */
export function findForgedMarker(text: string): number {
	return text.search(FORGED_MARKER);
}

/** What is wrong with a body `wrap` refuses for a marker in it, or undefined: its check, without building the block. */
export function forgedMarkerIn(key: string, body: string): string | undefined {
	const forged = findForgedMarker(body);
	return forged === -1 ? undefined : `The body of reminder "${key}" contains a <system-reminder> marker at offset ${forged}; quote outside text with sanitizeUntrusted().`;
}

function escapeBody(body: string): string {
	// Order matters: `&` first, or the entities made for `<` and `>` would be escaped again.
	return body.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

const ENTITY = /&(amp|lt|gt);/g;
const ENTITY_TEXT: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>' };

function unescapeBody(escaped: string): string {
	// One pass, so `&amp;lt;` becomes `&lt;` and is not unescaped a second time.
	return escaped.replace(ENTITY, (_match, name: string) => ENTITY_TEXT[name] ?? '');
}

/**
 * Wraps one body in a keyed block. Throws `ReminderFormatError` for an invalid key or a body
 * that already contains a marker (checked on the raw body, before escaping).
 */
export function wrap(key: string, body: string): string {
	// Callers are typed, but keys and bodies also come from records and settings at run time:
	// `String(null)` would otherwise make `key="null"`.
	if (typeof key !== 'string') {
		throw new ReminderFormatError('invalid-key', `A reminder key must be a string, not ${describeValue(key)}.`);
	}
	if (!isValidReminderKey(key)) {
		throw new ReminderFormatError(
			'invalid-key',
			key === ''
				? 'A reminder key cannot be empty.'
				: `Invalid reminder key ${JSON.stringify(key)}: keys must match [A-Za-z0-9._-]+.`,
		);
	}
	if (typeof body !== 'string') {
		throw new ReminderFormatError('invalid-body', `The body of reminder "${key}" must be a string, not ${describeValue(body)}.`);
	}
	const forged = forgedMarkerIn(key, body);
	if (forged !== undefined) {
		throw new ReminderFormatError('forged-marker', forged);
	}
	return `<system-reminder key="${key}">\n${escapeBody(body)}\n</system-reminder>`;
}

/** Wraps several bodies, in iteration order, joined by exactly one blank line. */
export function wrapMany(entries: Iterable<readonly [key: string, body: string]>): string {
	const blocks: string[] = [];
	for (const entry of entries) {
		if (!Array.isArray(entry)) {
			throw new ReminderFormatError('invalid-key', `A reminder entry must be a [key, body] pair, not ${describeValue(entry)}.`);
		}
		const [key, body] = entry;
		blocks.push(wrap(key, body));
	}
	return blocks.join('\n\n');
}

/**
 * Makes outside text (file content, tool output, user text) safe to quote inside a reminder
 * body: the `<` of every opening or closing marker becomes `‹`, so `wrap(key, sanitizeUntrusted(x))`
 * never throws and never yields a second block. Text without markers is returned unchanged.
 */
export function sanitizeUntrusted(text: string): string {
	// Replay sends every tool result through here at every request: the plain search first is
	// several times faster than the lookahead regex on source text, which has many `<`.
	return MARKER_NAME.test(text) ? text.replace(MARKER, NEUTRALISED_ANGLE) : text;
}

const NEUTRALISED_MARKER = /\u2039(?=\/?system-reminder)/gi;

/** Whether `text` holds a marker as sanitizeUntrusted leaves it (`‹system-reminder`, `‹/system-reminder`). */
export function hasNeutralisedMarker(text: string): boolean {
	NEUTRALISED_MARKER.lastIndex = 0;
	return NEUTRALISED_MARKER.test(text);
}

/**
 * Undoes sanitizeUntrusted: the `‹` of every neutralised marker becomes `<` again. For text the
 * model copied from what it was shown (an Edit's old_string taken from Read's output), to find
 * it in the file it came from.
 */
export function restoreNeutralisedMarkers(text: string): string {
	return text.replace(NEUTRALISED_MARKER, '<');
}

/** Counts the characters the parser examined, so tests can hold its work linear in the text. */
export interface ScanCounter {
	steps: number;
}

const OPEN = '<system-reminder';
const CLOSE = '</system-reminder>';
const KEY_ATTRIBUTE = ' key="';
const NEWLINE = 10;

function isKeyChar(code: number): boolean {
	// [A-Za-z0-9._-]
	return (code >= 0x61 && code <= 0x7a) ||
		(code >= 0x41 && code <= 0x5a) ||
		(code >= 0x30 && code <= 0x39) ||
		code === 0x2e ||
		code === 0x5f ||
		code === 0x2d;
}

/** The opening tag whose `<system-reminder` ends at `at`: its key and the offset past its `>`. */
function openingTag(text: string, at: number, counter: ScanCounter | undefined): { readonly key: string | null; readonly end: number } | undefined {
	if (text.charCodeAt(at) === 0x3e) {
		return { key: null, end: at + 1 };
	}
	if (!text.startsWith(KEY_ATTRIBUTE, at)) {
		return undefined;
	}
	const keyStart = at + KEY_ATTRIBUTE.length;
	let keyEnd = keyStart;
	while (keyEnd < text.length && isKeyChar(text.charCodeAt(keyEnd))) {
		keyEnd++;
	}
	if (counter) {
		counter.steps += keyEnd - at + 2;
	}
	if (keyEnd === keyStart || !text.startsWith('">', keyEnd)) {
		return undefined;
	}
	return { key: text.slice(keyStart, keyEnd), end: keyEnd + 2 };
}

/**
 * Finds the reminder blocks in `text`, in order, with their bodies unescaped: blocks as `wrap`
 * writes them, and keyless ones as other harnesses write them (whose bodies may not start or end
 * with a newline). A block ends at the first closing marker after its opening tag (an escaped
 * body never contains `<`); one newline after the opening tag and one before the closing marker
 * belong to the envelope. Blocks with an invalid key or no closing marker are not blocks.
 *
 * One pass: each character is examined a bounded number of times, whatever the text holds
 * (a lazy regex rescanned to the end of the text for every unclosed opening tag).
 * For the host's own use (counting, replay of its own records): a match says nothing about
 * who wrote the text, so it is never a reason to trust it.
 */
export function parseReminders(text: string, counter?: ScanCounter): ParsedReminder[] {
	const found: ParsedReminder[] = [];
	// The first closing marker at or after the last place searched (-1: none, so none further on
	// either). Body starts only grow, so each character is searched for a closing marker once.
	let close: number | undefined;
	const closeAfter = (from: number): number => {
		if (close === undefined || (close !== -1 && close < from)) {
			close = text.indexOf(CLOSE, from);
			if (counter) {
				counter.steps += (close === -1 ? text.length : close + CLOSE.length) - from;
			}
		}
		return close;
	};
	for (let at = 0; at < text.length; ) {
		const start = text.indexOf(OPEN, at);
		if (counter) {
			counter.steps += (start === -1 ? text.length : start + OPEN.length) - at;
		}
		if (start === -1) {
			break;
		}
		const tag = openingTag(text, start + OPEN.length, counter);
		if (!tag) {
			at = start + 1;
			continue;
		}
		const bodyStart = text.charCodeAt(tag.end) === NEWLINE ? tag.end + 1 : tag.end;
		const end = closeAfter(bodyStart);
		if (end === -1) {
			// No closing marker after this opening tag, so none after any later one either.
			break;
		}
		const bodyEnd = end > bodyStart && text.charCodeAt(end - 1) === NEWLINE ? end - 1 : end;
		found.push({ key: tag.key, body: unescapeBody(text.slice(bodyStart, bodyEnd)), start, end: end + CLOSE.length });
		at = end + CLOSE.length;
	}
	return found;
}
