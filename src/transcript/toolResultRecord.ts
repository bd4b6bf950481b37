// A tool call's result as recorded: its content inline or in a file beside the transcript, and the
// notices that rode it. In TRANSCRIPT_RECORDS (records.ts).
import * as z from 'zod';
import { declareRecord } from '../base/recordDeclaration';
import { wrap } from '../reminders/envelope';

export const ToolNoticeRecord = z.object({ key: z.string().min(1), body: z.string() });

/**
 * An image of a tool result: in memory with its `data` (base64); in the JSONL always out of line,
 * its bytes in `file` inside `<session>.files/` (the store writes it). `bytes` is its decoded size;
 * a record loaded without its file keeps `file` and no `data` (replay names it as missing).
 */
export const ToolImageRecord = z.object({
	mimeType: z.string().min(1),
	bytes: z.number().int().nonnegative(),
	width: z.number().int().positive().optional(),
	height: z.number().int().positive().optional(),
	data: z.string().optional(),
	file: z.string().optional(),
});
export type ToolImageRecord = z.infer<typeof ToolImageRecord>;

export const ToolResultRecord = z.object({
	kind: z.literal('tool-result'),
	id: z.string().min(1),
	turnId: z.string().min(1),
	callId: z.string().min(1),
	name: z.string().min(1),
	at: z.number(),
	/** The content, or null when it is stored out of line in `contentFile` (beside the JSONL). */
	content: z.string().nullable(),
	contentFile: z.string().optional(),
	isError: z.boolean(),
	notices: z.array(ToolNoticeRecord).optional(),
	images: z.array(ToolImageRecord).optional(),
	detail: z.unknown().optional(),
	durationMs: z.number().optional(),
	/** How the person decided, when they were asked. */
	verdict: z.enum(['granted', 'denied']).optional(),
	/** Set when the turn was stopped while the call ran: its effects may be partial (session.recovery). */
	cutOff: z.literal(true).optional(),
	/** The child invocation (its owner path) whose conversation this belongs to; absent for the root's. */
	agent: z.string().min(1).optional(),
});

/** An out-of-line content file is a plain name inside `<session>.files/`: never a path. */
const CONTENT_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.txt$/;
/** An image file, likewise: a plain name with the image's extension. */
export const IMAGE_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.(png|jpg|gif|webp)$/;

/** What is wrong with a record's images (a tool result's, a user message's), or undefined. */
export function imageRecordsProblem(images: readonly ToolImageRecord[] | undefined): string | undefined {
	for (const image of images ?? []) {
		if (image.file !== undefined && !IMAGE_FILE.test(image.file)) {
			return `image file ${JSON.stringify(image.file)} is not a plain file name.`;
		}
		if (image.file === undefined && image.data === undefined) {
			return 'an image has neither data nor a file.';
		}
	}
	return undefined;
}

// What the schema cannot say: where a tool result's content is, and that its notices still wrap
// (replay wraps them, and must not throw on a record the store accepted).
export const TOOL_RESULT_RECORD = declareRecord(ToolResultRecord, (record) => {
	if (record.content === null && record.contentFile === undefined) {
		return 'content is null and there is no contentFile.';
	}
	if (record.content !== null && record.contentFile !== undefined) {
		return 'both content and contentFile are set.';
	}
	if (record.contentFile !== undefined && !CONTENT_FILE.test(record.contentFile)) {
		return `contentFile ${JSON.stringify(record.contentFile)} is not a plain file name.`;
	}
	const images = imageRecordsProblem(record.images);
	if (images !== undefined) {
		return images;
	}
	for (const notice of record.notices ?? []) {
		try {
			wrap(notice.key, notice.body);
		} catch (error) {
			return `a notice cannot be wrapped: ${(error as Error).message}`;
		}
	}
	return undefined;
});

export type ToolResultRecord = z.infer<typeof ToolResultRecord>;
