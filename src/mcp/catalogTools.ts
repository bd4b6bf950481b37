// The stable tools the model gets while the MCP tools are deferred (deferral.ts): McpDescribe (a
// server's tools and resources, or one tool's description and schema) and McpCall (an MCP tool by
// server and name). McpCall is a stand-in: each call is hooked, decided, asked and run as the
// `mcp__server__tool` it names (src/agent/toolCalls.ts), so rules, hooks and the approval card
// treat it exactly as when the tool is offered itself. Their descriptions never change, so the
// tool array stays byte-identical whatever the servers do.
import * as z from 'zod';
import { sanitizeUntrusted } from '../reminders/envelope';
import { ToolError } from '../tools/errors';
import { type StandIn, type Tool, touchesNothing } from '../tools/tool';
import type { McpTool } from './mcpTools';
import { MAX_LISTED } from './resourceTools';
import type { McpResourceInfo } from './session';

export const DESCRIBE_TOOL = 'McpDescribe';
export const CALL_TOOL = 'McpCall';

/** The most of a schema McpDescribe shows. */
export const MAX_SCHEMA_CHARS = 16_000;

/** The most of a description a catalog line shows. */
export const MAX_SUMMARY = 160;

/** What the catalog tools reach of the window's servers. */
export interface CatalogReader {
	/** Every connected server's tools as they would be offered (named, disabled ones left out). */
	mcpTools(): readonly McpTool[];
	/** The connected servers, by name. */
	connected(): readonly string[];
	withResources(): readonly string[];
	listResources(server: string, signal: AbortSignal): Promise<McpResourceInfo[]>;
}

/** A tool's description in one line, bounded: what the catalog and a server's description list. */
export function summaryOf(tool: McpTool): string {
	const text = (tool.tool.description.trim() === '' ? (tool.tool.title ?? '') : tool.tool.description).replace(/\s+/g, ' ').trim();
	if (text === '') {
		return '(no description)';
	}
	const first = /^(.*?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
	return sanitizeUntrusted(first.length > MAX_SUMMARY ? `${first.slice(0, MAX_SUMMARY)}…` : first);
}

function askWords(tool: McpTool): string {
	return tool.kind === 'read' ? 'reads (you trust this server\'s annotations): runs without asking' : 'asks the person before it runs unless a rule allows it';
}

const DescribeInput = z.object({
	server: z.string().min(1).describe('The MCP server, as mcp.catalog names it.'),
	tool: z.string().min(1).optional().describe('One of its tools: its description and input schema. Left out: the server\'s tools and resources.'),
});

const CallInput = z.object({
	server: z.string().min(1).describe('The MCP server, as mcp.catalog names it.'),
	tool: z.string().min(1).describe('The tool\'s name on that server, as mcp.catalog lists it.'),
	arguments: z.record(z.string(), z.unknown()).optional().describe('The tool\'s arguments, matching the input schema McpDescribe gives.'),
});

function serverTools(reader: CatalogReader, server: string): McpTool[] {
	const connected = reader.connected();
	if (!connected.includes(server)) {
		throw new ToolError(`No connected MCP server is named "${server}"${connected.length > 0 ? ` (connected: ${connected.join(', ')})` : ' (none is connected)'}.`);
	}
	return reader.mcpTools().filter((tool) => tool.server === server);
}

function findTool(reader: CatalogReader, server: string, name: string): McpTool {
	const tools = serverTools(reader, server);
	const found = tools.find((tool) => tool.tool.name === name || tool.name === name);
	if (!found) {
		const names = tools.map((tool) => tool.tool.name);
		throw new ToolError(`The MCP server "${server}" has no tool named "${name}"${names.length > 0 ? ` (its tools: ${names.join(', ')})` : ' (it offers none now)'}.`);
	}
	return found;
}

function toolText(tool: McpTool): string {
	const schema = JSON.stringify(tool.inputSchema ?? {}, null, 2);
	const bounded = schema.length > MAX_SCHEMA_CHARS ? `${schema.slice(0, MAX_SCHEMA_CHARS)}\n[… cut at ${MAX_SCHEMA_CHARS} characters]` : schema;
	return [
		`${tool.name}: the tool "${sanitizeUntrusted(tool.tool.name)}" of the MCP server "${sanitizeUntrusted(tool.server)}". Call it with McpCall {"server": ${JSON.stringify(tool.server)}, "tool": ${JSON.stringify(tool.tool.name)}, "arguments": {…}}; it ${askWords(tool)}.`,
		'',
		tool.description,
		'',
		'Input schema:',
		sanitizeUntrusted(bounded),
	].join('\n');
}

async function serverText(reader: CatalogReader, server: string, signal: AbortSignal): Promise<string> {
	const tools = serverTools(reader, server);
	const lines = [`${sanitizeUntrusted(server)}: ${tools.length === 1 ? '1 tool' : `${tools.length} tools`} (McpDescribe with "tool" gives one's schema; McpCall calls it)`];
	lines.push(...tools.map((tool) => `- ${sanitizeUntrusted(tool.tool.name)}: ${summaryOf(tool)}`));
	if (reader.withResources().includes(server)) {
		const resources = await reader.listResources(server, signal);
		lines.push('', `Resources: ${resources.length} (read one with McpReadResource)`);
		lines.push(...resources.slice(0, MAX_LISTED).map((resource) => sanitizeUntrusted(`- ${resource.uri} — ${resource.name}${resource.mimeType === undefined ? '' : ` (${resource.mimeType})`}`)));
		if (resources.length > MAX_LISTED) {
			lines.push(`… and ${resources.length - MAX_LISTED} more`);
		}
	}
	return lines.join('\n');
}

function describeTool(reader: CatalogReader): Tool<z.infer<typeof DescribeInput>> {
	return {
		name: DESCRIBE_TOOL,
		description:
			'Describes the MCP servers\' tools, which are listed one line each in mcp.catalog rather than offered one by one: with "tool", that tool\'s full description and input schema; without it, the server\'s tools and resources.',
		kind: 'read',
		input: DescribeInput,
		touches: touchesNothing,
		async run({ server, tool }, context) {
			return { content: tool === undefined ? await serverText(reader, server, context.signal) : toolText(findTool(reader, server, tool)) };
		},
	};
}

function resolveWith(reader: CatalogReader, input: unknown, keep: (tool: Tool) => boolean, why: string): ReturnType<StandIn['resolve']> {
	const parsed = CallInput.safeParse(input);
	if (!parsed.success) {
		return `Invalid input for ${CALL_TOOL}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ')}`;
	}
	try {
		const tool = findTool(reader, parsed.data.server, parsed.data.tool);
		return keep(tool) ? { tool, input: parsed.data.arguments ?? {} } : `Not run: ${tool.name} ${why}.`;
	} catch (error) {
		return error instanceof ToolError ? error.message : String(error);
	}
}

function callTool(reader: CatalogReader, keep: (tool: Tool) => boolean, why: string): Tool<z.infer<typeof CallInput>> {
	const standsFor: StandIn = {
		resolve: (input) => resolveWith(reader, input, keep, why),
		narrow: (also) => {
			const both = (tool: Tool) => keep(tool) && also(tool);
			return reader.mcpTools().some(both) ? callTool(reader, both, 'is not available here (plan mode and a sub-agent\'s profile offer only some tools)') : undefined;
		},
	};
	return {
		name: CALL_TOOL,
		description:
			'Calls a tool of an MCP server by server and name, with its arguments (McpDescribe gives its input schema; mcp.catalog lists the tools). The call asks the person exactly as the tool itself would, and its result is the tool\'s.',
		kind: 'run',
		input: CallInput,
		touches: touchesNothing,
		standsFor,
		run() {
			// Never reached: the tool calls resolve a stand-in to the tool it names before anything runs.
			return Promise.reject(new ToolError(`${CALL_TOOL} runs as the MCP tool it names; it was not resolved.`));
		},
	};
}

/** McpDescribe and McpCall over `reader` (the same objects for the window's life: their specs never change). */
export function catalogTools(reader: CatalogReader): { readonly describe: Tool; readonly call: Tool } {
	return { describe: describeTool(reader), call: callTool(reader, () => true, 'is not available here') };
}
