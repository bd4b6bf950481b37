// An MCP prompt's messages as the person's one message (docs/mcp.md#prompts): each message's text
// in order, blank lines between. An embedded resource's text comes under its URI (32,000
// characters at most each, the rest said to be left out; a binary one of a text type decoded); an
// image, audio or other binary is named with its type and size, never dropped silently; a resource
// link is named with its URI. What the prompt gives the assistant to say is quoted, introduced as
// the prompt's words: one message cannot carry two roles, and it is the person who sends it.
import type { McpContent, McpPromptResult } from '../../mcp/session';
import { decodedBytes } from '../../mcp/toolResult';
import { formatBytes } from '../../tools/text';

/** How much of one embedded resource's text the message carries. */
export const PROMPT_RESOURCE_CHARS = 32_000;

/** A binary resource of these types is text all the same. */
const TEXT_TYPES = /^(?:text\/|application\/(?:json|xml|javascript|x-yaml|yaml|toml)\b)|\+(?:json|xml)\b/u;

function decoded(blob: string): string | undefined {
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(blob, 'base64'));
	} catch {
		return undefined;
	}
}

function bounded(text: string): string {
	if (text.length <= PROMPT_RESOURCE_CHARS) {
		return text;
	}
	const left = (text.length - PROMPT_RESOURCE_CHARS).toLocaleString('en-US');
	return `${text.slice(0, PROMPT_RESOURCE_CHARS)}\n[… ${left} more characters of this resource were left out.]`;
}

function resourceText(resource: Extract<McpContent, { type: 'resource' }>): string {
	const type = resource.mimeType === undefined ? '' : ` (${resource.mimeType})`;
	const { blob } = resource;
	const text = resource.text ?? (blob !== undefined && TEXT_TYPES.test(resource.mimeType ?? '') ? decoded(blob) : undefined);
	if (text === undefined) {
		return `[The resource ${resource.uri}${type}: ${formatBytes(decodedBytes(blob ?? ''))} of binary content, not included.]`;
	}
	return `Resource ${resource.uri}${type}:\n${bounded(text)}`;
}

function contentText(content: McpContent): string {
	switch (content.type) {
		case 'text':
			return content.text;
		case 'image':
		case 'audio':
			return `[${content.type === 'image' ? 'An image' : 'Audio'} from the prompt (${content.mimeType}, ${formatBytes(decodedBytes(content.data))}): not included, Aside sends a prompt's text only.]`;
		case 'resource':
			return resourceText(content);
		case 'resource_link':
			return `[A link to the resource ${content.name} (${content.uri})${content.description === undefined ? '' : `: ${content.description}`}]`;
	}
}

function quoted(text: string): string {
	return `The prompt gives the assistant these words:\n${text.split('\n').map((line) => (line === '' ? '>' : `> ${line}`)).join('\n')}`;
}

/** The text the person sends for the prompt's result; empty when it has none. */
export function promptMessage(result: McpPromptResult): string {
	return result.messages
		.map(({ role, content }) => {
			const text = contentText(content);
			return role === 'assistant' && text.trim() !== '' ? quoted(text) : text;
		})
		.filter((part) => part.trim() !== '')
		.join('\n\n');
}
