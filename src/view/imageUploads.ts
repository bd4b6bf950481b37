// The images a person attaches, checked on the host (the webview only carries bytes): what they are
// by their bytes (sniffImage: a file named .png that is no PNG is refused), and within the bound of
// the provider that will get them. A refusal says which image, what it is, which bound and why; it
// loses nothing else (the composer keeps the text and the other images).
import { imageRefusal, type ImageLimits, OPENAI_IMAGE_LIMITS } from '../providers/imageParts';
import type { ImagePart } from '../providers/messages';
import type { UserImageView } from '../protocol/images';
import { MAX_ATTACHED_IMAGE_BYTES } from '../protocol/images';
import { describeImage, sniffImage } from '../tools/images';
import { formatBytes } from '../tools/text';
import type { ToolImageRecord } from '../transcript/toolResultRecord';

/** What the window hands the images feature: how to read an image file, and the current provider's bound. */
export interface ImageSources {
	/** A workspace-relative path or a `file:` URI: its name and bytes; throws with a message a person can read. `limit`: the most bytes to read. */
	readFile(file: string, limit: number): Promise<{ readonly name: string; readonly bytes: Uint8Array }>;
	/** The bound of the provider the next message goes to; undefined when none is chosen. */
	limits(): ImageLimits | undefined;
}

export type CheckedImage = { readonly image: ImagePart } | { readonly refused: string };

/** The bound Aside keeps whatever the provider: OpenAI's 20 MB, the largest any provider takes. */
const LARGEST = `the largest image Aside sends is ${formatBytes(MAX_ATTACHED_IMAGE_BYTES)} (${OPENAI_IMAGE_LIMITS.label}'s bound)`;

/** `name`'s bytes as an image part, or why it is not attached; `limits`: the current provider's bound, when known. */
export function checkImage(name: string, bytes: Uint8Array, limits?: ImageLimits): CheckedImage {
	const quoted = JSON.stringify(name === '' ? 'The image' : name);
	if (bytes.length > MAX_ATTACHED_IMAGE_BYTES) {
		return { refused: `${quoted} is ${formatBytes(bytes.length)}: ${LARGEST}. It was not attached.` };
	}
	const sniffed = sniffImage(bytes);
	if (sniffed === undefined) {
		return { refused: `${quoted} is not a PNG, JPEG, GIF or WebP image (its bytes say so, whatever its name says). It was not attached.` };
	}
	const image: ImagePart = { ...sniffed, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
	const why = limits && imageRefusal(image, limits);
	return why === undefined ? { image } : { refused: `${quoted} (${describeImage(image)}) was not attached: ${why}.` };
}

/** A recorded image as the user row shows it: a data URL of its bytes, or the name of its file that is gone. */
export function userImageView(image: ToolImageRecord): UserImageView {
	const size = image.width === undefined || image.height === undefined ? {} : { width: image.width, height: image.height };
	const base = { mimeType: image.mimeType, bytes: image.bytes, ...size };
	return image.data === undefined ? { ...base, missing: image.file ?? '?' } : { ...base, src: `data:${image.mimeType};base64,${image.data}` };
}
