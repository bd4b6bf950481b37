import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeAside, EXTENSION_ID, until } from './support';

describe('activation (packaged extension)', () => {
	it('runs the extension from the unpacked .vsix and activates it', async () => {
		const { extension } = await activeAside();
		assert.equal(extension.isActive, true);
		const expected = process.env.ASIDE_EXPECTED_EXTENSION_PATH;
		assert.ok(expected);
		assert.equal(extension.extensionUri.fsPath, expected, 'the extension under test is the packaged one');
		const manifest = JSON.parse(readFileSync(join(extension.extensionUri.fsPath, 'package.json'), 'utf8')) as { version: string };
		assert.equal((extension.packageJSON as { version: string }).version, manifest.version);
	});

	it('registers its commands', async () => {
		const commands = await vscode.commands.getCommands(true);
		for (const command of ['aside.newChat', 'aside.focusChat', 'aside.showLog', 'aside.chat.focus', 'aside.openChat', 'aside.chooseProvider', 'aside.setApiKey', 'aside.stop', 'aside.sendMessage', 'aside.compactChat']) {
			assert.ok(commands.includes(command), `${command} is registered`);
		}
	});

	it('ships the webview assets the view loads', () => {
		const extension = vscode.extensions.getExtension(EXTENSION_ID);
		assert.ok(extension);
		for (const asset of ['dist/webview/main.js', 'dist/webview/style.css', 'dist/webview/codicon.ttf', 'media/aside-activity.svg', 'media/walkthrough/provider.md', 'media/walkthrough/apiKey.md', 'media/walkthrough/chat.md']) {
			assert.ok(readFileSync(join(extension.extensionUri.fsPath, asset)).length > 0, `${asset} is in the .vsix`);
		}
	});

	it('Aside: Show Log shows the Aside log, with the activation line, in the Output panel', async () => {
		const logShown = (): vscode.TextEditor | undefined =>
			vscode.window.visibleTextEditors.find((editor) => editor.document.uri.scheme === 'output' && /Aside\.log$/.test(editor.document.uri.path));
		await vscode.commands.executeCommand('workbench.action.closePanel');
		await until(logShown, (editor) => editor === undefined, 'the Output panel to close');
		await vscode.commands.executeCommand('aside.showLog');
		const editor = await until(logShown, (shown) => shown !== undefined, 'the Aside log in the Output panel');
		const version = (vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { version: string }).version;
		assert.match(editor?.document.getText() ?? '', new RegExp(`\\[info\\] Aside ${version.replaceAll('.', '\\.')} activating \\(VS Code `));
	});
});
