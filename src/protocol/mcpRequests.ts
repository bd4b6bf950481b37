// The cards of an MCP server's requests in the chat (docs/mcp.md, "When a server asks"): sampling
// (a model's answer the server wants), an elicitation form, a URL to open. The host sends the
// chat's waiting requests whole (`mcp.requests`); the card answers with `mcp.answer`.
import * as z from 'zod';
import { ElicitationField, FormEntries } from './elicitationForm';
import { seq } from './sequence';

const id = z.string().min(1).max(200);
const server = z.string().min(1).max(200);
const text = z.string().max(100_000);

export const McpRequestView = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('sampling'),
		id,
		server,
		systemPrompt: text.optional(),
		/** Each message's text, images and other blocks named ("[image, image/png, 1.2 KB]"). */
		messages: z.array(z.object({ role: z.enum(['user', 'assistant']), text })).max(200),
		maxTokens: z.number().int().nonnegative(),
		/** The model that would answer, in words ("anthropic claude-…"), when known. */
		model: z.string().max(400).optional(),
	}),
	z.object({ kind: z.literal('form'), id, server, message: text, fields: z.array(ElicitationField).max(100).readonly() }),
	/** `origin` is the URL's scheme, host and port: what the person must see before opening it. */
	z.object({ kind: z.literal('url'), id, server, message: text, url: z.string().max(8000), origin: z.string().max(2000) }),
]);
export type McpRequestView = z.infer<typeof McpRequestView>;

/** Accept (Allow, Submit, Open), decline (Deny, Decline) or cancel, as the spec's actions. */
export const McpRequestAction = z.enum(['accept', 'decline', 'cancel']);
export type McpRequestAction = z.infer<typeof McpRequestAction>;

export const MCP_REQUEST_HOST_MESSAGES = [
	/** The current chat's waiting server requests, in the order they came: after `ready` and on every change. */
	z.object({ type: z.literal('mcp.requests'), seq, requests: z.array(McpRequestView).max(50) }),
] as const;

export const MCP_REQUEST_VIEW_MESSAGES = [
	/** The person's answer to a request card; a form's entries with `accept`. */
	z.object({ type: z.literal('mcp.answer'), id, action: McpRequestAction, entries: FormEntries.optional() }),
] as const;
