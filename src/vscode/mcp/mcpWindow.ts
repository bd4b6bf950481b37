// The window's MCP servers in VS Code (docs/mcp.md): configured in the user settings and the
// workspace's files (mcpConfiguration.ts), approved per launch configuration (mcpApprovals.ts),
// their variables resolved (`${input:id}` asked once and kept in SecretStorage), each server's
// stderr and log messages in an output channel of its own, bounded. Nothing starts before a chat's
// first message, and nothing at all in Restricted Mode: an untrusted window offers no MCP tools.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { ToolSource } from '../../agent/ports';
import { DisposableStore } from '../../base/lifecycle';
import type { Logger } from '../../base/log';
import { DEFAULT_DEFER_AT, readDeferAt } from '../../mcp/deferral';
import { launchOf } from '../../mcp/launch';
import { McpPrompts } from '../../mcp/prompts';
import { sdkConnector } from '../../mcp/sdkConnector';
import type { ServerConfig } from '../../mcp/serverConfig';
import { McpServers } from '../../mcp/servers';
import { resolveVariables } from '../../mcp/variables';
import { askWithModal, type AskApproval, globalDefinitions, McpApprovals } from './mcpApprovals';
import { McpConfiguration } from './mcpConfiguration';
import type { AsideSettings } from '../settings';
import type { McpServerControl } from '../../features/features';
import { setServerDisabled } from './serverSettings';
import { windowOAuth, type WindowSignIn } from './mcpOAuth';
import type { McpRequestRouter } from '../../mcp/serverRequestRouter';
import { mcpRequestRouter, type RequestChats } from './mcpRequestWiring';

/** How much of one server's stderr its output channel takes per connection. */
export const STDERR_BUDGET_BYTES = 1024 * 1024;
/** Where an `${input:id}` value is kept in SecretStorage: this prefix and the id. */
export const INPUT_SECRET = 'aside.mcp.input.';
/** How much of the end of a server's stderr is kept for the server list. */
const STDERR_TAIL_CHARS = 4096;

export interface WindowMcp {
	readonly servers: McpServers;
	readonly configuration: McpConfiguration;
	/** The tools the agent is offered beside the built-in ones. */
	readonly tools: ToolSource;
	/** The connected servers' prompts (none in Restricted Mode): slash commands in the chat. */
	readonly prompts: McpPrompts;
	/** Whether MCP runs here (not in Restricted Mode), and the wait for the servers: what `@mcp:` mentions need. */
	readonly gate: { trusted(): boolean; ready(signal: AbortSignal): Promise<void> };
	/** Who answers a workspace server's approval: the modal, unless the test hooks answer. */
	answerApprovals(ask: AskApproval | undefined): void;
	/** Opens a server's output channel (its stderr and log messages). */
	showOutput(server: string): void;
	/** What the chat's server list does through VS Code. */
	readonly control: McpServerControl;
	/** Sign in and Sign out of the servers that ask for OAuth (mcpOAuth.ts). */
	readonly signIn: WindowSignIn;
	/** Who answers the servers' sampling and elicitation requests: cards in the chats. */
	readonly requests: McpRequestRouter;
	dispose(): void;
}

/** One output channel per server, made when it first writes; stderr bounded per connection. */
function serverOutput(store: DisposableStore) {
	const channels = new Map<string, { readonly channel: vscode.LogOutputChannel; written: number }>();
	/** The end of each server's stderr since it last started, for the server list. */
	const tails = new Map<string, string>();
	return (server: string) => {
		const open = () => {
			let entry = channels.get(server);
			if (!entry) {
				entry = { channel: store.add(vscode.window.createOutputChannel(`Aside MCP: ${server}`, { log: true })), written: 0 };
				channels.set(server, entry);
			}
			return entry;
		};
		return {
			stderr: (text: string) => {
				tails.set(server, ((tails.get(server) ?? '') + text).slice(-STDERR_TAIL_CHARS));
				const entry = open();
				if (entry.written >= STDERR_BUDGET_BYTES) {
					return;
				}
				entry.written += Buffer.byteLength(text);
				entry.channel.info(text.replace(/\n$/, ''));
				if (entry.written >= STDERR_BUDGET_BYTES) {
					entry.channel.warn(`Aside keeps no more of this server's stderr (over ${STDERR_BUDGET_BYTES / 1024 / 1024} MB) until it starts again.`);
				}
			},
			log: (text: string) => {
				open().channel.info(text);
			},
			show: () => {
				open().channel.show(true);
			},
			tail: () => tails.get(server) ?? '',
			restarted: () => {
				tails.delete(server);
				const entry = channels.get(server);
				if (entry) {
					entry.written = 0;
				}
			},
		};
	};
}

export function windowMcp(context: vscode.ExtensionContext, settings: { readonly current: AsideSettings }, log: Logger, chats: RequestChats): WindowMcp {
	const store = new DisposableStore();
	const requests = store.add(mcpRequestRouter(chats, settings, log));
	const configuration = store.add(new McpConfiguration());
	const oauth = windowOAuth(context, store, log);
	let answer: AskApproval | undefined;
	const approvals = new McpApprovals(context.globalState, () => answer ?? askWithModal);
	const outputs = serverOutput(store);
	const folder = () => vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file')?.uri.fsPath;
	const input = async (id: string): Promise<string | undefined> => {
		const key = `${INPUT_SECRET}${id}`;
		const kept = await context.secrets.get(key);
		if (kept !== undefined) {
			return kept;
		}
		const declared = configuration.inputs().find((candidate) => candidate.id === id);
		const given = await vscode.window.showInputBox({
			title: `Aside: a value for an MCP server (\${input:${id}})`,
			prompt: declared?.description ?? id,
			password: declared?.password ?? true,
			ignoreFocusOut: true,
			...(declared?.default === undefined ? {} : { value: declared.default }),
		});
		if (given !== undefined) {
			await context.secrets.store(key, given);
		}
		return given;
	};
	const launch = async (config: ServerConfig) => {
		const workspaceFolder = folder();
		const folderPart = workspaceFolder === undefined ? {} : { workspaceFolder };
		const resolved = await resolveVariables(config, { ...folderPart, userHome: homedir(), env: process.env, input });
		if ('message' in resolved) {
			throw new Error(resolved.message);
		}
		outputs(config.name).restarted();
		return launchOf(resolved, { env: process.env, ...folderPart, readFile: (path) => readFile(path, 'utf8') });
	};
	const servers = store.add(new McpServers({
		source: configuration,
		connector: sdkConnector,
		launch,
		approve: (config) => approvals.approve(config),
		startupTimeoutMs: () => settings.current.mcpStartupTimeoutMs,
		requestTimeoutMs: () => settings.current.mcpRequestTimeoutMs,
		deferAt: () => readDeferAt(settings.current.mcpDeferAt) ?? DEFAULT_DEFER_AT,
		definitions: globalDefinitions(context.globalState),
		output: outputs,
		oauth: oauth.oauthFor,
		requests: (server) => requests.handlers(server),
	}));
	store.add(servers.onDidChange((change) => {
		if (change.kind === 'server' && change.event.kind === 'state' && (change.event.state.kind === 'failed' || change.event.state.kind === 'reconnecting')) {
			log.warn(`Aside: the MCP server "${change.server}" ${change.event.state.kind === 'failed' ? 'failed' : 'disconnected'}: ${change.event.state.message}`);
		}
	}));
	const signIn = oauth.attach(servers);
	const prompts = store.add(new McpPrompts(servers, {
		requestTimeoutMs: () => settings.current.mcpRequestTimeoutMs,
		enabled: () => vscode.workspace.isTrusted,
		log: (text) => {
			log.warn(`Aside: ${text}`);
		},
	}));
	const tools: ToolSource = {
		tools: (offer) => (vscode.workspace.isTrusted ? servers.tools(offer) : []),
		ready: async (signal) => {
			if (!vscode.workspace.isTrusted) {
				return;
			}
			// The workspace files are read before the servers start, so the first chat gets them all.
			await configuration.whenRead();
			await servers.ready(signal);
		},
	};
	return {
		servers,
		configuration,
		tools,
		prompts,
		gate: { trusted: () => vscode.workspace.isTrusted, ready: (signal) => tools.ready(signal) },
		answerApprovals: (ask) => {
			answer = ask;
		},
		showOutput: (server) => {
			outputs(server).show();
		},
		control: {
			trusted: () => vscode.workspace.isTrusted,
			onDidChangeTrust: (listener) => vscode.workspace.onDidGrantWorkspaceTrust(listener),
			showOutput: (server) => {
				outputs(server).show();
			},
			stderrTail: (server) => outputs(server).tail(),
			setDisabled: setServerDisabled,
			signIn: (server) => signIn.signIn(server),
			signOut: (server) => signIn.signOut(server),
		},
		signIn,
		requests,
		dispose: () => {
			store.dispose();
		},
	};
}
