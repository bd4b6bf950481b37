// The person's hooks as VS Code holds them: `aside.hooks` read from the user settings alone
// (inspect().globalValue — a workspace's value is never read, and the setting is
// application-scoped besides), each workspace folder's `.aside/hooks.json` through the workspace
// file system, consent kept in globalState, the question a modal naming the file and commands.
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Logger } from '../base/log';
import { ConfiguredHooks } from '../hooks/toolHooks';
import { fileFingerprint, folderIdentity } from '../hooks/approvalScope';
import { type Consent, HookSources } from '../hooks/sources';

const CONSENT_KEY = 'aside.hooks.consent';

type ConsentMemory = Record<string, { readonly hash: string; readonly consent: Consent }>;

export function vscodeHooks(
	options: { readonly globalState: vscode.Memento; readonly sessionId: () => string; readonly notify: (text: string) => void; readonly log: Logger },
): ConfiguredHooks {
	const { globalState, log, notify } = options;
	const sources = new HookSources({
		userValue: () => vscode.workspace.getConfiguration('aside').inspect('hooks')?.globalValue,
		folders: () => (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath),
		trusted: () => vscode.workspace.isTrusted,
		readFile: async (path) => {
			try {
				return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path)));
			} catch (error) {
				if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
					return undefined;
				}
				throw error;
			}
		},
		memory: {
			get: () => globalState.get<ConsentMemory>(CONSENT_KEY) ?? {},
			set: (value) => Promise.resolve(globalState.update(CONSENT_KEY, value)),
		},
		fingerprint: fileFingerprint,
		identity: folderIdentity,
		ask: async (file, commands, scripts) => {
			const allow = 'Allow these hooks';
			const answer = await vscode.window.showWarningMessage(
				`Allow the hooks of ${file} to run?`,
				{
					modal: true,
					detail: `This workspace file asks Aside to run these commands on your machine around the agent's work:\n\n${commands.join('\n')}${scripts.length > 0 ? `\n\nThey run these files of the workspace:\n${scripts.join('\n')}` : ''}\n\nAllow only if you trust what they do. You are asked again if the file or these scripts change, or in another clone.`,
				},
				allow,
			);
			return answer === allow;
		},
		notify,
		log,
	});
	return new ConfiguredHooks({
		groups: () => sources.groups(),
		folder: () => vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme === 'file')?.uri.fsPath ?? os.homedir(),
		sessionId: options.sessionId,
		notify,
		log,
		skippedByTrust: () => sources.skippedByTrust(),
	});
}
