// Markdown from the model, rendered safely. `marked` is used only as a tokenizer; the DOM is
// built here from its tokens with createElement and text nodes. No string from the host is ever
// parsed as HTML (no innerHTML, no DOMParser, no marked.parse): that is this view's DOMPurify
// equivalent. Raw HTML in the Markdown shows as its literal text; so does any token kind not
// handled below. Links and images go through links.ts, which lets only http(s) and mailto through.
import { Lexer, type Token, type Tokens, type TokensList } from 'marked';
import { el } from '../dom';
import { codeBlock } from './code';
import { decodeEntities } from './entities';
import { plainReason } from './guard';
import { imageNodes, linkNodes } from './links';

/** Inline text (a paragraph, a heading, a cell) longer than this is shown unformatted. */
const MAX_INLINE_CHARS = 10_000;
/** Once one lex has spent this long on inline formatting, the remaining blocks show their text. */
const INLINE_BUDGET_MS = 200;

/**
 * Lexer.lex with the inline pass bounded: marked's inline lexer is super-linear on some hostile
 * shapes (`__a__a…`: seconds for 40 KB). The same steps as marked 18's own lex(), through its
 * public Lexer API; a skipped block gets one `plain` token holding its source.
 */
export function lex(text: string): TokensList {
	const lexer = new Lexer({ gfm: true, breaks: false, pedantic: false });
	lexer.blockTokens(text.replace(/\r\n|\r/g, '\n'), lexer.tokens);
	const deadline = performance.now() + INLINE_BUDGET_MS;
	for (const { src, tokens: target } of lexer.inlineQueue) {
		if (src.length > MAX_INLINE_CHARS || performance.now() > deadline) {
			target.push({ type: 'plain', raw: src });
		} else {
			lexer.state.inRawBlock = false;
			lexer.inlineTokens(src, target);
		}
	}
	lexer.inlineQueue = [];
	return lexer.tokens;
}

export const FAILED = 'Could not be formatted: shown as plain text.';

/** The text itself, whitespace kept, with a note why it is not formatted. */
export function plainText(text: string, reason: string): Node[] {
	return [el('div', { class: 'md-note' }, reason), el('div', { class: 'md-plain' }, text)];
}

/** One-shot rendering, for recorded responses. */
export function renderMarkdown(text: string): DocumentFragment {
	const fragment = document.createDocumentFragment();
	const reason = plainReason(text);
	if (reason !== null) {
		fragment.append(...plainText(text, reason));
		return fragment;
	}
	try {
		for (const token of lex(text)) {
			const node = renderBlock(token);
			if (node !== null) {
				fragment.append(node);
			}
		}
	} catch {
		// Deep nesting can overflow the stack in marked or here.
		fragment.replaceChildren(...plainText(text, FAILED));
	}
	return fragment;
}

// Heading levels start at h3 and stop at h6: a chat row sits under the view's own headings.
const HEADINGS = ['h3', 'h4', 'h5', 'h6', 'h6', 'h6'] as const;

/** The element for one block token; null for tokens that show nothing (blank lines, link definitions). */
export function renderBlock(token: Token): Node | null {
	const t = token as Tokens.Generic; // narrowed by `type` below; unknown kinds fall through to their raw text
	switch (token.type) {
		case 'space':
		case 'def':
			return null;
		case 'paragraph':
			return el('p', {}, ...inline((t as Tokens.Paragraph).tokens));
		case 'text':
			// A tight list item's text; it may carry inline tokens.
			return el('span', {}, ...textNodes(t as Tokens.Text));
		case 'heading': {
			const heading = t as Tokens.Heading;
			const tag = HEADINGS[Math.min(Math.max(heading.depth, 1), 6) - 1] ?? 'h6';
			return el(tag, { class: `md-heading md-h${heading.depth}` }, ...inline(heading.tokens));
		}
		case 'code': {
			const code = t as Tokens.Code;
			return codeBlock(code.text, code.codeBlockStyle === 'indented' ? undefined : code.lang);
		}
		case 'blockquote':
			return el('blockquote', {}, ...blocks((t as Tokens.Blockquote).tokens));
		case 'list':
			return list(t as Tokens.List);
		case 'table':
			return table(t as Tokens.Table);
		case 'hr':
			return el('hr');
		case 'html':
			// Raw HTML is shown, never interpreted.
			return el('div', { class: 'md-raw' }, (t as Tokens.HTML).text);
		default:
			return el('div', { class: 'md-raw' }, t.raw);
	}
}

function blocks(tokens: Token[]): Node[] {
	return tokens.map(renderBlock).filter((node): node is Node => node !== null);
}

function list(token: Tokens.List): HTMLElement {
	const items = token.items.map((item) => {
		const children = item.tokens.map((child) => (child.type === 'checkbox' ? checkbox(child as Tokens.Checkbox) : renderBlock(child)));
		return el('li', { class: item.task ? 'md-task' : undefined }, ...children);
	});
	if (!token.ordered) {
		return el('ul', {}, ...items);
	}
	const start = typeof token.start === 'number' && token.start !== 1 ? String(token.start) : undefined;
	return el('ol', { start }, ...items);
}

function checkbox(token: Tokens.Checkbox): HTMLInputElement {
	const box = el('input', { type: 'checkbox', class: 'md-checkbox', disabled: true, 'aria-label': token.checked ? 'done' : 'not done' });
	box.checked = token.checked;
	return box;
}

const ALIGN_CLASS = { left: 'md-align-left', center: 'md-align-center', right: 'md-align-right' } as const;

function cell(tag: 'th' | 'td', value: Tokens.TableCell): HTMLTableCellElement {
	return el(tag, { class: value.align === null ? undefined : ALIGN_CLASS[value.align] }, ...inline(value.tokens));
}

function table(token: Tokens.Table): HTMLElement {
	const head = el('thead', {}, el('tr', {}, ...token.header.map((value) => cell('th', value))));
	const body = el('tbody', {}, ...token.rows.map((row) => el('tr', {}, ...row.map((value) => cell('td', value)))));
	// The wrapper scrolls sideways, so a wide table never widens the view.
	return el('div', { class: 'md-table' }, el('table', {}, head, body));
}

function textNodes(token: Tokens.Text, inLink = false): Node[] {
	if (token.tokens !== undefined && token.tokens.length > 0) {
		return inline(token.tokens, inLink);
	}
	return [document.createTextNode(decodeEntities(token.text))];
}

/** `inLink`: inside a link's text, where an image must not become a second, nested link. */
function inline(tokens: Token[], inLink = false): Node[] {
	return tokens.flatMap((token) => inlineNodes(token, inLink));
}

function inlineNodes(token: Token, inLink: boolean): Node[] {
	const t = token as Tokens.Generic;
	switch (token.type) {
		case 'text':
			return textNodes(t as Tokens.Text, inLink);
		case 'escape':
			return [document.createTextNode((t as Tokens.Escape).text)];
		case 'strong':
			return [el('strong', {}, ...inline((t as Tokens.Strong).tokens, inLink))];
		case 'em':
			return [el('em', {}, ...inline((t as Tokens.Em).tokens, inLink))];
		case 'del':
			return [el('del', {}, ...inline((t as Tokens.Del).tokens, inLink))];
		case 'codespan':
			return [el('code', { class: 'md-inline-code' }, (t as Tokens.Codespan).text)];
		case 'br':
			return [el('br')];
		case 'link': {
			const link = t as Tokens.Link;
			// Autolinks are literal; in [text](url) a character reference stands for its character.
			return linkNodes(link.autolink ? link.href : decodeEntities(link.href), inline(link.tokens, true));
		}
		case 'image': {
			const image = t as Tokens.Image;
			const alt = decodeEntities(image.text);
			return inLink ? [el('span', { class: 'md-image' }, `[image: ${alt}]`)] : imageNodes(decodeEntities(image.href), alt);
		}
		case 'html':
			return [document.createTextNode((t as Tokens.Tag).text)];
		case 'checkbox':
			return [checkbox(t as Tokens.Checkbox)];
		case 'plain':
			return [el('span', { class: 'md-plain' }, t.raw)];
		default:
			return [document.createTextNode(t.raw)];
	}
}
