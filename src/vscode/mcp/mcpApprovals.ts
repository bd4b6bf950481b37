// Whether a workspace's MCP server may start: the person's answer to a modal naming the file and
// exactly what would run (or be reached), remembered in globalState bound to the server's launch
// configuration as written (src/mcp/launchIdentity.ts) and the file it is in, so a changed
// command, argument, environment or URL — or the same file in another folder — asks again.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { launchIdentity } from '../../mcp/launchIdentity';
import type { ApprovedDefinition, DefinitionStore } from '../../mcp/definitionApprovals';
import type { ServerConfig } from '../../mcp/serverConfig';

const APPROVALS_KEY = 'aside.mcp.approvedServers';

type Memory = Record<string, { readonly name: string; readonly at: number }>;

/** Asks the person; the test hooks may answer instead (the integration tests cannot click a modal). */
export type AskApproval = (config: ServerConfig, what: string) => Promise<boolean>;

function approvalKey(config: ServerConfig): string {
	const place = config.origin.kind === 'workspace' ? config.origin.path : 'user';
	return createHash('sha256').update(`${place}\u0000${launchIdentity(config)}`).digest('hex').slice(0, 32);
}

/** What would run or be reached, as the person reads it. */
export function launchWords(config: ServerConfig): string {
	if (config.transport !== 'stdio') {
		const headers = Object.keys(config.headers);
		return `It connects to ${config.url}${headers.length > 0 ? ` with the headers ${headers.join(', ')}` : ''}.`;
	}
	const line = [config.command, ...config.args].map((part) => (/\s/.test(part) ? JSON.stringify(part) : part)).join(' ');
	const env = Object.keys(config.env);
	return `It runs on your machine, with your permissions:\n\n${line}${config.cwd === undefined ? '' : `\n\nin ${config.cwd}`}${env.length > 0 ? `\n\nwith the environment variables ${env.join(', ')}` : ''}${config.envFile === undefined ? '' : ` and those of ${config.envFile}`}`;
}

export const askWithModal: AskApproval = async (config, what) => {
	const start = 'Start Server';
	const file = config.origin.kind === 'workspace' ? config.origin.path : 'your settings';
	const answer = await vscode.window.showWarningMessage(
		`Start the MCP server "${config.name}" of this workspace?`,
		{
			modal: true,
			detail: `${file} asks Aside to start this server for the agent. ${what}\n\nStart it only if you trust this workspace's author. You are asked again if its configuration changes; its tools still ask before each call.`,
		},
		start,
	);
	return answer === start;
};

export class McpApprovals {
	/** Asked once at a time per server, so two chats starting together do not ask twice. */
	private readonly asking = new Map<string, Promise<boolean>>();

	constructor(
		private readonly globalState: vscode.Memento,
		private readonly ask: () => AskApproval,
	) {}

	/** Whether `config` (a workspace server) may start: remembered, else asked. A declined one is asked again next time. */
	approve(config: ServerConfig): Promise<boolean> {
		if (config.origin.kind === 'user') {
			return Promise.resolve(true);
		}
		const key = approvalKey(config);
		if (this.memory()[key] !== undefined) {
			return Promise.resolve(true);
		}
		let asked = this.asking.get(key);
		if (!asked) {
			asked = this.ask()(config, launchWords(config)).then(async (approved) => {
				if (approved) {
					await this.globalState.update(APPROVALS_KEY, { ...this.memory(), [key]: { name: config.name, at: Date.now() } });
				}
				return approved;
			}).finally(() => {
				this.asking.delete(key);
			});
			this.asking.set(key, asked);
		}
		return asked;
	}

	private memory(): Memory {
		return this.globalState.get<Memory>(APPROVALS_KEY) ?? {};
	}
}

/** Where the MCP tool definitions the person approved are kept (src/mcp/definitionApprovals.ts). */
export const DEFINITIONS_KEY = 'aside.mcp.approvedDefinitions';

/** The approved tool definitions in globalState: they outlive the window, as the approval of a changed tool should. */
export function globalDefinitions(globalState: vscode.Memento): DefinitionStore {
	const kept = () => globalState.get<Record<string, ApprovedDefinition>>(DEFINITIONS_KEY) ?? {};
	return {
		get: (tool) => kept()[tool],
		set: (tool, definition) => {
			void globalState.update(DEFINITIONS_KEY, { ...kept(), [tool]: definition });
		},
	};
}
