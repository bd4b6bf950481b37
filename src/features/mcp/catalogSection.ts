// `mcp.catalog`: while the MCP tools are deferred (src/mcp/deferral.ts), each connected server's
// tools in one line each, as a changing prompt observation like mcp.servers — at any request once
// they are deferred, again when a server comes, goes or changes its list, and after a compaction
// dropped it. The tool array meanwhile stays McpDescribe, McpCall and McpReadResource.
import { observation } from '../../reminders/builtin/observations';
import { rosterDefinition } from '../../reminders/declaration';
import type { ReminderDefinition } from '../../reminders/definition';
import { sanitizeUntrusted } from '../../reminders/envelope';
import { summaryOf } from '../../mcp/catalogTools';
import type { McpServers } from '../../mcp/servers';
import { MCP_CATALOG } from './mcpReminders';

/** The most tools the catalog lists of one server; McpDescribe lists them all. */
export const MAX_CATALOG_TOOLS = 100;

/** The catalog as the model is told of it, or undefined while the tools are offered one by one. */
export function catalogBody(servers: McpServers): string | undefined {
	const reason = servers.deferred;
	if (reason === undefined || !servers.isStarted) {
		return undefined;
	}
	const tools = servers.mcpTools();
	const byServer = new Map<string, typeof tools[number][]>();
	for (const tool of tools) {
		byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
	}
	const sections = [...byServer].map(([server, listed]) => {
		const shown = listed.slice(0, MAX_CATALOG_TOOLS).map((tool) => `- ${sanitizeUntrusted(tool.tool.name)}${tool.kind === 'read' ? ' (reads)' : ''}: ${summaryOf(tool)}`);
		const more = listed.length > MAX_CATALOG_TOOLS ? [`… and ${listed.length - MAX_CATALOG_TOOLS} more (McpDescribe {"server": ${JSON.stringify(server)}} lists them all)`] : [];
		return [`## ${sanitizeUntrusted(server)} (${listed.length === 1 ? '1 tool' : `${listed.length} tools`})`, ...shown, ...more].join('\n');
	});
	return [
		`The MCP servers' tools are not offered one by one (${reason}). McpDescribe {"server", "tool"} gives a tool's description and input schema; McpCall {"server", "tool", "arguments"} calls it, asking the person exactly as the tool itself would.`,
		...(sections.length > 0 ? sections : ['No connected server offers tools now.']),
	].join('\n\n');
}

export function catalogDefinition(servers: McpServers): ReminderDefinition {
	return observation(
		rosterDefinition(MCP_CATALOG, {
			scope: 'session',
			trigger: () => catalogBody(servers) !== undefined,
			content: () => ({ body: catalogBody(servers) ?? null }),
		}),
		'any-request',
	);
}
