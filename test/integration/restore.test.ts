// Restore… in the real extension host, on the scripted model server: an edit turn, then
// Restore files puts the old content back through VS Code's documents and the next request
// carries session.rewind; Restore chat continues from the earlier point (the next request's
// history lacks the rolled-back turn) and the chat shows the restored row below the turns.
// The files case fails, never skips, when the window kept nothing: it first checks that the edit's
// earlier text was kept, then that Restore wrote it back.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, useScriptedServer, workspaceFile } from './support';

const FILE = 'restore-target.txt';
const REWIND = /<system-reminder key="session\.rewind">\n([\s\S]*?)\n<\/system-reminder>/g;
const rewindsIn = (contents: readonly string[]): string[] => contents.flatMap((content) => [...content.matchAll(REWIND)].map((match) => match[1] ?? ''));

/** The id of the current chat's user row whose text is `text`. */
async function userRow(text: string): Promise<string> {
	const { hooks } = await activeAside();
	const row = hooks.currentSessionItems().find((item) => item.kind === 'user' && item.agent === undefined && item.text === text);
	assert.ok(row, `the row of "${text}"`);
	return row.id;
}

describe('Restore… in VS Code', function () {
	let server: ModelServer;
	let restoreSettings: () => Promise<void>;

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restoreSettings = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'full-access' });
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.files.saveAll');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(workspaceFile(FILE).fsPath, { force: true });
		await restoreSettings();
		await server.close();
	});

	it('an edit turn, then Restore files: the old content is back (on disk and in the editor) and the next request carries session.rewind', async () => {
		const { api, hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		const path = workspaceFile(FILE).fsPath;
		writeFileSync(path, 'one\n');
		server.script(
			{ toolCalls: [{ id: 'call_read', name: 'Read', input: { path: FILE } }] },
			{ toolCalls: [{ id: 'call_edit', name: 'Edit', input: { path: FILE, old_string: 'one', new_string: 'two' } }] },
			{ text: 'Changed it.' },
		);
		assert.equal((await api.sendMessage('Change the file.')).outcome, 'done');
		assert.equal(readFileSync(path, 'utf8'), 'two\n');
		const store = hooks.checkpoints();
		assert.ok(store, 'this window keeps checkpoints');
		const kept = (await store.entries(hooks.currentSessionId())).filter((entry) => entry.path === path);
		assert.equal(kept.length, 1, `the edit kept one checkpoint of ${FILE}: ${JSON.stringify(kept)}`);
		assert.equal(await store.text(kept[0]?.before ?? ''), 'one\n', 'the earlier text is kept');
		const restored = await hooks.restore(await userRow('Change the file.'), 'files');
		assert.equal(restored.tracked, true, 'the preview sees the kept checkpoints');
		assert.ok(restored.ok, restored.message);
		assert.deepEqual(restored.files, [{ shown: FILE, action: 'change', done: true }]);
		assert.equal(readFileSync(path, 'utf8'), 'one\n');
		const document = vscode.workspace.textDocuments.find((open) => open.uri.fsPath === path);
		if (document) {
			assert.equal(document.getText(), 'one\n', 'the editor has the restored text');
			assert.equal(document.isDirty, false);
		}
		server.script({ text: 'Noted.' });
		const before = chatRequests(server).length;
		assert.equal((await api.sendMessage('What is in the file now?')).outcome, 'done');
		const next = messagesOf(chatRequests(server)[before]).map((message) => message.content ?? '');
		const found = rewindsIn(next);
		assert.equal(found.length, 1, `exactly one session.rewind: ${JSON.stringify(found)}`);
		assert.match(found[0] ?? '', /^The user restored the files Aside's tools changed to the state before their message "Change the file\." \(1 turn rolled back\)\./);
		assert.match(found[0] ?? '', new RegExp(`- ${FILE.replace('.', '\\.')}: put back as it was before that message`));
		const edited = next.flatMap((content) => [...content.matchAll(/<system-reminder key="files\.edited">\n([\s\S]*?)\n<\/system-reminder>/g)].map((match) => match[1] ?? ''));
		assert.deepEqual(edited, [], 'the restore is no outside change');
		// The restore kept its own writes: Undo… on its row puts back what it overwrote.
		const undone = await hooks.restore(restored.id ?? '', 'undo');
		assert.ok(undone.ok, undone.message);
		assert.deepEqual(undone.files, [{ shown: FILE, action: 'change', done: true }]);
		assert.equal(readFileSync(path, 'utf8'), 'two\n');
		const reopened = vscode.workspace.textDocuments.find((open) => open.uri.fsPath === path);
		assert.equal(reopened?.getText() ?? 'two\n', 'two\n', 'the editor has the text from before the restore');
		assert.equal((await hooks.restore(restored.id ?? '', 'undo')).ok, false, 'undone once');
	});

	it('Restore chat: the conversation continues from before the message, the next request lacks the rolled-back turn, the rows stay', async () => {
		const { api, hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		server.script({ text: 'Alpha noted.' }, { text: 'Beta noted.' });
		assert.equal((await api.sendMessage('Remember alpha.')).outcome, 'done');
		assert.equal((await api.sendMessage('Remember beta.')).outcome, 'done');
		const restored = await hooks.restore(await userRow('Remember beta.'), 'chat');
		assert.ok(restored.ok, restored.message);
		const rows = hooks.currentSessionItems();
		assert.deepEqual(
			rows.filter((item) => item.kind === 'user' || item.kind === 'restore').map((item) => item.kind),
			['user', 'user', 'restore'],
			'the rolled-back rows stay, above the restored row',
		);
		server.script({ text: 'Only alpha.' });
		const before = chatRequests(server).length;
		assert.equal((await api.sendMessage('What do you remember?')).outcome, 'done');
		const messages = messagesOf(chatRequests(server)[before]);
		// The person's words, without Aside's blocks (session.rewind quotes the message it restored to).
		const typed = messages.filter((message) => message.role === 'user').map((message) => (message.content ?? '').replace(/<system-reminder[\s\S]*?<\/system-reminder>/g, ''));
		assert.ok(typed.some((content) => content.includes('Remember alpha.')));
		assert.ok(!typed.some((content) => content.includes('Remember beta.')), 'the rolled-back message is not replayed');
		assert.ok(!messages.some((message) => message.role === 'assistant' && (message.content ?? '').includes('Beta noted.')), 'nor its answer');
		const found = rewindsIn(messages.map((message) => message.content ?? ''));
		assert.equal(found.length, 1);
		assert.match(found[0] ?? '', /The conversation continues from before that message/);
	});
});
