// Read of an image: a PNG, JPEG, GIF or WebP file, by its bytes, is returned as an image part with a
// line of text that names it. A file named as an image whose bytes are not that image is refused, and
// so is an image past the largest any provider takes; each provider's own bound is kept where the
// request is made (src/providers/imageParts.ts), with a line the model reads.
import { ToolError } from './errors';
import { claimedImageMime, describeImage, type ImageMime, imagePartOf, READ_MAX_IMAGE_BYTES, sniffImage } from './images';
import { formatBytes } from './text';
import type { ToolResult } from './tool';

const FORMAT_NAMES: Readonly<Record<ImageMime, string>> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' };

/** The result of reading an image file, or undefined when the file is neither named nor made as one. */
export function readImage(bytes: Uint8Array, absolute: string, shown: string): ToolResult | undefined {
	const claimed = claimedImageMime(absolute);
	const sniffed = sniffImage(bytes);
	if (claimed === undefined && sniffed === undefined) {
		return undefined;
	}
	if (claimed !== undefined && sniffed === undefined) {
		throw new ToolError(`${shown} is named as a ${FORMAT_NAMES[claimed]} image, but its bytes are no PNG, JPEG, GIF or WebP image; Read does not return it.`);
	}
	if (claimed !== undefined && sniffed !== undefined && claimed !== sniffed.mimeType) {
		throw new ToolError(
			`${shown} is named as a ${FORMAT_NAMES[claimed]} image, but its bytes are a ${FORMAT_NAMES[sniffed.mimeType]} image; ` +
				'Read does not return an image whose bytes do not match its extension. Rename it to match, then read it.',
		);
	}
	if (bytes.length > READ_MAX_IMAGE_BYTES) {
		throw new ToolError(`${shown} is an image of ${formatBytes(bytes.length)}, more than Read returns for an image (${formatBytes(READ_MAX_IMAGE_BYTES)}, the most any provider takes).`);
	}
	const image = imagePartOf(bytes);
	if (image === undefined) {
		return undefined;
	}
	return {
		content: `The image ${shown} (${describeImage(image)}) is attached.`,
		images: [image],
		detail: { kind: 'file', path: shown, lines: 0, truncated: false },
	};
}
