// Property tests for the wire format: random keys and bodies built from the characters that
// matter (markers in any case, entities, CR/LF, astral characters), plus arbitrary Unicode.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hasNeutralisedMarker, parseReminders, ReminderFormatError, restoreNeutralisedMarkers, sanitizeUntrusted, wrap, wrapMany } from './envelope';

const RUNS = Number(process.env.ASIDE_PROPERTY_RUNS ?? 2000);

const keyArb = fc.stringMatching(/^[A-Za-z0-9._-]{1,40}$/);

/** Randomises the ASCII case of each letter: `<SyStem-REMINDER`. */
const anyCase = (text: string) =>
	fc
		.array(fc.boolean(), { minLength: text.length, maxLength: text.length })
		.map((upper) => Array.from(text, (ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join(''));

const piece = fc.oneof(
	{ weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
	{ weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
	{
		weight: 3,
		arbitrary: fc.constantFrom('<', '>', '&', '&amp;', '&lt;', '&gt;', '&quot;', '&#60;', '\r\n', '\n', '\r', '\n\n', '"', '😀', '𝔘', '\u{10FFFF}', '\uD800', ''),
	},
	{ weight: 2, arbitrary: anyCase('<system-reminder') },
	{ weight: 2, arbitrary: anyCase('</system-reminder>') },
	{ weight: 1, arbitrary: keyArb.map((k) => `<system-reminder key="${k}">`) },
	{ weight: 1, arbitrary: fc.constantFrom('</system-reminder', '<system-reminders', '<\u017Fystem-reminder', '\u2039system-reminder') },
);

const textArb = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

const hasMarker = (text: string) => /<(?:system-reminder|\/system-reminder>)/i.test(text);

describe('envelope properties', () => {
	it('round-trips every marker-free body exactly, and rejects every body with a marker', () => {
		fc.assert(
			fc.property(keyArb, textArb, (key, body) => {
				if (hasMarker(body)) {
					assert.throws(
						() => wrap(key, body),
						(error: unknown) => error instanceof ReminderFormatError && error.code === 'forged-marker',
					);
					return;
				}
				const text = wrap(key, body);
				assert.deepEqual(parseReminders(text), [{ key, body, start: 0, end: text.length }]);
			}),
			{ numRuns: RUNS },
		);
	});

	it('wrap(key, sanitizeUntrusted(x)) never throws and yields exactly one block, for any x', () => {
		fc.assert(
			fc.property(keyArb, fc.oneof(textArb, fc.string({ unit: 'binary' })), (key, untrusted) => {
				const safe = sanitizeUntrusted(untrusted);
				const text = wrap(key, safe);
				const blocks = parseReminders(text);
				assert.equal(blocks.length, 1);
				assert.equal(blocks[0]?.key, key);
				assert.equal(blocks[0].body, safe);
				// Nothing of the quoted text can close the block early or open another.
				assert.equal(text.indexOf('</system-reminder>'), text.length - '</system-reminder>'.length);
				assert.equal(text.lastIndexOf('<system-reminder'), 0);
			}),
			{ numRuns: RUNS },
		);
	});

	it('sanitizeUntrusted changes only the < of markers, and is idempotent', () => {
		fc.assert(
			fc.property(textArb, (x) => {
				const safe = sanitizeUntrusted(x);
				assert.equal(safe.length, x.length);
				assert.equal(hasMarker(safe), false);
				assert.equal(sanitizeUntrusted(safe), safe);
				if (!hasMarker(x) && !/<\/system-reminder/i.test(x)) {
					assert.equal(safe, x);
				}
				for (let i = 0; i < x.length; i++) {
					if (safe[i] !== x[i]) {
						assert.equal(x[i], '<');
						assert.equal(safe[i], '\u2039');
					}
				}
			}),
			{ numRuns: RUNS },
		);
	});

	it('wrapMany of sanitized bodies parses back to the same entries, in order, joined by one blank line', () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(keyArb, textArb), { maxLength: 8 }), (raw) => {
				const entries = raw.map(([key, body]) => [key, sanitizeUntrusted(body)] as const);
				const text = wrapMany(entries);
				assert.equal(text, entries.map(([k, b]) => wrap(k, b)).join('\n\n'));
				assert.deepEqual(
					parseReminders(text).map(({ key, body }) => [key, body]),
					entries.map(([k, b]) => [k, b]),
				);
			}),
			{ numRuns: RUNS / 4 },
		);
	});

	it('restoreNeutralisedMarkers undoes sanitizeUntrusted for text that had no \u2039 of its own', () => {
		fc.assert(
			fc.property(textArb, (x) => {
				const safe = sanitizeUntrusted(x);
				assert.equal(hasNeutralisedMarker(safe), safe !== x || /\u2039\/?system-reminder/i.test(x));
				if (!x.includes('\u2039')) {
					assert.equal(restoreNeutralisedMarkers(safe), x);
				}
			}),
			{ numRuns: RUNS },
		);
	});

	it('parseReminders finds what the reference regex finds, in any text', () => {
		// The parser as it was: right on every input, but quadratic on many unclosed opening tags.
		const BLOCK = /<system-reminder(?: key="([A-Za-z0-9._-]+)")?>\n?([\s\S]*?)\n?<\/system-reminder>/g;
		const reference = (text: string) =>
			Array.from(text.matchAll(BLOCK), (match) => ({
				key: match[1] ?? null,
				body: (match[2] ?? '').replace(/&(amp|lt|gt);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>' })[name] ?? ''),
				start: match.index,
				end: match.index + match[0].length,
			}));
		const block = fc.oneof(
			piece,
			fc.constantFrom('<system-reminder>', '<system-reminder>\n', '\n</system-reminder>', '</system-reminder>', '<system-reminder key="">', '<system-reminder key="a b">', '<system-reminder key="k"', ' key="k">', '">'),
			fc.tuple(keyArb, textArb).map(([key, body]) => wrap(key, sanitizeUntrusted(body))),
		);
		fc.assert(
			fc.property(fc.array(block, { maxLength: 16 }), (parts) => {
				const text = parts.join('');
				assert.deepEqual(parseReminders(text), reference(text));
			}),
			{ numRuns: RUNS },
		);
	});

	it('rejects every key outside [A-Za-z0-9._-]+', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme', maxLength: 10 }), (key) => {
				if (/^[A-Za-z0-9._-]+$/.test(key)) {
					assert.doesNotThrow(() => wrap(key, 'x'));
				} else {
					assert.throws(
						() => wrap(key, 'x'),
						(error: unknown) => error instanceof ReminderFormatError && error.code === 'invalid-key',
					);
				}
			}),
			{ numRuns: RUNS },
		);
	});
});
