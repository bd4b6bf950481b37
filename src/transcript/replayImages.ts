// A recorded tool result's images as replay sends them: those with their bytes as image parts, and
// one placeholder line for each whose file was gone when the transcript was loaded (load reported it).
import type { ImagePart } from '../providers/messages';
import { decodedBytes } from '../tools/images';
import type { ToolImageRecord } from './toolResultRecord';

/** A record that carries images: a tool result, or a user message with attachments. */
interface WithImages {
	readonly images?: readonly ToolImageRecord[] | undefined;
}

/** What stands in, in the model's text, for an image whose file is gone. */
export function missingImagePlaceholder(image: ToolImageRecord): string {
	return `[image file missing: ${image.file ?? '?'} (${image.mimeType}, ${image.bytes} bytes) — the image is not shown]`;
}

/** The record's images that have their bytes, as image parts. */
export function recordImages(record: WithImages): ImagePart[] {
	return (record.images ?? []).flatMap((image): ImagePart[] => {
		if (image.data === undefined) {
			return [];
		}
		const size = image.width === undefined || image.height === undefined ? {} : { width: image.width, height: image.height };
		return [{ mimeType: image.mimeType, data: image.data, ...size }];
	});
}

/** The text after a result's own for its missing images ('' when none is missing). */
export function missingImagesText(record: WithImages): string {
	const missing = (record.images ?? []).filter((image) => image.data === undefined);
	return missing.map((image) => `\n\n${missingImagePlaceholder(image)}`).join('');
}

/** A tool's images as the record keeps them (the store moves their bytes out of line). */
export function imageRecords(images: readonly ImagePart[]): ToolImageRecord[] {
	return images.map((image) => ({ ...image, bytes: decodedBytes(image.data) }));
}
