// The <system-reminder> wire format (AIMON convention, entities as corrected in DESIGN.md).
// Every harness-origin injection goes through `wrap`/`wrapMany`, and nowhere else builds
// the markup.
//
//   <system-reminder key="files.edited">
//   body, XML-escaped
//   </system-reminder>

export type ReminderFormatErrorCode = 'invalid-key' | 'forged-marker';

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

/** A harmless stand-in for the `<` of a quoted marker: visible to people and models, not markup. */
const NEUTRALISED_ANGLE = '\u2039';

export function isValidReminderKey(key: string): boolean {
	return KEY_PATTERN.test(key);
}

/** Offset of the first marker in `text` that `wrap` refuses, or -1. */
function findForgedMarker(text: string): number {
	return text.search(FORGED_MARKER);
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
	if (!isValidReminderKey(key)) {
		throw new ReminderFormatError(
			'invalid-key',
			key === ''
				? 'A reminder key cannot be empty.'
				: `Invalid reminder key ${JSON.stringify(key)}: keys must match [A-Za-z0-9._-]+.`,
		);
	}
	const forged = findForgedMarker(body);
	if (forged !== -1) {
		throw new ReminderFormatError(
			'forged-marker',
			`The body of reminder "${key}" contains a <system-reminder> marker at offset ${forged}; ` +
				'quote outside text with sanitizeUntrusted().',
		);
	}
	return `<system-reminder key="${key}">\n${escapeBody(body)}\n</system-reminder>`;
}

/** Wraps several bodies, in iteration order, joined by exactly one blank line. */
export function wrapMany(entries: Iterable<readonly [key: string, body: string]>): string {
	const blocks: string[] = [];
	for (const [key, body] of entries) {
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
	return text.replace(MARKER, NEUTRALISED_ANGLE);
}

// Blocks as `wrap` writes them, and keyless ones as other harnesses write them (whose bodies may
// not start or end with a newline). The body is lazy: an escaped body never contains `<`, so the
// first closing marker is the block's own.
const BLOCK = /<system-reminder(?: key="([A-Za-z0-9._-]+)")?>\n?([\s\S]*?)\n?<\/system-reminder>/g;

/**
 * Finds the reminder blocks in `text`, in order, with their bodies unescaped.
 * For the host's own use (counting, replay of its own records): a match says nothing about
 * who wrote the text, so it is never a reason to trust it.
 */
export function parseReminders(text: string): ParsedReminder[] {
	const found: ParsedReminder[] = [];
	for (const match of text.matchAll(BLOCK)) {
		const [whole, key, body = ''] = match;
		found.push({
			key: key ?? null,
			body: unescapeBody(body),
			start: match.index,
			end: match.index + whole.length,
		});
	}
	return found;
}
