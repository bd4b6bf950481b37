// `aside.openReadme`: the installed extension's own README in the Markdown preview, scrolled to a
// section — what the settings' descriptions link to (`command:aside.openReadme?["permission-rules"]`),
// since the docs/ pages are not shipped and a link into the repository would need the network.
import { readdirSync } from 'node:fs';
import * as vscode from 'vscode';

export const OPEN_README_COMMAND = 'aside.openReadme';

/** A heading's anchor as the Markdown preview makes it: `## Permission rules` → `permission-rules`. */
const ANCHOR = /^[a-z0-9][a-z0-9-]*$/;

/** The README the .vsix carries (vsce names it `readme.md`; a development checkout has `README.md`). */
function readmeOf(extensionUri: vscode.Uri): vscode.Uri | undefined {
	const name = readdirSync(extensionUri.fsPath).find((entry) => /^readme\.md$/i.test(entry));
	return name === undefined ? undefined : vscode.Uri.joinPath(extensionUri, name);
}

/** Opens the README's preview at `anchor` (the top when absent or not an anchor); resolves with the README's URI, or undefined when there is none. */
export async function openReadme(extensionUri: vscode.Uri, anchor: unknown): Promise<vscode.Uri | undefined> {
	const readme = readmeOf(extensionUri);
	if (readme === undefined) {
		void vscode.window.showErrorMessage('Aside: this installation has no README to open.');
		return undefined;
	}
	// The preview scrolls to the URI's fragment when it opens.
	const target = typeof anchor === 'string' && ANCHOR.test(anchor) ? readme.with({ fragment: anchor }) : readme;
	await vscode.commands.executeCommand('markdown.showPreview', target);
	return readme;
}

export function registerReadmeCommand(extensionUri: vscode.Uri): vscode.Disposable {
	return vscode.commands.registerCommand(OPEN_README_COMMAND, (anchor: unknown) => openReadme(extensionUri, anchor));
}
