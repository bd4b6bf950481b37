// MCP servers in the chat (docs/mcp.md). The servers themselves are the window's (src/mcp/servers.ts,
// wired in src/vscode/mcp/): their tools are offered beside the built-in ones through the tool box.
// What the feature adds per chat is what the model is told of them: mcp.servers, mcp.instructions,
// mcp.server-state, mcp.tools-changed, mcp.resources-updated and, while the tools are deferred,
// mcp.catalog; and `@mcp:<server>/<uri>` mentions of their resources.
import type { AgentFeature } from '../../agent/chatFeature';
import type { McpServers } from '../../mcp/servers';
import type { ChatFeature } from '../feature';
import { ChatMcp } from './chatMcp';
import { MCP_REMINDERS } from './mcpReminders';
import { McpPromptsPart } from './promptsPart';
import { McpServerList } from './serverList';
import { McpViewPart } from './mcpViewPart';
import { McpRequestCards } from './requestCards';
import { MENTION_MCP_RESOURCE } from './mentionReminder';
import { MCP_RESOURCE_MENTION } from './resourceMention';

declare module '../../agent/chatFeature' {
	interface FeatureServices {
		/** The window's MCP servers; absent where the window has none (tests without them). */
		readonly mcp?: McpServers;
	}
}

/** Each chat's MCP reminders, over the window's servers (nothing where there are none). */
export const MCP_STATE: AgentFeature<ChatMcp | object> = {
	id: 'mcp',
	open: (chat) => (chat.services.mcp ? new ChatMcp(chat.session, chat.services.mcp, chat.clock) : {}),
};

export const MCP: ChatFeature = {
	id: 'mcp',
	reminders: [...MCP_REMINDERS, MENTION_MCP_RESOURCE],
	mentions: [MCP_RESOURCE_MENTION],
	agent: MCP_STATE,
	// The servers' prompts as slash commands `/mcp.<server>.<prompt>`, the server list, and the servers' request cards.
	view: (window) =>
		new McpViewPart(
			new McpPromptsPart(window.services.mcpPrompts, window.log),
			new McpServerList(window.services.mcp, window.services.mcpControl, window.log),
			new McpRequestCards(window.services.mcpRequests, () => window.sessions.current.id, window.sessions.onDidChangeCurrent),
		),
};
