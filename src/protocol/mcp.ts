// The MCP feature's part of the view protocol (src/features/mcp/, webview/mcpServers.ts): the
// server list's view and its messages, both ways `mcp.*`. The unions in messages.ts take them as
// one line each.
import * as z from 'zod';
import { seq } from './sequence';
import { MCP_REQUEST_HOST_MESSAGES, MCP_REQUEST_VIEW_MESSAGES } from './mcpRequests';

export const MAX_SERVER_NAME_CHARS = 200;
export const MAX_SERVER_MESSAGE_CHARS = 2000;
export const MAX_STDERR_TAIL_CHARS = 2000;

export const McpServerState = z.enum(['connected', 'starting', 'reconnecting', 'failed', 'needs-sign-in', 'stopped', 'declined', 'disabled']);
export type McpServerState = z.infer<typeof McpServerState>;

/** One configured server as the list shows it. */
export const McpServerView = z.object({
	name: z.string().min(1).max(MAX_SERVER_NAME_CHARS),
	state: McpServerState,
	/** The state in words (describeEntry): "failed: …", "reconnecting (attempt 2 of 5) after …". */
	words: z.string().max(MAX_SERVER_MESSAGE_CHARS),
	/** Where it is configured, in words: "user settings", ".mcp.json". */
	origin: z.string().max(200),
	/** Whether its entry is the user settings' (Disable/Enable can rewrite it). */
	user: z.boolean(),
	toolCount: z.number().int().nonnegative(),
	/** The estimated tokens its tools' specs cost a request (specTokens), while it is connected. */
	specTokens: z.number().int().nonnegative(),
	/** Tokens are kept for it (an OAuth server the person signed in to): it has a Sign out. */
	signedIn: z.boolean().optional(),
	/** A failed (or reconnecting) server's last stderr lines, bounded. */
	stderr: z.string().max(MAX_STDERR_TAIL_CHARS).optional(),
});
export type McpServerView = z.infer<typeof McpServerView>;

export const McpServersView = z.object({
	/** False in Restricted Mode: no server runs here. */
	trusted: z.boolean(),
	servers: z.array(McpServerView).max(500),
	/** Why the tools are deferred behind McpDescribe and McpCall (their specs then cost no request), when they are. */
	deferred: z.string().max(MAX_SERVER_MESSAGE_CHARS).optional(),
	/** Servers that could not be read from their configuration, in words. */
	problems: z.array(z.string().max(MAX_SERVER_MESSAGE_CHARS)).max(100),
});
export type McpServersView = z.infer<typeof McpServersView>;

const name = z.string().min(1).max(MAX_SERVER_NAME_CHARS);

export const MCP_HOST_MESSAGES = [
	/** The window's MCP servers: after `ready` and whenever a server or the configuration changes. */
	z.object({ type: z.literal('mcp.servers'), seq, view: McpServersView }),
	...MCP_REQUEST_HOST_MESSAGES,
] as const;

export const MCP_VIEW_MESSAGES = [
	/** The server list's Restart: connect the server again. */
	z.object({ type: z.literal('mcp.restart'), server: name }),
	/** The server list's Show output: open the server's output channel. */
	z.object({ type: z.literal('mcp.showOutput'), server: name }),
	/** The server list's Disable / Enable: writes `disabled` into its entry in the user settings' aside.mcp.servers. */
	z.object({ type: z.literal('mcp.setDisabled'), server: name, disabled: z.boolean() }),
	/** The server list's Sign in (a server that needs sign-in): opens the browser at the server's authorization. */
	z.object({ type: z.literal('mcp.signIn'), server: name }),
	/** The server list's Sign out: forgets the server's tokens. */
	z.object({ type: z.literal('mcp.signOut'), server: name }),
	...MCP_REQUEST_VIEW_MESSAGES,
] as const;
