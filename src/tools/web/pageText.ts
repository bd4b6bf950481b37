// A fetched body as text the model can read: HTML as Markdown (its main part only: scripts,
// styles, navigation, headers, footers, asides, forms and frames are dropped first), plain text,
// Markdown and JSON as they are, in the charset the response or the page names.
// node-html-markdown converts without a DOM (it parses with node-html-parser), so it runs in the
// extension host as it is; turndown would need a DOM implementation besides.
import { NodeHtmlMarkdown } from 'node-html-markdown';
import { type HTMLElement, parse } from 'node-html-parser';

/** What a response's Content-Type says: its type (lower case) and charset, if any. */
export interface ContentType {
	readonly type: string;
	readonly charset?: string;
}

export function parseContentType(header: string | undefined): ContentType {
	const [type = '', ...params] = (header ?? '').split(';');
	const charset = params.map((param) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(param)?.[1]).find((value) => value !== undefined);
	return { type: type.trim().toLowerCase(), ...(charset ? { charset: charset.toLowerCase() } : {}) };
}

export type BodyKind = 'html' | 'text' | 'pdf' | 'other';

/** How a body of `type` is shown; `bytes` decide when the type is missing or vague. */
export function bodyKind(type: string, bytes: Uint8Array): BodyKind {
	if (type === 'text/html' || type === 'application/xhtml+xml') {
		return 'html';
	}
	if (type === 'application/pdf') {
		return 'pdf';
	}
	if (type.startsWith('text/') || /^application\/(?:[\w.+-]*\+)?(?:json|xml|javascript|x-ndjson|yaml|x-yaml|toml)$/.test(type)) {
		return 'text';
	}
	if (type === '' || type === 'application/octet-stream') {
		const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
		if (head.includes('%PDF-')) {
			return 'pdf';
		}
		if (type === '' && !head.includes('\0')) {
			return /^\s*(?:<!doctype html|<html)/i.test(head) ? 'html' : 'text';
		}
	}
	return 'other';
}

/** The charset a page names in its first KB (`<meta charset>` or its http-equiv form). */
function metaCharset(bytes: Uint8Array): string | undefined {
	const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
	return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
}

// windows-1252's 0x80–0x9F (0xFFFD where it has no character). Node 20's TextDecoder decodes the
// windows-1252 family (which the web's "latin1" and "iso-8859-1" labels also mean) as ISO-8859-1,
// so a page's curly quotes and dashes would come out as control characters.
const CP1252_HIGH = '€\ufffd‚ƒ„…†‡ˆ‰Š‹Œ\ufffdŽ\ufffd\ufffd‘’“”•–—˜™š›œ\ufffdžŸ';

function decodeCp1252(bytes: Uint8Array): string {
	let text = '';
	for (let start = 0; start < bytes.length; start += 8192) {
		const part = bytes.subarray(start, start + 8192);
		text += String.fromCharCode(...part.map((byte) => byte)).replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
	}
	return text;
}

/** The body as text: the header's charset, else (HTML) the page's own, else UTF-8 (a BOM wins over all). */
export function decodeBody(bytes: Uint8Array, contentType: ContentType, kind: BodyKind): string {
	const label = contentType.charset ?? (kind === 'html' ? metaCharset(bytes) : undefined) ?? 'utf-8';
	let decoder = new TextDecoder('utf-8');
	try {
		decoder = new TextDecoder(label);
	} catch {
		// An unknown label: UTF-8.
	}
	const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
	return decoder.encoding === 'windows-1252' && !bom ? decodeCp1252(bytes) : (bom ? new TextDecoder('utf-8') : decoder).decode(bytes);
}

/** Never part of a page's text. */
const NOISE = 'script, style, noscript, template, iframe, frame, frameset, object, embed, canvas, svg, form, button, input, select, textarea, nav, aside, dialog, link, meta';
/** Around the main part of a page: dropped when the page marks no main part. */
const CHROME = 'header, footer, [role=banner], [role=navigation], [role=contentinfo], [role=complementary], [aria-hidden=true]';

const converter = new NodeHtmlMarkdown({ maxConsecutiveNewlines: 2, keepDataImages: false, useLinkReferenceDefinitions: false });

export interface PageMarkdown {
	readonly title?: string;
	readonly markdown: string;
}

/** A page's main text as Markdown: `<main>`, else `<article>`, else the body without its header and footer. */
export function htmlToMarkdown(html: string): PageMarkdown {
	const root = parse(html, { comment: false, blockTextElements: { pre: true } });
	const title = root.querySelector('title')?.textContent.replace(/\s+/g, ' ').trim();
	const main: HTMLElement = root.querySelector('main, [role=main]') ?? root.querySelector('article') ?? root.querySelector('body') ?? root;
	for (const element of main.querySelectorAll(NOISE)) {
		element.remove();
	}
	if (main.tagName === 'BODY' || main === root) {
		for (const element of main.querySelectorAll(CHROME)) {
			element.remove();
		}
	}
	const markdown = converter.translate(main.innerHTML).trim();
	return { ...(title ? { title } : {}), markdown };
}
