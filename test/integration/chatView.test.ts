import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import type { TranscriptItem } from '../../src/protocol/messages';
import { activeAside, type ChatReading, driver, hasDriver, workspaceFile } from './support';

/** The texts of the user rows among `items`. */
function userTexts(items: readonly TranscriptItem[]): string[] {
	return items.flatMap((item) => (item.kind === 'user' ? [item.text] : []));
}

describe('chat view in the real workbench', function () {
	before(async function () {
		if (!hasDriver) {
			// test-electron has no browser driver to type into the webview.
			this.skip();
		}
		// Start from an empty chat, whatever ran before.
		await vscode.commands.executeCommand('aside.newChat');
	});

	it('opens with Aside: Focus Chat and shows the honest empty state', async () => {
		await activeAside();
		await vscode.commands.executeCommand('aside.focusChat');
		// The view may still be coming back from being hidden: wait for the empty chat.
		const chat = await driver<ChatReading>('readChat', { waitForCount: 0 });
		assert.deepEqual(chat.userTexts, []);
		// code-server has no chat models and no provider is configured: the view says what to set up.
		assert.match(chat.emptyState ?? '', /No chat model is available in VS Code\. Install and sign in to an extension that provides chat models/);
		await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/chat-empty.png` });
	});

	it('carries a message typed into the webview to the host session and back into the view', async () => {
		const { hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.focusChat');
		const text = `Hello from the integration test — ${new Date().toISOString()} <b>not bold</b>`;
		const reached = waitForEvent(hooks.onDidAppend, (items: readonly TranscriptItem[]) => userTexts(items).includes(text), 60_000, 'the typed message in the host session');
		await driver('typeInChat', { text });
		await reached;
		assert.equal(userTexts(hooks.currentSessionItems()).at(-1), text, 'the host session holds the message');
		const chat = await driver<ChatReading>('readChat', { waitForText: text });
		assert.deepEqual(chat.userTexts, [text]);
		assert.ok(chat.title && text.startsWith(chat.title.replace(/…$/, '')), 'the session is titled after its first message');
		assert.equal(chat.emptyState, null);
		await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/chat-message.png` });
	});

	it('starts an empty chat with Aside: New Chat', async () => {
		const { hooks } = await activeAside();
		assert.ok(hooks.currentSessionItems().length > 0, 'the previous test left a message');
		await vscode.commands.executeCommand('aside.newChat');
		assert.equal(hooks.currentSessionItems().length, 0);
		const chat = await driver<ChatReading>('readChat', { waitForCount: 0 });
		assert.deepEqual(chat.userTexts, []);
		assert.equal(chat.title, 'New chat');
	});

	it('puts the cursor in the message box on Aside: Focus Chat, so typing goes straight in', async () => {
		const { hooks } = await activeAside();
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(workspaceFile('src/greeting.ts')));
		await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
		await vscode.commands.executeCommand('aside.focusChat');
		const text = 'typed without clicking';
		const reached = waitForEvent(hooks.onDidAppend, (items: readonly TranscriptItem[]) => userTexts(items).includes(text), 30_000, 'the keyboard-typed message');
		// Give the webview a moment to take the focus it was sent, as a person would.
		await driver<ChatReading>('readChat');
		await driver('typeKeys', { text, then: 'Enter' });
		await reached;
		const editor = vscode.window.activeTextEditor;
		assert.ok(!editor || !editor.document.getText().includes(text), 'nothing was typed into the editor');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('comes back whole after being hidden, with the cursor in the message box', async () => {
		const { hooks } = await activeAside();
		const before = userTexts(hooks.currentSessionItems());
		assert.ok(before.length > 0);
		// Another view in the side bar: the chat's page is discarded (no retained context).
		await vscode.commands.executeCommand('workbench.view.explorer');
		await vscode.commands.executeCommand('aside.focusChat');
		const text = 'typed after the view came back';
		const reached = waitForEvent(hooks.onDidAppend, (items: readonly TranscriptItem[]) => userTexts(items).includes(text), 30_000, 'the message typed after re-showing');
		const chat = await driver<ChatReading>('readChat', { waitForText: before.at(-1) });
		assert.deepEqual(chat.userTexts, before, 'the transcript is restored from the host');
		await driver('typeKeys', { text, then: 'Enter' });
		await reached;
	});

	it('applies a settings change to the open view, and falls back to the default for a bad value', async () => {
		const config = vscode.workspace.getConfiguration('aside.chat');
		try {
			await config.update('sendShortcut', 'ctrlEnter', vscode.ConfigurationTarget.Global);
			let chat = await pollChat((reading) => /Ctrl\+Enter to send/.test(reading.placeholder ?? ''));
			assert.match(chat.placeholder ?? '', /Ctrl\+Enter to send, Enter for a new line/);
			await config.update('sendShortcut', 'shift-space', vscode.ConfigurationTarget.Global);
			chat = await pollChat((reading) => /— Enter to send/.test(reading.placeholder ?? ''));
			assert.match(chat.placeholder ?? '', /Enter to send, Shift\+Enter for a new line/);
		} finally {
			await config.update('sendShortcut', undefined, vscode.ConfigurationTarget.Global);
		}
	});
});

async function pollChat(done: (reading: ChatReading) => boolean): Promise<ChatReading> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const reading = await driver<ChatReading>('readChat');
		if (done(reading) || Date.now() > deadline) {
			return reading;
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}
