// The images a person attached to a message, on each provider's wire, in the order its docs show:
// Anthropic's image blocks before the text (`{"type":"image","source":{"type":"base64",…}}`), OpenAI's
// `image_url` parts with data URLs after it, vscode.lm's `LanguageModelDataPart.image` before it. An
// image a provider cannot take (past its bound, a model without image input) goes as the text line
// that names it (imageParts.ts): never dropped in silence.
import { ANTHROPIC_IMAGE_LIMITS, type AnthropicImageBlock, imageLine, LM_IMAGE_LIMITS, OPENAI_IMAGE_LIMITS, type OpenAIUserPart, sendable } from './imageParts';
import type { LmDataPartApi, LmImageInput } from './lmImages';
import { NO_DATA_PARTS } from './lmImages';
import type { TextPart } from './messages';

export type AnthropicUserBlock = { type: 'text'; text: string } | AnthropicImageBlock;

/** A user text part as Anthropic blocks: its images (or their lines), then its text; empty text is left out (the API refuses it). */
export function anthropicUserBlocks(part: TextPart, takesImages = true): AnthropicUserBlock[] {
	const blocks: AnthropicUserBlock[] = sendable(part.images, ANTHROPIC_IMAGE_LIMITS, takesImages).map((each) =>
		'image' in each ? { type: 'image', source: { type: 'base64', media_type: each.image.mimeType, data: each.image.data } } : { type: 'text', text: each.text },
	);
	return part.text === '' ? blocks : [...blocks, { type: 'text', text: part.text }];
}

/**
 * A user message's text parts as Chat Completions content: a plain string while none has images (as
 * before), else content parts — each text, then its images as `image_url` data URLs.
 */
export function openAIUserContent(parts: readonly TextPart[], takesImages = true): string | OpenAIUserPart[] | undefined {
	if (!parts.some((part) => part.images?.length)) {
		const text = parts.flatMap((part) => (part.text === '' ? [] : [part.text]));
		return text.length > 0 ? text.join('\n\n') : undefined;
	}
	const content: OpenAIUserPart[] = [];
	for (const part of parts) {
		if (part.text !== '') {
			content.push({ type: 'text', text: part.text });
		}
		for (const each of sendable(part.images, OPENAI_IMAGE_LIMITS, takesImages)) {
			content.push('image' in each ? { type: 'image_url', image_url: { url: `data:${each.image.mimeType};base64,${each.image.data}` } } : { type: 'text', text: each.text });
		}
	}
	return content;
}

/** A user text part's images as vscode.lm parts (data parts, or text lines), before its text, with what they say for counting. */
export function lmUserImageParts<T>(
	text: (value: string) => T,
	dataPart: LmDataPartApi | undefined,
	part: TextPart,
	takesImages: LmImageInput,
): { part: T | object; text: string }[] {
	return sendable(part.images, LM_IMAGE_LIMITS, takesImages !== false).map((each) => {
		if ('text' in each) {
			return { part: text(each.text), text: each.text };
		}
		if (dataPart === undefined) {
			const line = imageLine(each.image, NO_DATA_PARTS);
			return { part: text(line), text: line };
		}
		return { part: dataPart.image(Buffer.from(each.image.data, 'base64'), each.image.mimeType), text: `[image: ${each.image.mimeType}]` };
	});
}
