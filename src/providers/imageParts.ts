// Images in tool results on each provider's wire, and the bound each provider keeps. An image a
// provider cannot take (too large, too many pixels, a model without image input) is never dropped in
// silence: it goes as one text line that names it and says why the model does not see it, while the
// chat and the transcript keep the image itself.
import { decodedBytes, describeImage } from '../tools/images';
import type { ImagePart } from './messages';

export interface ImageLimits {
	/** Who keeps the bound, for the text line past it. */
	readonly label: string;
	/** The largest image the provider takes, in bytes of its base64 text (what Anthropic counts) or decoded (OpenAI). */
	readonly maxBytes: number;
	readonly counts: 'base64' | 'decoded';
	/** The longest side in pixels, when the provider says. */
	readonly maxSide?: number;
}

/** Anthropic: 5 MB per image, counted on the base64 text (`image exceeds 5 MB maximum: N bytes > 5242880 bytes`), sides up to 8000 px. */
export const ANTHROPIC_IMAGE_LIMITS: ImageLimits = { label: 'Anthropic', maxBytes: 5 * 1024 * 1024, counts: 'base64', maxSide: 8000 };
/** OpenAI: 20 MB per image; other OpenAI-compatible servers are held to the same bound. */
export const OPENAI_IMAGE_LIMITS: ImageLimits = { label: 'OpenAI-compatible', maxBytes: 20 * 1024 * 1024, counts: 'decoded' };
/** vscode.lm says no bound; the models behind it are Anthropic's and OpenAI's, so the smaller of the two. */
export const LM_IMAGE_LIMITS: ImageLimits = { label: 'VS Code language model', maxBytes: 5 * 1024 * 1024, counts: 'base64', maxSide: 8000 };

/** Why the provider cannot take this image, or undefined when it can. */
export function imageRefusal(image: ImagePart, limits: ImageLimits): string | undefined {
	const size = limits.counts === 'base64' ? image.data.length : decodedBytes(image.data);
	if (size > limits.maxBytes) {
		const what = limits.counts === 'base64' ? 'base64 ' : '';
		return `it is larger than the ${limits.label} limit of ${limits.maxBytes / (1024 * 1024)} MB of ${what}image data`;
	}
	const side = Math.max(image.width ?? 0, image.height ?? 0);
	if (limits.maxSide !== undefined && side > limits.maxSide) {
		return `it is wider or taller than the ${limits.label} limit of ${limits.maxSide} px`;
	}
	return undefined;
}

/** The text that stands in for an image the model does not see. */
export function imageLine(image: ImagePart, why: string): string {
	return `[image: ${describeImage(image)} — not shown to the model: ${why}. It is kept in the chat.]`;
}

/** Why the model does not see any image: said in the line that stands in for each. */
export const NO_IMAGE_INPUT = 'this model does not take images';

export type Sendable = { readonly image: ImagePart } | { readonly text: string };

/** Each image as it can go to this provider: itself, or the text line that names it. */
export function sendable(images: readonly ImagePart[] | undefined, limits: ImageLimits, takesImages = true): Sendable[] {
	return (images ?? []).map((image) => {
		const why = takesImages ? imageRefusal(image, limits) : NO_IMAGE_INPUT;
		return why === undefined ? { image } : { text: imageLine(image, why) };
	});
}

export type AnthropicImageBlock = { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };
export type AnthropicResultContent = ({ type: 'text'; text: string } | AnthropicImageBlock)[];

/**
 * A tool_result's content with images: a content array of a text block (the API refuses empty text
 * blocks, so an empty text is left out) and image blocks, as the Messages API documents them.
 */
export function anthropicResultContent(content: string, images: readonly ImagePart[]): AnthropicResultContent {
	const blocks: AnthropicResultContent = content === '' ? [] : [{ type: 'text', text: content }];
	for (const part of sendable(images, ANTHROPIC_IMAGE_LIMITS)) {
		blocks.push('image' in part ? { type: 'image', source: { type: 'base64', media_type: part.image.mimeType, data: part.image.data } } : { type: 'text', text: part.text });
	}
	return blocks;
}

export type OpenAIUserPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** Said in the tool message of a result whose images follow in a user message. */
export function openAIImagesFollow(count: number): string {
	return `[${count === 1 ? 'The image' : `The ${count} images`} this tool returned ${count === 1 ? 'follows' : 'follow'} in the next user message.]`;
}

/**
 * The user message that carries tool results' images on Chat Completions, right after the tool
 * messages: a `tool` message takes only text on OpenAI and most servers behind its API, while a
 * user message takes `image_url` parts with data URLs. Each result's images come after a text part
 * that names the call they belong to. Undefined when no result has images.
 */
export function openAIImageMessage(results: readonly { readonly callId: string; readonly images?: readonly ImagePart[] }[]): { role: 'user'; content: OpenAIUserPart[] } | undefined {
	const content: OpenAIUserPart[] = [];
	for (const result of results) {
		if (!result.images?.length) {
			continue;
		}
		content.push({ type: 'text', text: `The image${result.images.length === 1 ? '' : 's'} returned by tool call ${result.callId}:` });
		for (const part of sendable(result.images, OPENAI_IMAGE_LIMITS)) {
			content.push('image' in part ? { type: 'image_url', image_url: { url: `data:${part.image.mimeType};base64,${part.image.data}` } } : { type: 'text', text: part.text });
		}
	}
	return content.length === 0 ? undefined : { role: 'user', content };
}
