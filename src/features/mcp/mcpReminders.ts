// The MCP feature's reminder types (docs/mcp.md): what the chat's servers are, what they said at
// their initialisation, and what changed since (a server that dropped and came back, tools that
// came, went or changed). Registered with the key registry and the settings by the feature list.
import { declareReminder } from '../../reminders/declaration';
import { onChange } from '../../reminders/policy';

export const MCP_SERVERS = declareReminder({
	type: 'mcpServers',
	key: 'mcp.servers',
	label: 'MCP servers',
	purpose: 'The chat\'s MCP servers and the state of each (connected with its tool count, failed and why, not approved, disabled); again when that changes, and after a compaction dropped it.',
	introducedIn: '0.6.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model which MCP servers the chat has and the state of each (connected, failed and why, not approved, disabled), again when that changes.',
});

export const MCP_INSTRUCTIONS = declareReminder({
	type: 'mcpInstructions',
	key: 'mcp.instructions',
	label: 'MCP instructions',
	purpose: 'The `instructions` each connected MCP server gave at its initialisation, bounded per server; again when one changes, and after a compaction dropped them. The system prompt stays byte-stable.',
	introducedIn: '0.6.0',
	configurable: true,
	policy: onChange,
	description: 'Gives the model the instructions each MCP server sends when it connects (bounded), again when they change.',
});

export const MCP_TOOLS_CHANGED = declareReminder({
	type: 'mcpToolsChanged',
	key: 'mcp.tools-changed',
	label: 'MCP tools changed',
	purpose: 'A server\'s `tools/list_changed`: which of its tools were added, removed or changed since the model was last told, one entry per server whatever the number of notifications; never for the listing right after the server first connected.',
	introducedIn: '0.6.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model when an MCP server adds, removes or changes its tools (never for the first listing after it connects).',
});

export const MCP_SERVER_STATE = declareReminder({
	type: 'mcpServerState',
	key: 'mcp.server-state',
	label: 'MCP server state',
	purpose: 'A server that dropped (and why), came back (its tools listed again; changes while it was disconnected were not delivered) or was given up on, with the times, since the model was last told.',
	introducedIn: '0.6.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model when an MCP server disconnects, reconnects or is given up on, and that changes while it was disconnected were not delivered.',
});

export const MCP_RESOURCES_UPDATED = declareReminder({
	type: 'mcpResourcesUpdated',
	key: 'mcp.resources-updated',
	label: 'MCP resources updated',
	purpose: 'A resource the model read in this chat (McpReadResource) that its server says changed: one entry per resource per delivery whatever the number of updates, with their count and the time of the last; content-free.',
	introducedIn: '0.6.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model when a resource it read from an MCP server changes (one line per resource, with how many times; not its content).',
});

export const MCP_CATALOG = declareReminder({
	type: 'mcpCatalog',
	key: 'mcp.catalog',
	label: 'MCP catalog',
	purpose: 'While the MCP tools are deferred (their schemas would pass `aside.mcp.deferAt`, or `vscode-lm` would get more than 128 tools): each server\'s tools in one line each, to describe with McpDescribe and call with McpCall; again when a server comes, goes or changes its list, and after a compaction dropped it.',
	introducedIn: '0.6.0',
	configurable: true,
	policy: onChange,
	description: 'While the MCP tools are deferred behind McpDescribe and McpCall, lists each server\'s tools in one line each, again when they change.',
});

export const MCP_REMINDERS = [MCP_SERVERS, MCP_INSTRUCTIONS, MCP_TOOLS_CHANGED, MCP_SERVER_STATE, MCP_RESOURCES_UPDATED, MCP_CATALOG] as const;
