// A tool result's images beside the transcript: each one's bytes in its own file in
// `<sessionId>.files/` (never base64 in the JSONL, whatever its size), named after the record and
// its place, and read back byte for byte by load().
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../base/errors';
import { contentDir, contentFileName, TranscriptError } from './paths';
import type { ToolImageRecord } from './toolResultRecord';

const EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** `<record>.image-<n>.<ext>`: a plain name, as IMAGE_FILE checks. */
export function imageFileName(recordId: string, index: number, mimeType: string): string {
	const base = contentFileName(recordId).replace(/\.txt$/, '');
	return `${base}.image-${index + 1}.${EXTENSIONS[mimeType] ?? 'png'}`;
}

/** Writes each image that has its data to its file; the records keep the file's name instead of the data. */
export function writeImageFiles(dir: string, sessionId: string, recordId: string, images: readonly ToolImageRecord[]): ToolImageRecord[] {
	const folder = contentDir(dir, sessionId);
	return images.map((image, index) => {
		if (image.data === undefined) {
			return image;
		}
		const { data, ...rest } = image;
		const name = imageFileName(recordId, index, image.mimeType);
		try {
			mkdirSync(folder, { recursive: true });
			writeFileSync(join(folder, name), Buffer.from(data, 'base64'));
		} catch (error) {
			throw new TranscriptError(`Could not write image ${index + 1} of record ${recordId} to ${join(folder, name)}: ${errorMessage(error)}`, { cause: error });
		}
		return { ...rest, file: name };
	});
}

/** The images with their data read back from their files; one whose file cannot be read keeps only its name, and is reported. */
export function readImageFiles(
	dir: string,
	sessionId: string,
	images: readonly ToolImageRecord[],
	report: (file: string, why: string) => void,
): ToolImageRecord[] {
	const folder = contentDir(dir, sessionId);
	return images.map((image) => {
		if (image.file === undefined || image.data !== undefined) {
			return image;
		}
		try {
			return { ...image, data: readFileSync(join(folder, image.file)).toString('base64') };
		} catch (error) {
			report(image.file, errorMessage(error));
			return image;
		}
	});
}
