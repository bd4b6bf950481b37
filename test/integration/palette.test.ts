// What the real Command Palette offers of Aside, read from the workbench's own quick input: one
// command that focuses the chat, and Preview Workspace Reminder only while a reminder file is the
// active editor.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TranscriptItem } from '../../src/protocol/messages';
import { waitForEvent } from '../../src/base/event';
import { activeAside, driver, hasDriver, workspaceFile } from './support';

/** The palette's rows for `query` (typed after '>'), as the workbench shows them. */
async function paletteRows(query: string, waitForTexts: readonly string[]): Promise<string[]> {
	await vscode.commands.executeCommand('workbench.action.quickOpen', `>${query}`);
	return (await driver<{ rows: string[] }>('readQuickInput', { waitForTexts })).rows;
}

describe('the Command Palette', function () {
	const folder = workspaceFile('.aside/reminders');
	const reminder = workspaceFile('.aside/reminders/palette.md');

	before(async function () {
		if (!hasDriver) {
			this.skip();
		}
		await activeAside();
		mkdirSync(folder.fsPath, { recursive: true });
		writeFileSync(reminder.fsPath, '---\nkey: palette\n---\nA reminder for the palette test.\n');
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(folder.fsPath, { recursive: true, force: true });
	});

	it('lists one command that focuses the chat, and it puts the cursor in the message box', async () => {
		const rows = await paletteRows('Aside: Focus', ['Focus']);
		const focusing = rows.filter((row) => /^Aside: Focus.*Chat/.test(row));
		assert.equal(focusing.length, 1, `one focus command for the chat, got ${JSON.stringify(rows)}`);

		const { hooks } = await activeAside();
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(workspaceFile('src/greeting.ts')));
		await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
		// The command that row runs: VS Code's own for the view (Aside's aside.focusChat is kept for links and keys, off the palette).
		assert.match(focusing[0] ?? '', /^Aside: Focus on Chat View/);
		await vscode.commands.executeCommand('aside.chat.focus');
		const text = 'typed after the palette focused the chat';
		const reached = waitForEvent(hooks.onDidAppend, (items: readonly TranscriptItem[]) => items.some((item) => item.kind === 'user' && item.text === text), 30_000, 'the keyboard-typed message');
		await driver('readChat');
		await driver('typeKeys', { text, then: 'Enter' });
		await reached;
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('offers Preview Workspace Reminder on a reminder file, and not on an ordinary file', async () => {
		await vscode.window.showTextDocument(reminder);
		const onReminder = await paletteRows('Aside: ', ['Aside: Choose a Provider']);
		assert.ok(onReminder.some((row) => row.includes('Aside: Preview Workspace Reminder')), `offered on .aside/reminders/palette.md, got ${JSON.stringify(onReminder)}`);

		await vscode.window.showTextDocument(workspaceFile('src/greeting.ts'));
		const onOrdinary = await paletteRows('Aside: ', ['Aside: Choose a Provider']);
		assert.ok(!onOrdinary.some((row) => row.includes('Aside: Preview Workspace Reminder')), `not offered on src/greeting.ts, got ${JSON.stringify(onOrdinary)}`);
	});
});
