// The MCP commands (docs/mcp.md): **Aside: Import MCP Servers…** copies the servers the person's
// other tools configure into `aside.mcp.servers` (their secrets into SecretStorage), and **Aside:
// Show MCP Servers** lists the window's servers with their state, to restart one or open its
// output.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { type ImportCandidate, type ImportFile, type ImportSource, importCandidates, SOURCE_NAMES } from '../../mcp/importSources';
import { errorMessage } from '../../base/errors';
import { describeEntry } from '../../mcp/serverState';
import type { WindowContribution } from '../window/window';
import { INPUT_SECRET, type WindowMcp } from './mcpWindow';

/** Where each tool keeps its MCP servers, for this platform and this VS Code's user folder. */
export function importPaths(home: string, userDir: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): Record<ImportSource, string> {
	const desktop =
		platform === 'darwin'
			? join(home, 'Library', 'Application Support', 'Claude')
			: platform === 'win32'
				? join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude')
				: join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Claude');
	return {
		vscode: join(userDir, 'mcp.json'),
		'claude-code': join(home, '.claude.json'),
		cline: join(userDir, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'),
		'claude-desktop': join(desktop, 'claude_desktop_config.json'),
	};
}

export interface ImportOptions {
	readonly home: string;
	/** VS Code's `User` folder (the parent of every extension's global storage). */
	readonly userDir: string;
	/** Where XDG_CONFIG_HOME and APPDATA are read (Claude Desktop's folder); the extension host's by default. */
	readonly env?: NodeJS.ProcessEnv;
	/** Chooses among the candidates; the quick pick unless the test hooks choose. */
	readonly pick?: (candidates: readonly ImportCandidate[]) => Promise<readonly ImportCandidate[] | undefined>;
}

const pickWithQuickPick = async (candidates: readonly ImportCandidate[]) => {
	const picked = await vscode.window.showQuickPick(
		candidates.map((candidate) => ({ label: candidate.name, description: SOURCE_NAMES[candidate.source], detail: candidate.summary, candidate })),
		{ canPickMany: true, title: 'Aside: Import MCP Servers', placeHolder: 'The servers to copy into aside.mcp.servers in your user settings' },
	);
	return picked?.map((item) => item.candidate);
};

/** Imports the chosen servers; returns what was said to the person. */
export async function importMcpServers(secrets: vscode.SecretStorage, options: ImportOptions): Promise<string> {
	const paths = importPaths(options.home, options.userDir, options.env);
	const files: ImportFile[] = [];
	for (const [source, path] of Object.entries(paths) as [ImportSource, string][]) {
		try {
			files.push({ source, path, text: await readFile(path, 'utf8') });
		} catch {
			// Not configured there.
		}
	}
	const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file')?.uri.fsPath;
	const { candidates, problems } = importCandidates(files, folder);
	const configuration = vscode.workspace.getConfiguration('aside.mcp');
	const current = { ...(configuration.inspect<Record<string, unknown>>('servers')?.globalValue ?? {}) };
	const fresh = candidates.filter((candidate) => !Object.hasOwn(current, candidate.name));
	const kept = candidates.filter((candidate) => Object.hasOwn(current, candidate.name)).map((candidate) => candidate.name);
	const skipped = [...(kept.length > 0 ? [`already in aside.mcp.servers, kept as they are: ${[...new Set(kept)].join(', ')}`] : []), ...problems];
	if (fresh.length === 0) {
		return `No MCP server to import${skipped.length > 0 ? ` (${skipped.join('; ')})` : ''}. Looked in ${Object.values(paths).join(', ')}.`;
	}
	const chosen = (await (options.pick ?? pickWithQuickPick)(fresh)) ?? [];
	if (chosen.length === 0) {
		return 'Nothing was imported.';
	}
	const entries = new Map<string, ImportCandidate>();
	for (const candidate of chosen) {
		// Two tools may name one server: the first chosen is taken.
		if (!entries.has(candidate.name)) {
			entries.set(candidate.name, candidate);
		}
	}
	const stored: string[] = [];
	for (const candidate of entries.values()) {
		for (const [id, value] of Object.entries(candidate.secrets)) {
			await secrets.store(`${INPUT_SECRET}${id}`, value);
			stored.push(id);
		}
		current[candidate.name] = candidate.entry;
	}
	await configuration.update('servers', current, vscode.ConfigurationTarget.Global);
	const names = [...entries.keys()];
	return [
		`Imported ${names.length === 1 ? 'the MCP server' : `${names.length} MCP servers`} ${names.join(', ')} into aside.mcp.servers in your user settings.`,
		stored.length > 0 ? `Their secrets are kept in VS Code's secret storage, used as \${input:${stored[0]}}${stored.length > 1 ? ' and the like' : ''}.` : '',
		skipped.length > 0 ? `Not imported: ${skipped.join('; ')}.` : '',
	].filter((part) => part !== '').join(' ');
}

/** Lists the servers; the chosen one can be restarted (or approved again), signed in to or out of, or its output opened. */
async function showServers(mcp: WindowMcp): Promise<void> {
	const entries = mcp.servers.entries();
	if (entries.length === 0) {
		void vscode.window.showInformationMessage('Aside: no MCP server is configured. Add one to aside.mcp.servers, or run Aside: Import MCP Servers….');
		return;
	}
	const picked = await vscode.window.showQuickPick(
		entries.map((entry) => ({ label: entry.config.name, description: describeEntry(entry.state), detail: entry.state.kind === 'connected' ? `${entry.toolCount} tools` : undefined, name: entry.config.name })),
		{ title: 'Aside: MCP Servers', placeHolder: 'Choose a server to restart it or open its output' },
	);
	if (!picked) {
		return;
	}
	// As the chat's list offers them: a declined workspace server is asked about again (Approve…), one that needs it is signed in to.
	const state = entries.find((entry) => entry.config.name === picked.name)?.state.kind;
	const restart = state === 'declined' ? 'Approve…' : 'Restart';
	const signIn = 'Sign In…';
	const signOut = 'Sign Out';
	const output = 'Show Output';
	const actions = [
		...(state === 'needs-sign-in' ? [signIn] : []),
		...(state === 'disabled' ? [] : [restart]),
		...(mcp.signIn.signIns.signedIn(picked.name) ? [signOut] : []),
		output,
	];
	const action = await vscode.window.showQuickPick(actions, { title: picked.name });
	try {
		if (action === restart) {
			await mcp.servers.restart(picked.name);
		} else if (action === signIn) {
			await mcp.signIn.signIn(picked.name);
		} else if (action === signOut) {
			await mcp.signIn.signOut(picked.name);
		} else if (action === output) {
			mcp.showOutput(picked.name);
		}
	} catch (error) {
		void vscode.window.showErrorMessage(`Aside: ${errorMessage(error)}`);
	}
}

/** Aside: Sign In to MCP Server… / Sign Out: picks among the servers that ask for a sign-in (or are signed in). */
async function signInOrOut(mcp: WindowMcp, action: 'in' | 'out'): Promise<void> {
	const { signIns } = mcp.signIn;
	const names = mcp.servers.entries().map((entry) => entry.config.name).filter((name) => (action === 'in' ? signIns.needsSignIn(name) : signIns.signedIn(name)));
	if (names.length === 0) {
		const none = action === 'in' ? 'No MCP server asks for a sign-in now (servers start with a chat\'s first message).' : 'You are signed in to no MCP server.';
		void vscode.window.showInformationMessage(`Aside: ${none}`);
		return;
	}
	const title = action === 'in' ? 'Aside: Sign In to MCP Server' : 'Aside: Sign Out of MCP Server';
	const name = names.length === 1 && action === 'in' ? names[0] : await vscode.window.showQuickPick(names, { title });
	if (name === undefined) {
		return;
	}
	try {
		await (action === 'in' ? mcp.signIn.signIn(name) : mcp.signIn.signOut(name));
	} catch (error) {
		void vscode.window.showErrorMessage(`Aside: ${errorMessage(error)}`);
	}
}

export const mcpCommands: WindowContribution = {
	name: 'MCP commands',
	contribute: ({ context, mcp, log }, store) => {
		const userDir = dirname(dirname(context.globalStorageUri.fsPath));
		store.add(vscode.commands.registerCommand('aside.mcp.importServers', async () => {
			const said = await importMcpServers(context.secrets, { home: homedir(), userDir });
			log.info(`Aside: ${said}`);
			void vscode.window.showInformationMessage(`Aside: ${said}`);
			return said;
		}));
		store.add(vscode.commands.registerCommand('aside.mcp.showServers', () => showServers(mcp)));
		store.add(vscode.commands.registerCommand('aside.mcp.signIn', () => signInOrOut(mcp, 'in')));
		store.add(vscode.commands.registerCommand('aside.mcp.signOut', () => signInOrOut(mcp, 'out')));
	},
};
