// Finding the mentions in a message's text, as typed: `@problems`, `@selection`, `@changes`, and
// `@` followed by a path (`@src/a.ts`, `@src/a.ts#L10-40`, `@src/a.ts#L10`, `@docs/`), or a quoted
// path for names with spaces (`@"my notes.md"`). Pure: whether a path exists is decided when
// the mention is expanded (src/mentions/expand.ts), so a token that names nothing stays text.
// The text itself is never changed. Inside back-ticks or quotes (literals.ts) an `@` is text.
// A chat feature's kinds (kinds.ts) are `@<prefix><rest>` or, quoted, `@<prefix>"<rest>"`.
import { mentionPrefixes } from './kinds';
import { withoutLiterals } from './literals';

export const MENTION_KEYWORDS = ['problems', 'selection', 'changes'] as const;
export type MentionKeyword = (typeof MENTION_KEYWORDS)[number];

/** Lines of a file, 1-based and inclusive; `end` is `start` for `#L10`. */
export interface LineRange {
	readonly start: number;
	readonly end: number;
}

export type MentionToken =
	| { readonly kind: 'keyword'; readonly raw: string; readonly keyword: MentionKeyword }
	| { readonly kind: 'path'; readonly raw: string; readonly path: string; readonly range?: LineRange; readonly folder: boolean; readonly quoted: boolean }
	/** A chat feature's kind (`@mcp:server/uri`): `body` is what follows the prefix, unquoted. */
	| { readonly kind: 'contributed'; readonly raw: string; readonly prefix: string; readonly body: string };

// `@` at the start or after whitespace or an opening bracket or quote: `a@b.com` is an address,
// `x@y` a version, neither a mention.
// The middle alternative is a prefix with a quoted rest (`@mcp:"srv/a uri"`).
const MENTION = /(?<=^|[\s([{<'"`])@(?:"([^"\n]+)"(#L\d+(?:-L?\d+)?)?|([a-z][a-z0-9-]*:)"([^"\n]+)"|([^\s"'`<>|]+))/gu;
// Punctuation that ends a sentence rather than a path: `see @a.ts.` or `(@a.ts)`.
const TRAILING = /[.,;:!?)\]}]+$/u;
const RANGE = /#L(\d+)(?:-L?(\d+))?$/u;

function pathToken(raw: string, body: string, quoted: boolean): MentionToken | undefined {
	let path = body;
	let range: LineRange | undefined;
	const match = RANGE.exec(path);
	if (match) {
		const start = Number(match[1]);
		const end = match[2] === undefined ? start : Number(match[2]);
		if (start < 1 || end < start) {
			return undefined;
		}
		range = { start, end };
		path = path.slice(0, match.index);
	}
	if (path === '' || path.includes('\0')) {
		return undefined;
	}
	const folder = path.endsWith('/') && path.length > 1;
	return { kind: 'path', raw, path: folder ? path.replace(/\/+$/u, '') : path, ...(range ? { range } : {}), folder, quoted };
}

/** An unquoted mention: a keyword, a contributed kind's (`@mcp:srv/uri`), or a path. */
function wordToken(word: string, prefixes: readonly string[]): MentionToken | undefined {
	const body = word.replace(TRAILING, '');
	if (body === '') {
		return undefined;
	}
	const keyword = MENTION_KEYWORDS.find((candidate) => candidate === body);
	if (keyword) {
		return { kind: 'keyword', raw: `@${body}`, keyword };
	}
	const prefix = prefixes.find((candidate) => body.startsWith(candidate) && body.length > candidate.length);
	return prefix ? { kind: 'contributed', raw: `@${body}`, prefix, body: body.slice(prefix.length) } : pathToken(`@${body}`, body, false);
}

/**
 * The candidate mentions in `text`, in order, each once (the same raw mention twice is one). A
 * path token's trailing sentence punctuation is left out of it, so `see @a.ts.` names `a.ts`;
 * so is an unquoted contributed mention's (`@mcp:srv/a.md.` names `srv/a.md`). `prefixes`: the
 * contributed kinds' (by default those registered); a prefix not among them is read as a path.
 */
export function parseMentions(text: string, prefixes: readonly string[] = mentionPrefixes()): MentionToken[] {
	const tokens: MentionToken[] = [];
	const seen = new Set<string>();
	for (const match of withoutLiterals(text).matchAll(MENTION)) {
		const quoted = match[1];
		let token: MentionToken | undefined;
		if (quoted !== undefined) {
			const range = match[2] ?? '';
			token = pathToken(`@"${quoted}"${range}`, `${quoted}${range}`, true);
		} else if (match[3] !== undefined) {
			const prefix = match[3];
			// The quoted rest as typed (a quote inside it may have been blanked as a literal).
			const start = match.index + 1 + prefix.length + 1;
			const body = text.slice(start, match.index + match[0].length - 1);
			token = prefixes.includes(prefix) ? { kind: 'contributed', raw: `@${prefix}"${body}"`, prefix, body } : wordToken(prefix, prefixes);
		} else {
			token = wordToken(match[5] ?? '', prefixes);
			if (token === undefined) {
				continue;
			}
		}
		if (token && !seen.has(token.raw)) {
			seen.add(token.raw);
			tokens.push(token);
		}
	}
	return tokens;
}

// What an unquoted contributed mention cannot hold: what ends the word, or a quote.
const UNQUOTED = /[\s"'`<>|]/u;

/**
 * How a contributed mention is written so that it parses back to `body` exactly: as it is, or
 * quoted (`@mcp:"srv/a b"`) when it holds a space or a quote, or ends in sentence punctuation.
 * Undefined when it cannot be written (a double quote or a line break in it).
 */
export function contributedMentionText(prefix: string, body: string): string | undefined {
	if (body === '' || /["\n\r]/u.test(body)) {
		return undefined;
	}
	return UNQUOTED.test(body) || TRAILING.test(body) ? `@${prefix}"${body}"` : `@${prefix}${body}`;
}
