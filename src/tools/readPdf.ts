// Read of a PDF: the text of its pages, each under a `--- page N ---` line. Without `pages` a long
// PDF shows its first pages and a positional `read.pdf-pages` notice (the seed's "PDF and
// large-attachment guidance") saying how many pages there are and to ask for bounded ranges.
import { sanitizeUntrusted } from '../reminders/envelope';
import { ToolError } from './errors';
import { formatPages, noTextIn, PDF_FIRST_PAGES, PDF_MAX_PAGES, type PageRange, PdfError, type PdfText, parsePageRange, pdfText } from './pdf';
import { formatBytes, splitLines, truncateUtf8, utf8Length } from './text';
import type { ToolNotice, ToolResult } from './tool';

export async function readPdf(bytes: Uint8Array, shown: string, pages: string | undefined, maxOutputBytes: number, signal: AbortSignal): Promise<ToolResult> {
	let asked: PageRange | undefined;
	let text: PdfText;
	try {
		asked = pages === undefined ? undefined : parsePageRange(pages);
		text = await pdfText(bytes, (count) => asked ?? { start: 1, end: Math.min(count, PDF_FIRST_PAGES) }, signal);
	} catch (error) {
		if (error instanceof PdfError) {
			throw new ToolError(`${shown}: ${error.message}`);
		}
		throw error;
	}
	const safePath = sanitizeUntrusted(shown);
	const first = text.pages[0]?.number ?? 1;
	const last = text.pages.at(-1)?.number ?? 0;
	let content = formatPages(text.pages);
	const byteLimited = utf8Length(content) > maxOutputBytes;
	if (byteLimited) {
		content = truncateUtf8(content, maxOutputBytes);
	}
	const notices: ToolNotice[] = [];
	const parts: string[] = [];
	if (noTextIn(text.pages)) {
		parts.push(`${pagesOf(first, last)} of ${safePath} have no extractable text: the PDF is probably scanned images, which Read cannot turn into text.`);
	}
	const more = last < text.pageCount;
	const cutRange = asked !== undefined && last < Math.min(asked.end, text.pageCount);
	if (more && (asked === undefined || cutRange)) {
		const next = last + 1;
		parts.unshift(
			`${safePath} has ${text.pageCount} pages; this shows ${pagesOf(first, last).toLowerCase()}.` +
				(cutRange ? ` Read returns at most ${PDF_MAX_PAGES} pages a call.` : '') +
				` Prefer bounded reads: call Read with pages: "${next}-${Math.min(text.pageCount, next + PDF_FIRST_PAGES - 1)}" (START-END, at most ${PDF_MAX_PAGES} pages) for the pages you need.`,
		);
	}
	if (byteLimited) {
		parts.push(`The output stopped at Read's ${formatBytes(maxOutputBytes)} limit; ask for fewer pages at a time.`);
	}
	if (asked !== undefined && asked.end > text.pageCount) {
		parts.push(`Pages ${asked.start}–${asked.end} were asked for; the PDF ends at page ${text.pageCount}.`);
	}
	if (parts.length > 0) {
		notices.push({ key: 'read.pdf-pages', body: parts.join(' ') });
	}
	return {
		content,
		...(notices.length > 0 ? { notices } : {}),
		detail: { kind: 'file', path: shown, lines: splitLines(content).length, truncated: more || byteLimited },
	};
}

function pagesOf(first: number, last: number): string {
	return first === last ? `Page ${first}` : `Pages ${first}–${last}`;
}
