// The server list in the chat (docs/mcp.md, "The server list"): the window's MCP servers with their
// state, tool count, what their tools' specs cost a request, a failed one's last stderr lines, and
// Restart, Show output, Disable / Enable. It follows the servers (`onDidChange`) and says the whole
// list each time (`mcp.servers`): a list of servers is small, and a snapshot survives a hidden view.
import { errorMessage } from '../../base/errors';
import { Disposable, DisposableStore, type IDisposable } from '../../base/lifecycle';
import type { Event } from '../../base/event';
import type { Logger } from '../../base/log';
import { specTokens } from '../../mcp/deferral';
import { originWords } from '../../mcp/serverConfig';
import { describeEntry } from '../../mcp/serverState';
import type { McpServers } from '../../mcp/servers';
import { MAX_SERVER_MESSAGE_CHARS, MAX_STDERR_TAIL_CHARS, type McpServersView, type McpServerView } from '../../protocol/mcp';
import type { ViewMessage } from '../../protocol/messages';
import type { FeatureViewPort } from '../../view/featureView';

/** What the list does through VS Code: Restricted Mode, the output channels, the user settings. */
export interface McpServerControl {
	/** Whether MCP runs here (false in Restricted Mode). */
	trusted(): boolean;
	/** Fired when the workspace becomes trusted. */
	readonly onDidChangeTrust?: Event<void>;
	showOutput(server: string): void;
	/** What the server wrote last on stderr (since it last started). */
	stderrTail(server: string): string;
	/** Writes `disabled` into the server's entry of the user settings; resolves to why it could not, or undefined. */
	setDisabled(server: string, disabled: boolean): Promise<string | undefined>;
	/** Signs in to a server that asks for it (the browser opens now, on the person's click); rejects with why it did not. */
	signIn?(server: string): Promise<void>;
	/** Forgets a server's tokens (it then asks for a sign-in again). */
	signOut?(server: string): Promise<void>;
}

declare module '../../agent/chatFeature' {
	interface FeatureServices {
		/** What the MCP server list does through VS Code; absent where the window has no MCP. */
		readonly mcpControl?: McpServerControl;
	}
}

/** How much of a failed server's stderr the list shows: its last lines, each bounded. */
export const STDERR_LINES = 8;
const STDERR_LINE_CHARS = 240;

/** The last lines of `text`, without control characters but tabs, each line cut, the whole bounded. */
export function stderrLines(text: string): string | undefined {
	// eslint-disable-next-line no-control-regex
	const clean = text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f\u001b]/g, '');
	const lines = clean.split('\n').map((line) => line.trimEnd()).filter((line) => line !== '');
	const last = lines.slice(-STDERR_LINES).map((line) => (line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS - 1)}…` : line));
	const joined = last.join('\n');
	return joined === '' ? undefined : joined.slice(-MAX_STDERR_TAIL_CHARS);
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The servers as the list shows them. */
export function serverListView(servers: McpServers, control: Pick<McpServerControl, 'trusted' | 'stderrTail'>): McpServersView {
	const cost = new Map<string, number>();
	for (const tool of servers.mcpTools()) {
		cost.set(tool.server, (cost.get(tool.server) ?? 0) + specTokens(tool));
	}
	const views = servers.entries().map((entry): McpServerView => {
		const { config, state } = entry;
		const failing = state.kind === 'failed' || state.kind === 'reconnecting';
		const stderr = failing ? stderrLines(control.stderrTail(config.name)) : undefined;
		return {
			name: cut(config.name, 200),
			state: state.kind,
			words: cut(describeEntry(state), MAX_SERVER_MESSAGE_CHARS),
			origin: config.origin.kind === 'user' ? 'user settings' : config.origin.file,
			user: config.origin.kind === 'user',
			toolCount: state.kind === 'connected' ? entry.toolCount : 0,
			specTokens: state.kind === 'connected' ? (cost.get(config.name) ?? 0) : 0,
			...(servers.connectionOf(config.name)?.oauth?.signedIn === true ? { signedIn: true } : {}),
			...(stderr === undefined ? {} : { stderr }),
		};
	});
	const deferred = servers.deferred;
	return {
		trusted: control.trusted(),
		servers: views,
		...(deferred === undefined ? {} : { deferred: cut(deferred, MAX_SERVER_MESSAGE_CHARS) }),
		problems: servers.configurationProblems().slice(0, 100).map((problem) => cut(problem.message, MAX_SERVER_MESSAGE_CHARS)),
	};
}

/** The list's host side: says the servers to each connected view, and does what its buttons ask. */
export class McpServerList extends Disposable {
	constructor(
		private readonly servers: McpServers | undefined,
		private readonly control: McpServerControl | undefined,
		private readonly log: Logger,
	) {
		super();
	}

	view(): McpServersView {
		return this.servers && this.control ? serverListView(this.servers, this.control) : { trusted: true, servers: [], problems: [] };
	}

	connect(view: FeatureViewPort): IDisposable {
		const store = new DisposableStore();
		let sent: string | undefined;
		const send = (): void => {
			const current = this.view();
			const json = JSON.stringify(current);
			if (json !== sent) {
				sent = json;
				view.send({ type: 'mcp.servers', view: current });
			}
		};
		if (this.servers) {
			store.add(this.servers.onDidChange(send));
		}
		if (this.control?.onDidChangeTrust) {
			store.add(this.control.onDidChangeTrust(send));
		}
		return store;
	}

	shown(view: FeatureViewPort): void {
		view.send({ type: 'mcp.servers', view: this.view() });
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		const types: readonly string[] = ['mcp.restart', 'mcp.showOutput', 'mcp.setDisabled', 'mcp.signIn', 'mcp.signOut'];
		if (!types.includes(message.type) || !('server' in message)) {
			return;
		}
		const { servers, control } = this;
		const entry = servers?.entries().find((candidate) => candidate.config.name === message.server);
		if (!servers || !control || !entry) {
			view.notice('warning', `There is no MCP server named "${cut(message.server, 200)}".`);
			return;
		}
		switch (message.type) {
			case 'mcp.showOutput':
				control.showOutput(entry.config.name);
				return;
			case 'mcp.restart':
				if (!control.trusted()) {
					view.notice('warning', 'MCP servers do not run in Restricted Mode: trust this workspace to start them.');
					return;
				}
				servers.restart(entry.config.name).catch((error: unknown) => {
					this.log.warn(`Aside: restarting the MCP server "${entry.config.name}" failed: ${errorMessage(error)}`);
					view.notice('error', `Restarting the MCP server "${entry.config.name}" failed: ${errorMessage(error)}`);
				});
				return;
			case 'mcp.signIn':
			case 'mcp.signOut': {
				const name = entry.config.name;
				const verb = message.type === 'mcp.signIn' ? 'Signing in to' : 'Signing out of';
				const done = message.type === 'mcp.signIn' ? control.signIn?.(name) : control.signOut?.(name);
				done?.catch((error: unknown) => {
					this.log.warn(`Aside: ${verb} the MCP server "${entry.config.name}" failed: ${errorMessage(error)}`);
					view.notice('error', errorMessage(error));
				});
				return;
			}
			case 'mcp.setDisabled':
				if (entry.config.origin.kind !== 'user') {
					view.notice('warning', `"${entry.config.name}" is configured in ${originWords(entry.config.origin)}: edit that file to disable or enable it.`);
					return;
				}
				control.setDisabled(entry.config.name, message.disabled).then(
					(refused) => {
						if (refused !== undefined) {
							view.notice('warning', refused);
						}
					},
					(error: unknown) => {
						view.notice('error', `Could not change aside.mcp.servers: ${errorMessage(error)}`);
					},
				);
				return;
		}
	}
}
