// Finding the mentions in a message's text, as typed: `@problems`, `@selection`, `@changes`, and
// `@` followed by a path (`@src/a.ts`, `@src/a.ts#L10-40`, `@src/a.ts#L10`, `@docs/`), or a quoted
// path for names with spaces (`@"my notes.md"`). Pure: whether a path exists is decided when
// the mention is expanded (src/mentions/expand.ts), so a token that names nothing stays text.
// The text itself is never changed. Inside back-ticks or quotes (literals.ts) an `@` is text.
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
	| { readonly kind: 'path'; readonly raw: string; readonly path: string; readonly range?: LineRange; readonly folder: boolean; readonly quoted: boolean };

// `@` at the start or after whitespace or an opening bracket or quote: `a@b.com` is an address,
// `x@y` a version, neither a mention.
const MENTION = /(?<=^|[\s([{<'"`])@(?:"([^"\n]+)"(#L\d+(?:-L?\d+)?)?|([^\s"'`<>|]+))/gu;
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

/**
 * The candidate mentions in `text`, in order, each once (the same raw mention twice is one). A
 * path token's trailing sentence punctuation is left out of it, so `see @a.ts.` names `a.ts`.
 */
export function parseMentions(text: string): MentionToken[] {
	const tokens: MentionToken[] = [];
	const seen = new Set<string>();
	for (const match of withoutLiterals(text).matchAll(MENTION)) {
		const quoted = match[1];
		let token: MentionToken | undefined;
		if (quoted !== undefined) {
			const range = match[2] ?? '';
			token = pathToken(`@"${quoted}"${range}`, `${quoted}${range}`, true);
		} else {
			const body = (match[3] ?? '').replace(TRAILING, '');
			if (body === '') {
				continue;
			}
			const keyword = MENTION_KEYWORDS.find((candidate) => candidate === body);
			token = keyword ? { kind: 'keyword', raw: `@${body}`, keyword } : pathToken(`@${body}`, body, false);
		}
		if (token && !seen.has(token.raw)) {
			seen.add(token.raw);
			tokens.push(token);
		}
	}
	return tokens;
}
