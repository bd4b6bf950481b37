// VS Code's workspace trust as the network gate reads it (src/agent/networkGate.ts).
import * as vscode from 'vscode';
import type { TrustSource } from '../agent/networkGate';

export const workspaceTrust: TrustSource = {
	get isTrusted() {
		return vscode.workspace.isTrusted;
	},
	onDidGrantTrust: (listener) => vscode.workspace.onDidGrantWorkspaceTrust(listener),
};
