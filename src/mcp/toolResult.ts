// An MCP tool's result as the model reads it: its text bounded like Run's output (the beginning and
// the end kept), structured content as compact JSON when the text does not already carry it, an
// embedded resource's text under its URI, links and binary parts named, and `isError` as a tool
// error. Outside text is neutralised where every tool result is (at replay).
import { CappedOutput } from '../tools/nodeRunner';
import { RUN_MAX_OUTPUT_BYTES } from '../tools/run';
import { formatBytes } from '../tools/text';
import type { ToolResult } from '../tools/tool';
import type { McpCallResult, McpContent } from './session';

export const MCP_MAX_OUTPUT_BYTES = RUN_MAX_OUTPUT_BYTES;

/** The size of base64 data once decoded. */
export function decodedBytes(base64: string): number {
	const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
	return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

function blockText(block: McpContent): string {
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

export function toolResultOf(result: McpCallResult, maxBytes = MCP_MAX_OUTPUT_BYTES): ToolResult {
	const capped = new CappedOutput(maxBytes);
	capped.push(Buffer.from(resultText(result), 'utf8'));
	const text = capped.text().trim();
	const notes = capped.truncated ? [`The result was longer than ${formatBytes(maxBytes)}; the middle was left out.`] : [];
	const content = [text === '' ? '(the tool returned no content)' : text, ...notes].join('\n\n');
	return result.isError ? { isError: true, content: `The tool reported an error:\n${content}` } : { content };
}
