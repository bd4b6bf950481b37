// Tool results' images on vscode.lm: `LanguageModelDataPart.image(bytes, mime)` inside the
// LanguageModelToolResultPart, after the text (VS Code 1.138, the API this extension targets, has
// it). Where the model says it takes no images, or the API has no data parts, each image goes as the
// text line that names it (imageParts.ts), never dropped.
import type { ImagePart } from './messages';
import { imageLine, LM_IMAGE_LIMITS, sendable } from './imageParts';

export interface LmDataPartApi {
	image(data: Uint8Array, mime: string): object;
}

/** Whether a vscode.lm model takes images: false only when it says so. */
export type LmImageInput = boolean | undefined;

/**
 * What the model says of image input. `capabilities.supportsImageToText` is on the chat models VS
 * Code hands out at run time (the proposed languageModelCapabilities API; the stable typings do not
 * declare it): reading it can throw, and then the model is taken to take images (a refusal then
 * comes from the model, as an error the person sees).
 */
export function lmImageInput(model: object): LmImageInput {
	try {
		const capabilities = (model as { readonly capabilities?: { readonly supportsImageToText?: unknown } }).capabilities;
		const says = capabilities?.supportsImageToText;
		return typeof says === 'boolean' ? says : undefined;
	} catch {
		return undefined;
	}
}

export const NO_DATA_PARTS = 'this version of VS Code has no image parts for language models';

/** The parts of a tool result (its text, then its images or the lines naming them), and their text for counting. */
export function lmResultParts<T>(
	text: (value: string) => T,
	dataPart: LmDataPartApi | undefined,
	content: string,
	images: readonly ImagePart[] | undefined,
	takesImages: LmImageInput,
): { readonly parts: (T | object)[]; readonly text: string } {
	const parts: (T | object)[] = [text(content)];
	const said: string[] = [content];
	for (const part of sendable(images, LM_IMAGE_LIMITS, takesImages !== false)) {
		if ('text' in part) {
			parts.push(text(part.text));
			said.push(part.text);
		} else if (dataPart === undefined) {
			const line = imageLine(part.image, NO_DATA_PARTS);
			parts.push(text(line));
			said.push(line);
		} else {
			parts.push(dataPart.image(Buffer.from(part.image.data, 'base64'), part.image.mimeType));
			said.push(`[image: ${part.image.mimeType}]`);
		}
	}
	return { parts, text: said.join('\n') };
}

/** Images as the text lines that name them, for a request that sends tool results as text. */
export function lmImageLines(images: readonly ImagePart[] | undefined, why = 'this request sends tool results as text'): string[] {
	return (images ?? []).map((image) => imageLine(image, why));
}

/** What tells two results' images apart in the count cache, without hashing megabytes. */
export function imagesKey(images: readonly ImagePart[] | undefined): string[] {
	return (images ?? []).map((image) => `${image.mimeType}:${image.data.length}:${image.data.slice(0, 64)}:${image.data.slice(-64)}`);
}
