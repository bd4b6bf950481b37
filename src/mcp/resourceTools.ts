// The servers' resources as two tools, offered while a connected server has resources:
// McpListResources (what a server offers) and McpReadResource (one resource's contents, bounded like
// a tool's result). Reading changes nothing — the spec makes resources side-effect free — so both
// are read tools. A read is told to the caller's chat (MCP_ACCESS), which then asks the server for
// that resource's updates and tells the model when it changes (mcp.resources-updated).
import * as z from 'zod';
import { featureAccessKey } from '../tools/featureAccess';
import { ToolError } from '../tools/errors';
import { type Tool, touchesNothing } from '../tools/tool';
import type { McpContent, McpResourceInfo } from './session';
import { keptToolResult } from './toolResult';

/** What the MCP feature hands the tools of a chat's loops. */
export interface McpChatAccess {
	/** The chat's id: a server's request during a tool call of this chat is shown there. */
	readonly chat: string;
	/** The model read `uri` of `server` in this chat. */
	didRead(server: string, uri: string): void;
}

export const MCP_ACCESS = featureAccessKey<McpChatAccess>('mcp');

/** What the resource tools reach of the window's servers. */
export interface ResourceReader {
	/** The connected servers that offer resources. */
	withResources(): readonly string[];
	listResources(server: string, signal: AbortSignal): Promise<McpResourceInfo[]>;
	readResource(server: string, uri: string, signal: AbortSignal): Promise<McpContent[]>;
}

/** McpReadResource: a chat reopened follows again what its calls of it read. */
export const READ_TOOL = 'McpReadResource';

/** The most resources one listing shows. */
export const MAX_LISTED = 200;

const ListInput = z.object({
	server: z.string().min(1).optional().describe('The MCP server whose resources to list; every server that has resources when left out.'),
});
const ReadInput = z.object({
	server: z.string().min(1).describe('The MCP server the resource belongs to, as McpListResources or mcp.servers names it.'),
	uri: z.string().min(1).describe('The resource\'s URI, exactly as the server gave it.'),
});

function knownServer(reader: ResourceReader, server: string): void {
	const servers = reader.withResources();
	if (!servers.includes(server)) {
		throw new ToolError(`No connected MCP server named "${server}" offers resources${servers.length > 0 ? ` (those that do: ${servers.join(', ')})` : ''}.`);
	}
}

export function resourceTools(reader: ResourceReader): Tool[] {
	const list: Tool<z.infer<typeof ListInput>> = {
		name: 'McpListResources',
		description: 'Lists the resources the connected MCP servers offer (their URI, name, type and description), to read with McpReadResource.',
		kind: 'read',
		input: ListInput,
		touches: touchesNothing,
		async run({ server }, context) {
			const servers = server === undefined ? reader.withResources() : [server];
			if (server !== undefined) {
				knownServer(reader, server);
			}
			const sections: string[] = [];
			for (const name of servers) {
				const resources = await reader.listResources(name, context.signal);
				const shown = resources.slice(0, MAX_LISTED).map((resource) => {
					const type = resource.mimeType === undefined ? '' : ` (${resource.mimeType})`;
					return `- ${resource.uri} — ${resource.name}${type}${resource.description === undefined ? '' : `: ${resource.description}`}`;
				});
				const more = resources.length > MAX_LISTED ? [`… and ${resources.length - MAX_LISTED} more`] : [];
				sections.push([`${name}: ${resources.length === 1 ? '1 resource' : `${resources.length} resources`}`, ...shown, ...more].join('\n'));
			}
			return { content: sections.length > 0 ? sections.join('\n\n') : 'No connected MCP server offers resources.' };
		},
	};
	const read: Tool<z.infer<typeof ReadInput>> = {
		name: READ_TOOL,
		description:
			'Reads one resource of a connected MCP server by its URI. You are told (mcp.resources-updated) when a resource you read changes, if its server says so.',
		kind: 'read',
		input: ReadInput,
		touches: touchesNothing,
		async run({ server, uri }, context) {
			knownServer(reader, server);
			const contents = await reader.readResource(server, uri, context.signal);
			context.features?.get(MCP_ACCESS)?.didRead(server, uri);
			return keptToolResult({ content: contents, isError: false }, context.outputs, `${READ_TOOL}-${server}`);
		},
	};
	return [list, read];
}
