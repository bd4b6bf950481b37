// The server list's Disable / Enable in VS Code: `disabled` written into one server's entry of
// `aside.mcp.servers` in the user settings (withDisabled), never a workspace's file.
import * as vscode from 'vscode';
import { withDisabled } from '../../mcp/serverToggle';

/** Resolves to why it could not, or undefined once the user settings say it. */
export async function setServerDisabled(server: string, disabled: boolean): Promise<string | undefined> {
	const configuration = vscode.workspace.getConfiguration('aside.mcp');
	const result = withDisabled(configuration.inspect<unknown>('servers')?.globalValue, server, disabled);
	if ('refused' in result) {
		return result.refused;
	}
	await configuration.update('servers', result.value, vscode.ConfigurationTarget.Global);
	return undefined;
}
