// The text of a PDF's pages, for Read (`pages`) and `@file.pdf`. pdf.js parses it in this thread
// (its "fake worker": no worker file to ship, and the extension host has no DOM worker); only
// text is extracted, nothing is rendered. The parse is bounded three ways so a hostile file
// cannot hang the chat: its bytes, the pages read per call, and a deadline after which the
// document is destroyed.
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { errorMessage } from '../base/errors';
import { plural } from '../base/words';
import { formatBytes } from './text';

/** Read without `pages` returns at most this many pages; a longer PDF gets a `read.pdf-pages` notice. */
export const PDF_FIRST_PAGES = 10;
/** What one call extracts at most, with or without `pages`. */
export const PDF_MAX_PAGES = 20;
/** Beyond this a PDF is refused unparsed. */
export const PDF_MAX_BYTES = 32 * 1024 * 1024;
/** How long one extraction may take before it is given up. */
export const PDF_PARSE_TIMEOUT_MS = 20_000;

/** A PDF that cannot be read: broken, encrypted, too large, or a page range that does not fit. */
export class PdfError extends Error {
	override readonly name = 'PdfError';
}

export interface PageRange {
	/** 1-based, inclusive. */
	readonly start: number;
	readonly end: number;
}

export interface PdfPage {
	readonly number: number;
	readonly text: string;
}

export interface PdfText {
	readonly pageCount: number;
	/** The pages extracted, in order: a contiguous run from the range's start. */
	readonly pages: readonly PdfPage[];
}

/** Whether the bytes are a PDF: the `%PDF-` header within the first KB, as readers accept it. */
export function isPdf(bytes: Uint8Array): boolean {
	const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
	return head.includes('%PDF-');
}

/** `"3"` or `"2-5"` (an en dash too); the message says what is accepted. */
export function parsePageRange(text: string): PageRange {
	const match = /^\s*(\d+)\s*(?:[-–]\s*(\d+)\s*)?$/.exec(text);
	const start = Number(match?.[1]);
	const end = match?.[2] === undefined ? start : Number(match[2]);
	if (!match || start < 1 || end < start) {
		throw new PdfError(`pages must be one page ("3") or a range ("2-5") of 1-based page numbers, START no greater than END; got "${text}".`);
	}
	return { start, end };
}

type PdfJs = typeof PdfJsModule;
let loaded: Promise<PdfJs> | undefined;

/** pdf.js, loaded on the first PDF only (it is large); its worker code runs in this thread. */
function pdfjs(): Promise<PdfJs> {
	loaded ??= (async () => {
		// @ts-expect-error -- pdf.js ships no types for its worker module; it is only handed back to pdf.js.
		const worker: unknown = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
		// pdf.js looks here for an in-thread worker before it tries to load a worker file.
		(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
		return import('pdfjs-dist/legacy/build/pdf.mjs');
	})();
	return loaded;
}

/** One page's text: pdf.js's text runs, a line break where it marks one. */
function pageText(items: readonly unknown[]): string {
	let text = '';
	for (const item of items) {
		if (typeof item === 'object' && item !== null && 'str' in item) {
			const run = item as { str: string; hasEOL?: boolean };
			text += run.str + (run.hasEOL ? '\n' : '');
		}
	}
	return text.replace(/[ \t]+\n/g, '\n').trim();
}

function withDeadline<T>(work: Promise<T>, onStop: () => void, signal?: AbortSignal): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const stop = (error: Error) => {
			clearTimeout(timer);
			onStop();
			reject(error);
		};
		const timer = setTimeout(() => {
			stop(new PdfError(`reading it took longer than ${PDF_PARSE_TIMEOUT_MS / 1000} s and was stopped.`));
		}, PDF_PARSE_TIMEOUT_MS);
		const abort = () => {
			stop(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
		};
		signal?.addEventListener('abort', abort, { once: true });
		work.then(
			(value) => {
				clearTimeout(timer);
				signal?.removeEventListener('abort', abort);
				resolve(value);
			},
			(error: unknown) => {
				clearTimeout(timer);
				signal?.removeEventListener('abort', abort);
				reject(error instanceof Error ? error : new Error(String(error)));
			},
		);
	});
}

/** Why pdf.js refused the file, in words for the model and the person. */
function refusal(error: unknown): PdfError {
	const name = error instanceof Error ? error.name : '';
	if (name === 'PasswordException') {
		return new PdfError('it is encrypted (password-protected); its text cannot be read.');
	}
	if (name === 'InvalidPDFException' || name === 'FormatError' || name === 'UnknownErrorException') {
		return new PdfError(`it is not a readable PDF (${errorMessage(error)}).`);
	}
	return error instanceof PdfError ? error : new PdfError(`it could not be read as a PDF (${errorMessage(error)}).`);
}

/**
 * The text of the pages `choose` picks once the page count is known (a range past the end is a
 * PdfError; one longer than PDF_MAX_PAGES is cut to that many). The bytes are copied: pdf.js
 * takes ownership of what it is given.
 */
export async function pdfText(bytes: Uint8Array, choose: (pageCount: number) => PageRange, signal?: AbortSignal): Promise<PdfText> {
	if (bytes.length > PDF_MAX_BYTES) {
		throw new PdfError(`it is ${formatBytes(bytes.length)}, more than the ${formatBytes(PDF_MAX_BYTES)} a PDF is read to.`);
	}
	const { getDocument, VerbosityLevel } = await pdfjs();
	const task = getDocument({
		data: new Uint8Array(bytes),
		isEvalSupported: false,
		disableFontFace: true,
		useSystemFonts: false,
		stopAtErrors: false,
		verbosity: VerbosityLevel.ERRORS,
	});
	const work = (async (): Promise<PdfText> => {
		const document = await task.promise.catch((error: unknown) => {
			throw refusal(error);
		});
		const pageCount = document.numPages;
		const range = choose(pageCount);
		if (range.start > pageCount) {
			throw new PdfError(`page ${range.start} is past its end: it has ${plural(pageCount, 'page')}.`);
		}
		const end = Math.min(range.end, pageCount, range.start + PDF_MAX_PAGES - 1);
		const pages: PdfPage[] = [];
		for (let number = range.start; number <= end; number++) {
			const page = await document.getPage(number);
			const content = await page.getTextContent();
			pages.push({ number, text: pageText(content.items) });
			page.cleanup();
		}
		return { pageCount, pages };
	})();
	try {
		return await withDeadline(work, () => void task.destroy(), signal);
	} finally {
		await task.destroy().catch(() => undefined);
	}
}

/** Pages as Read and @file show them: each under a `--- page N ---` line. */
export function formatPages(pages: readonly PdfPage[]): string {
	return pages.map((page) => `--- page ${page.number} ---\n${page.text === '' ? '(no text on this page)' : page.text}`).join('\n\n');
}

/** True when none of the pages has any text: a scanned PDF, or one of images only. */
export function noTextIn(pages: readonly PdfPage[]): boolean {
	return pages.every((page) => page.text === '');
}
