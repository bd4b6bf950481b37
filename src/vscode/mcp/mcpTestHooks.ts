// What the integration tests reach of the window's MCP servers (only with ASIDE_TEST_HOOKS=1, as
// every test hook): their states, their processes, the tools offered, and an answer to a workspace
// server's approval in place of the modal, which a test cannot click, and the import over a scratch home.
import type * as vscode from 'vscode';
import { describeEntry } from '../../mcp/serverState';
import { importMcpServers } from './mcpCommands';
import { type McpOAuthTestHooks, mcpOAuthTestHooks } from './mcpOAuthTestHooks';
import type { RequestAction, WaitingRequest } from '../../mcp/serverRequestRouter';
import type { FormEntries } from '../../vocabulary/elicitationForm';
import { INPUT_SECRET, type WindowMcp } from './mcpWindow';

export interface McpTestHooks extends McpOAuthTestHooks {
	readonly servers: () => readonly { readonly name: string; readonly state: string; readonly words: string; readonly toolCount: number }[];
	/** Each running stdio server's process id, by name. */
	readonly pids: () => Readonly<Record<string, number>>;
	/** The connected servers' tools by their mcp__ names (also while they are deferred behind McpCall). */
	readonly tools: () => readonly string[];
	/** The connected servers' prompts, as `server/prompt`. */
	readonly prompts: () => readonly string[];
	/** Answers every approval question from now on (undefined: the modal asks again); records each server asked about. */
	readonly answerApprovals: (approve: boolean | undefined) => void;
	readonly asked: () => readonly string[];
	readonly restart: (name: string) => Promise<void>;
	/** Aside: Import MCP Servers… over a scratch home and user folder, every candidate chosen; what it said. */
	readonly importServers: (home: string, userDir: string) => Promise<string>;
	/** A value kept for `${input:id}`. */
	readonly inputSecret: (id: string) => Promise<string | undefined>;
	/** The servers' sampling and elicitation requests waiting for the person, each with the chat that shows its card. */
	readonly requests: () => readonly { readonly chat: string; readonly view: WaitingRequest }[];
	/** Answers a request card as its buttons do (the same `mcp.answer` message); what was wrong, if anything. */
	readonly answerRequest: (id: string, action: RequestAction, entries?: FormEntries) => string | undefined;
}

export function mcpTestHooks(mcp: WindowMcp, secrets: vscode.SecretStorage): McpTestHooks {
	const asked: string[] = [];
	return {
		...mcpOAuthTestHooks(mcp, secrets),
		servers: () => mcp.servers.entries().map((entry) => ({
			name: entry.config.name,
			state: entry.state.kind,
			words: describeEntry(entry.state),
			toolCount: entry.toolCount,
		})),
		pids: () => Object.fromEntries(mcp.servers.pids()),
		tools: () => mcp.servers.mcpTools().map((tool) => tool.name),
		prompts: () => mcp.prompts.servers().flatMap(({ server, prompts }) => prompts.map((prompt) => `${server}/${prompt.name}`)),
		answerApprovals: (approve) => {
			mcp.answerApprovals(approve === undefined ? undefined : (config) => {
				asked.push(config.name);
				return Promise.resolve(approve);
			});
		},
		asked: () => asked.slice(),
		restart: (name) => mcp.servers.restart(name),
		importServers: (home, userDir) => importMcpServers(secrets, { home, userDir, env: {}, pick: (candidates) => Promise.resolve(candidates) }),
		inputSecret: (id) => Promise.resolve(secrets.get(`${INPUT_SECRET}${id}`)),
		requests: () => mcp.requests.all(),
		answerRequest: (id, action, entries) => mcp.requests.answer(id, action, entries),
	};
}
