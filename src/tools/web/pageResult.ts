// What a WebFetch call returns: a header the model reads first (the final URL, the status, the
// content type and size, what to look for), then the page as Markdown or text, or a PDF's pages,
// or a sentence naming a type WebFetch does not show. Bounded; a longer page is kept whole for Read.
import { formatPages, noTextIn, PDF_FIRST_PAGES, PdfError, pdfText } from '../pdf';
import { formatBytes, truncateUtf8, utf8Length } from '../text';
import type { ToolContext, ToolResult } from '../tool';
import { bodyKind, decodeBody, htmlToMarkdown, parseContentType } from './pageText';
import type { FetchOutcome } from './fetchPage';

/** What one result shows of a page at most; the whole page is kept for Read when it is longer. */
export const WEB_FETCH_MAX_OUTPUT_BYTES = 100 * 1024;

type Answer = Extract<FetchOutcome, { kind: 'response' }>;

function sizeWords(answer: Answer): string {
	const { body, cut } = answer.response;
	const length = Number(answer.response.headers['content-length']);
	if (cut) {
		return Number.isFinite(length) && length > body.length ? `${formatBytes(length)}; only the first ${formatBytes(body.length)} were read` : `more than ${formatBytes(body.length)}; only that much was read`;
	}
	return formatBytes(body.length);
}

function header(answer: Answer, prompt: string | undefined, extra: readonly string[]): string {
	const { response } = answer;
	const lines = [
		`URL: ${answer.url.href}`,
		...(answer.redirects.length > 0 ? [`Redirected from: ${answer.redirects[0] ?? ''} (${answer.redirects.length} ${answer.redirects.length === 1 ? 'redirect' : 'redirects'})`] : []),
		`Status: ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
		`Content type: ${response.headers['content-type'] ?? '(none given)'} (${sizeWords(answer)})`,
		...extra,
		...(prompt?.trim() ? [`What to look for: ${prompt.trim()} (no second model reads the page for you: find it in the text below)`] : []),
	];
	return lines.join('\n');
}

async function bounded(text: string, context: ToolContext): Promise<{ readonly text: string; readonly note?: string }> {
	if (utf8Length(text) <= WEB_FETCH_MAX_OUTPUT_BYTES) {
		return { text };
	}
	const shown = truncateUtf8(text, WEB_FETCH_MAX_OUTPUT_BYTES);
	const kept = await context.outputs?.keep('WebFetch', text).catch(() => undefined);
	const rest = kept ? `; the whole text (${formatBytes(kept.bytes)}) is in ${kept.path}: Read it with offset and limit for the rest` : '';
	return { text: shown, note: `[The text stops at WebFetch's ${formatBytes(WEB_FETCH_MAX_OUTPUT_BYTES)} limit${rest}.]` };
}

/** The result of a call that got an answer (not a redirect elsewhere). */
export async function pageResult(answer: Answer, prompt: string | undefined, context: ToolContext): Promise<ToolResult> {
	const { body } = answer.response;
	const contentType = parseContentType(answer.response.headers['content-type']);
	const kind = bodyKind(contentType.type, body);
	const cutNote = answer.response.cut ? ['Cut: the body was longer than WebFetch reads; what follows is its beginning.'] : [];
	if (kind === 'other') {
		return {
			isError: true,
			content: `${header(answer, prompt, [])}\n\nWebFetch shows web pages (HTML), text, Markdown, JSON and PDF; this response is ${contentType.type || 'of no stated type'} (${sizeWords(answer)}), which it does not show.`,
		};
	}
	if (kind === 'pdf') {
		if (answer.response.cut) {
			return { isError: true, content: `${header(answer, prompt, [])}\n\nThe PDF is larger than WebFetch reads, so its pages cannot be shown.` };
		}
		try {
			const pdf = await pdfText(body, (count) => ({ start: 1, end: Math.min(count, PDF_FIRST_PAGES) }), context.signal);
			const last = pdf.pages.at(-1)?.number ?? 0;
			const pages = [`PDF: ${pdf.pageCount} ${pdf.pageCount === 1 ? 'page' : 'pages'}${last < pdf.pageCount ? `; the first ${last} are shown` : ''}${noTextIn(pdf.pages) ? '; they have no extractable text (scanned images?)' : ''}`];
			const shown = await bounded(formatPages(pdf.pages), context);
			return { content: [header(answer, prompt, pages), '', shown.text, ...(shown.note ? [shown.note] : [])].join('\n') };
		} catch (error) {
			if (error instanceof PdfError) {
				return { isError: true, content: `${header(answer, prompt, [])}\n\nThe PDF cannot be read: ${error.message}` };
			}
			throw error;
		}
	}
	const text = decodeBody(body, contentType, kind);
	const page = kind === 'html' ? htmlToMarkdown(text) : { markdown: text };
	const extra = [...(page.title ? [`Title: ${page.title}`] : []), ...cutNote];
	const shown = await bounded(page.markdown === '' ? '(the page has no text)' : page.markdown, context);
	return { content: [header(answer, prompt, extra), '', shown.text, ...(shown.note ? [shown.note] : [])].join('\n') };
}

/** The result of a call whose URL redirects to another host, which is not followed. */
export function elsewhereResult(outcome: Extract<FetchOutcome, { kind: 'elsewhere' }>): ToolResult {
	return {
		content:
			`URL: ${outcome.url.href}\nStatus: ${outcome.status} (a redirect)\n\n` +
			`It redirects to another host: ${outcome.location.href}\n` +
			'WebFetch does not follow a redirect to another host by itself. Call WebFetch with that URL if you need it: it is a fetch of its own, decided (and asked about) again.',
	};
}
