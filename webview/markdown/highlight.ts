// Light syntax highlighting for code blocks: splits code into spans of a few kinds (comment,
// string, number, keyword, ...). A hand-written scanner, no regular expressions: every character
// is looked at a bounded number of times, so hostile code cannot make it slow. The result is
// text plus a kind; code.ts turns it into text nodes in <span>s, never markup.
import { grammarFor, type Grammar, type WordGrammar } from './grammars';

export type SpanKind = 'comment' | 'string' | 'number' | 'keyword' | 'type' | 'function' | 'name' | 'tag' | 'add' | 'del' | 'meta';

export interface Span {
	readonly text: string;
	readonly kind?: SpanKind;
}

/** Past this, a code block is shown without highlighting: thousands of spans cost more than they help. */
export const MAX_HIGHLIGHT_CHARS = 100_000;

/** Spans covering `code` exactly, or null when the language is unknown or the code too long. */
export function highlight(code: string, language: string): Span[] | null {
	const grammar: Grammar | undefined = grammarFor(language);
	if (grammar === undefined || code.length > MAX_HIGHLIGHT_CHARS) {
		return null;
	}
	const out = new Spans(code);
	if (grammar.kind === 'diff') {
		scanDiff(code, out);
	} else if (grammar.kind === 'markup') {
		scanMarkup(code, out);
	} else {
		scanWords(code, grammar, out);
	}
	return out.finish();
}

/** Collects spans; the text between marked spans becomes plain spans. */
class Spans {
	private readonly spans: Span[] = [];
	private plainFrom = 0;

	constructor(private readonly code: string) {}

	mark(from: number, to: number, kind: SpanKind): void {
		if (from > this.plainFrom) {
			this.spans.push({ text: this.code.slice(this.plainFrom, from) });
		}
		if (to > from) {
			this.spans.push({ text: this.code.slice(from, to), kind });
		}
		this.plainFrom = Math.max(this.plainFrom, to);
	}

	finish(): Span[] {
		if (this.plainFrom < this.code.length) {
			this.spans.push({ text: this.code.slice(this.plainFrom) });
		}
		return this.spans;
	}
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isLetter = (c: string | undefined): boolean => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c > '\x7f');
const isWordChar = (c: string | undefined, extra: string): boolean => c !== undefined && (isLetter(c) || isDigit(c) || extra.includes(c));

function lineEnd(code: string, from: number): number {
	const end = code.indexOf('\n', from);
	return end < 0 ? code.length : end;
}

/** After a quoted string opened at `from`: past the closing quote, or at the line end / code end. */
function stringEnd(code: string, from: number, quote: string, multiline: boolean): number {
	let i = from + 1;
	while (i < code.length) {
		const c = code[i];
		if (c === '\\') {
			i += 2;
		} else if (c === quote) {
			return i + 1;
		} else if (c === '\n' && !multiline) {
			return i;
		} else {
			i += 1;
		}
	}
	return code.length;
}

function wordEnd(code: string, from: number, extra: string): number {
	let i = from;
	while (isWordChar(code[i], extra)) {
		i += 1;
	}
	return i;
}

/** Digits, then any letters, dots and exponent signs (0x1F, 1_000, 1.5e-3, 10px). */
function numberEnd(code: string, from: number): number {
	let i = from + 1;
	while (i < code.length) {
		const c = code[i];
		const exponentSign = (c === '+' || c === '-') && (code[i - 1] === 'e' || code[i - 1] === 'E') && code[from + 1] !== 'x';
		if (!(isWordChar(c, '.') || exponentSign)) {
			break;
		}
		i += 1;
	}
	return i;
}

/** Whether only spaces or tabs stand between the line start and `at`. */
function atLineStart(code: string, at: number): boolean {
	let i = at - 1;
	while (i >= 0 && (code[i] === ' ' || code[i] === '\t')) {
		i -= 1;
	}
	return i < 0 || code[i] === '\n';
}

function nextNonSpace(code: string, from: number): string | undefined {
	let i = from;
	while (code[i] === ' ' || code[i] === '\t') {
		i += 1;
	}
	return code[i];
}

function scanWords(code: string, g: WordGrammar, out: Spans): void {
	const extra = g.wordChars ?? '';
	const multiline = g.multilineQuotes ?? '';
	let i = 0;
	while (i < code.length) {
		const c = code.charAt(i);
		const previous = code[i - 1];
		if (g.lineComments.some((open) => code.startsWith(open, i)) && (!g.commentAfterSpace || i === 0 || isSpace(previous))) {
			const end = lineEnd(code, i);
			out.mark(i, end, 'comment');
			i = end;
		} else if (g.blockComment && code.startsWith(g.blockComment[0], i)) {
			const [open, close] = g.blockComment;
			const found = code.indexOf(close, i + open.length);
			const end = found < 0 ? code.length : found + close.length;
			out.mark(i, end, 'comment');
			i = end;
		} else if (g.tripleQuotes && (code.startsWith('"""', i) || code.startsWith("'''", i))) {
			const found = code.indexOf(code.slice(i, i + 3), i + 3);
			const end = found < 0 ? code.length : found + 3;
			out.mark(i, end, 'string');
			i = end;
		} else if (g.quotes.includes(c) && !(g.charQuoteOnly && c === "'" && code[i + 1] !== '\\' && code[i + 2] !== "'")) {
			const end = stringEnd(code, i, c, multiline.includes(c));
			out.mark(i, end, g.stringKeys && nextNonSpace(code, end) === ':' ? 'name' : 'string');
			i = end;
		} else if ((isDigit(c) || (c === '.' && isDigit(code[i + 1]))) && !isWordChar(previous, extra)) {
			const end = numberEnd(code, i);
			out.mark(i, end, 'number');
			i = end;
		} else if (g.dollarVariables && c === '$' && (code[i + 1] === '{' || isWordChar(code[i + 1], ''))) {
			const end = code[i + 1] === '{' ? Math.min(lineEnd(code, i), closingBrace(code, i + 2)) : wordEnd(code, i + 1, '');
			out.mark(i, end, 'name');
			i = end;
		} else if ((g.atKeywords && c === '@' && isLetter(code[i + 1])) || (g.directives && c === '#' && atLineStart(code, i))) {
			const end = wordEnd(code, i + 1, extra);
			out.mark(i, end, 'keyword');
			i = Math.max(end, i + 1);
		} else if (isLetter(c) || (extra.includes(c) && c !== '.' && isLetter(code[i + 1]) && !isWordChar(previous, extra))) {
			const end = wordEnd(code, i + 1, extra);
			const kind = wordKind(code, code.slice(i, end), end, g);
			if (kind !== undefined) {
				out.mark(i, end, kind);
			}
			i = end;
		} else {
			i += 1;
		}
	}
}

function closingBrace(code: string, from: number): number {
	const found = code.indexOf('}', from);
	return found < 0 ? code.length : found + 1;
}

function wordKind(code: string, word: string, end: number, g: WordGrammar): SpanKind | undefined {
	if (g.keywords.has(word)) {
		return 'keyword';
	}
	const next = code[end];
	if (g.keyColon && next === ':' && (end + 1 >= code.length || isSpace(code[end + 1]))) {
		return 'name';
	}
	if (g.types?.has(word) || (g.capitalTypes && word[0] !== undefined && word[0] >= 'A' && word[0] <= 'Z')) {
		return 'type';
	}
	return g.calls && next === '(' ? 'function' : undefined;
}

/** HTML and XML: comments, tag names, attribute names and values. Text between tags stays plain. */
function scanMarkup(code: string, out: Spans): void {
	let i = 0;
	while (i < code.length) {
		if (code.startsWith('<!--', i)) {
			const found = code.indexOf('-->', i + 4);
			const end = found < 0 ? code.length : found + 3;
			out.mark(i, end, 'comment');
			i = end;
		} else if (code.startsWith('<![CDATA[', i)) {
			const found = code.indexOf(']]>', i + 9);
			const end = found < 0 ? code.length : found + 3;
			out.mark(i, end, 'string');
			i = end;
		} else if (code[i] === '<' && (isLetter(code[i + 1]) || code[i + 1] === '/' || code[i + 1] === '!' || code[i + 1] === '?')) {
			i = scanTag(code, i, out);
		} else {
			const found = code.indexOf('<', i + 1);
			i = found < 0 ? code.length : found;
		}
	}
}

/** One tag from its `<`: returns the index after its `>` (or where it broke off). */
function scanTag(code: string, from: number, out: Spans): number {
	let i = from + 1;
	if (code[i] === '/' || code[i] === '!' || code[i] === '?') {
		i += 1;
	}
	const nameEnd = wordEnd(code, i, '-:.');
	out.mark(i, nameEnd, 'tag');
	i = nameEnd;
	while (i < code.length) {
		const c = code.charAt(i);
		if (c === '>') {
			return i + 1;
		}
		if (c === '<') {
			return i; // a broken tag: the next one starts here
		}
		if (c === '"' || c === "'") {
			const end = stringEnd(code, i, c, true);
			out.mark(i, end, 'string');
			i = end;
		} else if (isSpace(c) || c === '=' || c === '/' || c === '?') {
			i += 1;
		} else {
			let end = i + 1;
			while (end < code.length && !isSpace(code[end]) && !'=/>"\'<'.includes(code[end] ?? '')) {
				end += 1;
			}
			out.mark(i, end, 'name');
			i = end;
		}
	}
	return i;
}

/** Unified diffs, line by line: additions, deletions, and the file and hunk headers. */
function scanDiff(code: string, out: Spans): void {
	let i = 0;
	while (i < code.length) {
		const end = lineEnd(code, i);
		const kind = diffLineKind(code, i);
		if (kind !== undefined) {
			out.mark(i, end, kind);
		}
		i = end + 1;
	}
}

function diffLineKind(code: string, at: number): SpanKind | undefined {
	if (code.startsWith('+++', at) || code.startsWith('---', at) || code.startsWith('diff ', at) || code.startsWith('index ', at)) {
		return 'meta';
	}
	if (code.startsWith('@@', at)) {
		return 'keyword';
	}
	if (code[at] === '+') {
		return 'add';
	}
	return code[at] === '-' ? 'del' : undefined;
}
