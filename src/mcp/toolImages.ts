// An MCP tool result's images: image blocks, and embedded resources whose blob has an image MIME
// type, become image parts the model sees, in the format their bytes really are (sniffed; a server's
// `mimeType` is its word, the bytes are the fact). Bytes that are no PNG, JPEG, GIF or WebP, or an
// image past the most any provider takes, stay named in text. Audio is always named.
import type { ImagePart } from '../providers/messages';
import { decodedBytes, describeImage, READ_MAX_IMAGE_BYTES, sniffImage } from '../tools/images';
import { formatBytes } from '../tools/text';
import type { McpCallResult, McpContent } from './session';

/** An image block's (or image resource's) data, as the server sent it. */
function imageData(block: McpContent): { readonly data: string; readonly mimeType: string } | undefined {
	if (block.type === 'image') {
		return block;
	}
	if (block.type === 'resource' && block.blob !== undefined && block.text === undefined && block.mimeType?.startsWith('image/')) {
		return { data: block.blob, mimeType: block.mimeType };
	}
	return undefined;
}

type Found = { readonly image: ImagePart } | { readonly why: string } | undefined;

/** What each block was found to be: a result's text and its images both ask, and a block is sniffed once. */
const FOUND = new WeakMap<McpContent, Found>();

/** The block as an image part, or why it is not one (undefined: the block is no image). */
export function mcpImage(block: McpContent): Found {
	if (!FOUND.has(block)) {
		FOUND.set(block, findImage(block));
	}
	return FOUND.get(block);
}

function findImage(block: McpContent): Found {
	const found = imageData(block);
	if (found === undefined) {
		return undefined;
	}
	const size = decodedBytes(found.data);
	if (size > READ_MAX_IMAGE_BYTES) {
		return { why: `it is ${formatBytes(size)}, more than any provider takes for an image (${formatBytes(READ_MAX_IMAGE_BYTES)})` };
	}
	// The header is in the first bytes: decode only those to sniff.
	const sniffed = sniffImage(Buffer.from(found.data.slice(0, 64 * 1024), 'base64'));
	if (sniffed === undefined) {
		return { why: `its bytes are not a PNG, JPEG, GIF or WebP image` };
	}
	return { image: { ...sniffed, data: found.data } };
}

/** The text that stands for an image block in the result's text. */
export function mcpImageText(block: McpContent, found: NonNullable<ReturnType<typeof mcpImage>>): string {
	const where = block.type === 'resource' ? ` (resource ${block.uri})` : '';
	if ('image' in found) {
		return `[image${where}: ${describeImage(found.image)} — attached]`;
	}
	const declared = imageData(block);
	return `[image${where}: ${declared?.mimeType ?? 'unknown'}, ${formatBytes(decodedBytes(declared?.data ?? ''))} — not shown to the model: ${found.why}]`;
}

/** The result's images the model is shown, in order. */
export function mcpImages(result: McpCallResult): ImagePart[] {
	return result.content.flatMap((block) => {
		const found = mcpImage(block);
		return found !== undefined && 'image' in found ? [found.image] : [];
	});
}
