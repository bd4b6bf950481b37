// Where the window's MCP servers are configured, as VS Code holds it: `aside.mcp.servers` from the
// person's user settings alone (inspect().globalValue: a workspace's value is never read, and the
// setting is application-scoped besides), and each workspace folder's `.mcp.json` and
// `.vscode/mcp.json` — read only in a trusted workspace, watched, and read again when trust is
// granted. A file that cannot be read or parsed names itself; the other servers stand.
import * as vscode from 'vscode';
import { Emitter } from '../../base/event';
import { DisposableStore } from '../../base/lifecycle';
import { originWords, readUserServers, readWorkspaceFile, type ServerConfig, type ServerInput, type ServerProblem } from '../../mcp/serverConfig';
import type { ServerSource } from '../../mcp/servers';

const WORKSPACE_FILES = ['.mcp.json', '.vscode/mcp.json'] as const;

interface Read {
	readonly servers: readonly ServerConfig[];
	readonly inputs: readonly ServerInput[];
	readonly problems: readonly ServerProblem[];
}

const NOTHING: Read = { servers: [], inputs: [], problems: [] };

export class McpConfiguration implements ServerSource, vscode.Disposable {
	private readonly store = new DisposableStore();
	private readonly _onDidChange = this.store.add(new Emitter<void>());
	readonly onDidChange = this._onDidChange.event;
	private workspace: Read = NOTHING;
	private reading: Promise<void> = Promise.resolve();

	constructor() {
		this.store.add(vscode.workspace.onDidChangeConfiguration((event) => {
			if (event.affectsConfiguration('aside.mcp.servers')) {
				this._onDidChange.fire();
			}
		}));
		for (const file of WORKSPACE_FILES) {
			const watcher = vscode.workspace.createFileSystemWatcher(`**/${file}`);
			const reread = () => {
				this.refresh();
			};
			this.store.add(watcher);
			this.store.add(watcher.onDidChange(reread));
			this.store.add(watcher.onDidCreate(reread));
			this.store.add(watcher.onDidDelete(reread));
		}
		this.store.add(vscode.workspace.onDidGrantWorkspaceTrust(() => {
			this.refresh();
		}));
		this.store.add(vscode.workspace.onDidChangeWorkspaceFolders(() => {
			this.refresh();
		}));
		this.refresh();
	}

	/** The workspace files are read: the first read, or the one after the last change. */
	whenRead(): Promise<void> {
		return this.reading;
	}

	read(): { readonly servers: readonly ServerConfig[]; readonly problems: readonly ServerProblem[] } {
		const user = readUserServers(vscode.workspace.getConfiguration('aside.mcp').inspect('servers')?.globalValue);
		// One server per name: the person's own win over a workspace's, then the first file read.
		const servers: ServerConfig[] = [];
		const problems: ServerProblem[] = [...user.problems, ...this.workspace.problems];
		for (const server of [...user.servers, ...this.workspace.servers]) {
			const first = servers.find((taken) => taken.name === server.name);
			if (first) {
				problems.push({ name: server.name, origin: server.origin, message: `MCP server "${server.name}" of ${originWords(server.origin)} is not used: ${originWords(first.origin)} configures a server of that name.` });
			} else {
				servers.push(server);
			}
		}
		return { servers, problems };
	}

	/** The `inputs` the workspace's `.vscode/mcp.json` files declare. */
	inputs(): readonly ServerInput[] {
		return this.workspace.inputs;
	}

	private refresh(): void {
		this.reading = this.readWorkspace().then((read) => {
			this.workspace = read;
			this._onDidChange.fire();
		});
	}

	private async readWorkspace(): Promise<Read> {
		if (!vscode.workspace.isTrusted) {
			return NOTHING;
		}
		const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
		const reads: Read[] = [];
		for (const folder of folders) {
			for (const file of WORKSPACE_FILES) {
				const uri = vscode.Uri.joinPath(folder.uri, file);
				let text: string;
				try {
					text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
				} catch (error) {
					if (!(error instanceof vscode.FileSystemError && error.code === 'FileNotFound')) {
						const origin = { kind: 'workspace', file, path: uri.fsPath } as const;
						reads.push({ ...NOTHING, problems: [{ name: '', origin, message: `${file} could not be read (${String(error)}); none of its servers start.` }] });
					}
					continue;
				}
				reads.push(readWorkspaceFile(file, uri.fsPath, text));
			}
		}
		return {
			servers: reads.flatMap((read) => read.servers),
			inputs: reads.flatMap((read) => read.inputs),
			problems: reads.flatMap((read) => read.problems),
		};
	}

	dispose(): void {
		this.store.dispose();
	}
}
