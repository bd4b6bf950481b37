// An MCP tool's result as the model reads it: its text bounded like Run's output (the beginning and
// the end kept, the whole kept in a file Read opens), structured content as compact JSON when the
// text does not already carry it, an embedded resource's text under its URI, images as image parts
// (toolImages.ts), links and other binary parts named, and `isError` as a tool error. Outside text
// is neutralised where every tool result is (at replay).
import { CappedOutput } from '../tools/nodeRunner';
import { RUN_MAX_OUTPUT_BYTES } from '../tools/run';
import { decodedBytes } from '../tools/images';
import { formatBytes } from '../tools/text';
import type { KeptOutput, KeptOutputs } from '../tools/keptOutputs';
import type { ToolResult } from '../tools/tool';
import type { McpCallResult, McpContent } from './session';
import { mcpImage, mcpImages, mcpImageText } from './toolImages';

export const MCP_MAX_OUTPUT_BYTES = RUN_MAX_OUTPUT_BYTES;

export { decodedBytes };

function blockText(block: McpContent): string {
	const image = mcpImage(block);
	if (image !== undefined) {
		return mcpImageText(block, image);
	}
	switch (block.type) {
		case 'text':
			return block.text;
		case 'image':
		case 'audio':
			return `[${block.type}: ${block.mimeType}, ${formatBytes(decodedBytes(block.data))} — not shown to the model]`;
		case 'resource':
			return block.text !== undefined
				? `Resource ${block.uri}${block.mimeType === undefined ? '' : ` (${block.mimeType})`}:\n${block.text}`
				: `[resource ${block.uri}${block.mimeType === undefined ? '' : `: ${block.mimeType}`}, ${formatBytes(decodedBytes(block.blob ?? ''))} of binary content — not shown]`;
		case 'resource_link':
			return `Resource link: ${block.name} (${block.uri})${block.description === undefined ? '' : ` — ${block.description}`}`;
	}
}

/** The result's text, whole, before the bound. */
export function resultText(result: McpCallResult): string {
	const parts = result.content.map(blockText);
	if (result.structuredContent !== undefined) {
		const json = JSON.stringify(result.structuredContent);
		// The spec asks servers to repeat structured content as text; said once.
		if (!result.content.some((block) => block.type === 'text' && block.text.trim() === json)) {
			parts.push(json);
		}
	}
	return parts.join('\n\n');
}

export function toolResultOf(result: McpCallResult, maxBytes = MCP_MAX_OUTPUT_BYTES, kept?: KeptOutput, text = resultText(result)): ToolResult {
	const capped = new CappedOutput(maxBytes);
	capped.push(Buffer.from(text, 'utf8'));
	const shown = capped.text().trim();
	const notes = capped.truncated ? [truncatedNote(maxBytes, kept)] : [];
	const content = [shown === '' ? '(the tool returned no content)' : shown, ...notes].join('\n\n');
	// Images ride beside the text, each named in it where it was (toolImages.ts).
	const images = mcpImages(result);
	const withImages = images.length > 0 ? { images } : {};
	return result.isError ? { isError: true, content: `The tool reported an error:\n${content}`, ...withImages } : { content, ...withImages };
}

function truncatedNote(maxBytes: number, kept: KeptOutput | undefined): string {
	const said = `The result was longer than ${formatBytes(maxBytes)}; the middle was left out.`;
	if (kept === undefined) {
		return said;
	}
	const whole = `The whole result (${formatBytes(kept.bytes)}) is kept in ${kept.path}: read it with Read (offset and limit choose the lines).`;
	return `${said} ${whole}${kept.cut ? ` Only its first ${formatBytes(kept.keptBytes)} were kept.` : ''}`;
}

/**
 * The result as the model reads it, its whole text kept in the context's outputs folder when it is
 * longer than the bound (where there is one), so the model can read the rest. A result that could
 * not be kept is still given, bounded.
 */
export async function keptToolResult(
	result: McpCallResult,
	outputs: KeptOutputs | undefined,
	stem: string,
	maxBytes = MCP_MAX_OUTPUT_BYTES,
): Promise<ToolResult> {
	const text = resultText(result);
	if (outputs === undefined || Buffer.byteLength(text, 'utf8') <= maxBytes) {
		return toolResultOf(result, maxBytes, undefined, text);
	}
	const kept = await outputs.keep(stem, text).catch(() => undefined);
	return toolResultOf(result, maxBytes, kept, text);
}
