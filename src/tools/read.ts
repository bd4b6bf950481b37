// Read: a text file with line numbers, `cat -n` style. The content is the file text and nothing
// else; when not all of it fits, a `read.truncated` notice says how to read on. A PDF is read as
// the text of its pages (readPdf.ts), with `pages` to choose them.
import * as z from 'zod';
import { sanitizeUntrusted } from '../reminders/envelope';
import { ToolError } from './errors';
import { displayPath, resolveInWorkspace } from './paths';
import { isPdf, PDF_FIRST_PAGES, PDF_MAX_PAGES } from './pdf';
import { readPdf } from './readPdf';
import { readImage } from './readImage';
import { plural } from '../base/words';
import { classifyBytes, formatBytes, splitLines, truncateUtf8, utf8Length } from './text';
import type { Tool, ToolContext, ToolNotice, ToolResult } from './tool';

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_OUTPUT_BYTES = 256 * 1024;
/** Beyond this a file is refused unread: the whole file is read to number its lines. */
export const READ_MAX_FILE_BYTES = 50 * 1024 * 1024;

const input = z.object({
	path: z.string().describe('The file to read: relative to the workspace folder, or absolute inside it; or the absolute path a tool result gave for an output it kept whole.'),
	offset: z.number().int().min(1).optional().describe('The 1-based line to start at. Default 1.'),
	limit: z.number().int().min(1).optional().describe(`How many lines to return at most. Default ${READ_DEFAULT_LIMIT}.`),
	pages: z.string().optional().describe(`PDF only: the pages to read, "3" or "2-5" (1-based, at most ${PDF_MAX_PAGES}). Default: the first ${PDF_FIRST_PAGES}.`),
});

/** The file Read opens: one in the workspace (or the plan file), or an output Aside kept whole (keptOutputs.ts). */
async function readablePath(path: string, context: ToolContext): Promise<string> {
	return (await context.outputs?.resolve(path, context.fs)) ?? (await resolveInWorkspace(path, context.roots, context.fs, context.planFile));
}

export const readTool: Tool<z.infer<typeof input>> = {
	name: 'Read',
	description:
		'Reads a text file and returns its lines numbered like `cat -n`: the line number, a tab, then the line exactly as in the file. ' +
		`Returns up to ${READ_DEFAULT_LIMIT} lines (and at most 256 KB) from offset; a notice after the content says when there is more and which offset to use. ` +
		'Shows unsaved changes open in the editor. Refuses binary files; for a directory, use List. ' +
		'A PNG, JPEG, GIF or WebP image is returned as an image you can see (offset and limit do not apply). ' +
		`A PDF returns the text of its pages, each under a \`--- page N ---\` line: the first ${PDF_FIRST_PAGES} unless \`pages\` ("START-END") says which. ` +
		'The line-number prefix is not part of the file: leave it out of Edit strings.',
	kind: 'read',
	input,
	async touches({ path }, context) {
		return { reads: [await readablePath(path, context)], writes: [] };
	},
	async run({ path, offset = 1, limit = READ_DEFAULT_LIMIT, pages }, context) {
		const absolute = await readablePath(path, context);
		const shown = displayPath(absolute, context.roots);
		const stat = await context.fs.stat(absolute);
		if (!stat) {
			throw new ToolError(`File not found: ${shown}.`);
		}
		if (stat.type === 'directory') {
			throw new ToolError(`${shown} is a directory, not a file; use List to see what it contains.`);
		}
		if (stat.type !== 'file') {
			throw new ToolError(`${shown} is not a regular file; Read only returns text files.`);
		}
		if (stat.size > READ_MAX_FILE_BYTES) {
			throw new ToolError(`${shown} is ${formatBytes(stat.size)}, more than Read opens (${formatBytes(READ_MAX_FILE_BYTES)}); use Grep to find the lines you need.`);
		}
		const bytes = await context.fs.readFile(absolute);
		if (isPdf(bytes)) {
			// Not marked as seen: Edit matches file text, and a PDF's extracted text is not that.
			return readPdf(bytes, shown, pages, READ_MAX_OUTPUT_BYTES, context.signal);
		}
		if (pages !== undefined) {
			throw new ToolError(`pages is for PDF files; ${shown} is not a PDF. Use offset and limit to read a range of its lines.`);
		}
		const image = readImage(bytes, absolute, shown);
		if (image) {
			// Not marked as seen either: there is no text to match an Edit against.
			return image;
		}
		const verdict = classifyBytes(bytes);
		if (verdict === 'binary') {
			throw new ToolError(`${shown} is a binary file (${plural(bytes.length, 'byte')}); Read only returns text.`);
		}
		// The editor's view, so what Read shows is what Edit matches against.
		const text = await context.writer.readText(absolute).catch((error: unknown) => {
			if (verdict === 'not-utf8') {
				throw new ToolError(`${shown} is not UTF-8 text (${plural(bytes.length, 'byte')}); Read only returns UTF-8 text.`);
			}
			throw error;
		});
		if (text === undefined) {
			throw new ToolError(`File not found: ${shown}.`);
		}
		if (text.includes('\0')) {
			// The editor's unsaved text can differ from the disk's: a NUL never goes to the model.
			throw new ToolError(`${shown} holds NUL characters (in the editor's text); Read only returns text.`);
		}
		const result = numbered(text, shown, offset, limit);
		// What the agent has now seen of the file: Edit checks it is still the text (stale-write guard).
		context.seen.saw(absolute, text);
		return { ...result, touched: [{ path: absolute, access: 'read', text }] };
	},
};

function numbered(text: string, shown: string, offset: number, limit: number): ToolResult {
	const lines = splitLines(text);
	const total = lines.length;
	const safePath = sanitizeUntrusted(shown);
	if (total === 0) {
		return {
			content: '',
			notices: [{ key: 'read.empty', body: `${safePath} is empty (0 lines).` }],
			detail: { kind: 'file', path: shown, lines: 0, truncated: false },
		};
	}
	if (offset > total) {
		throw new ToolError(`offset ${offset} is past the end of ${shown}, which has ${plural(total, 'line')}.`);
	}
	const end = Math.min(total, offset + limit - 1);
	const width = Math.max(6, String(end).length);
	const rows: string[] = [];
	let bytes = 0;
	let last = offset - 1;
	let cutLine: number | undefined;
	let byteLimited = false;
	for (let n = offset; n <= end; n++) {
		const row = `${String(n).padStart(width)}\t${lines[n - 1] ?? ''}`;
		const size = utf8Length(row) + 1;
		if (bytes + size > READ_MAX_OUTPUT_BYTES) {
			byteLimited = true;
			if (rows.length === 0) {
				// One line longer than the whole budget: show its start rather than nothing.
				rows.push(truncateUtf8(row, READ_MAX_OUTPUT_BYTES));
				cutLine = n;
				last = n;
			}
			break;
		}
		rows.push(row);
		bytes += size;
		last = n;
	}
	const notices: ToolNotice[] = [];
	if (last < total || cutLine !== undefined) {
		const parts = [`Showing lines ${offset}–${last} of ${total} in ${safePath}.`];
		if (byteLimited) {
			parts.push(`The output stopped at Read's ${formatBytes(READ_MAX_OUTPUT_BYTES)} limit.`);
		}
		if (cutLine !== undefined) {
			parts.push(`Line ${cutLine} is longer than that and was cut; use Grep to search it.`);
		}
		if (last < total) {
			parts.push(`To read more, call Read with offset=${last + 1}.`);
		}
		notices.push({ key: 'read.truncated', body: parts.join(' ') });
	}
	return {
		content: rows.join('\n'),
		...(notices.length > 0 ? { notices } : {}),
		detail: { kind: 'file', path: shown, lines: last - offset + 1, truncated: notices.length > 0 },
	};
}
