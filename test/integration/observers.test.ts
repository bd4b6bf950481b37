// The stale-write guard and the observers' live settings in the real extension host: the agent
// on the scripted model server (OpenAI-compatible, loopback), the real tools writing through VS
// Code's document model, the person's edits made as an editor makes them (a WorkspaceEdit, not
// saved), and assertions on what was dispatched and what the files hold.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, toolResult, until, useScriptedServer, workspaceFile } from './support';

/** The person types into the open document, as the editor would: unsaved. */
async function personTypes(uri: vscode.Uri, text: string): Promise<vscode.TextDocument> {
	const document = await vscode.workspace.openTextDocument(uri);
	const edit = new vscode.WorkspaceEdit();
	edit.insert(uri, new vscode.Position(0, 0), text);
	assert.ok(await vscode.workspace.applyEdit(edit), 'the person\'s edit applied');
	assert.equal(document.isDirty, true, 'and it is not saved');
	return document;
}

const CHANGED = /^src\/stale\.ts changed since you last read it \(in the editor or on disk\), so the edit was not made and nothing was written\./;
const ORIGINAL = 'export const answer = 41;\n';

describe('the stale-write guard, in VS Code', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;
	const aside = vscode.workspace.getConfiguration('aside');
	const file = () => workspaceFile('src/stale.ts');

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'auto-edit' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	beforeEach(() => {
		writeFileSync(file().fsPath, ORIGINAL);
	});

	afterEach(async () => {
		await vscode.commands.executeCommand('workbench.action.files.saveAll');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(file().fsPath, { force: true });
	});

	after(async () => {
		await aside.update('editedFiles.maxDiffLines', undefined, vscode.ConfigurationTarget.Global);
		await restore();
		await server.close();
	});

	it('the person edits the file in the editor between the agent\'s Read and its Edit: the Edit is refused, their text is intact; Read again, then the Edit succeeds', async () => {
		const { api } = await activeAside();
		server.script({ toolCalls: [{ id: 'call_read_1', name: 'Read', input: { path: 'src/stale.ts' } }] }, { text: 'It answers 41.' });
		assert.equal((await api.sendMessage('What does src/stale.ts answer?')).outcome, 'done');

		const document = await personTypes(file(), '// the person was here\n');

		const edit = { path: 'src/stale.ts', old_string: 'answer = 41', new_string: 'answer = 42' };
		server.script(
			{ toolCalls: [{ id: 'call_edit_1', name: 'Edit', input: edit }] },
			{ toolCalls: [{ id: 'call_read_2', name: 'Read', input: { path: 'src/stale.ts' } }] },
			{ toolCalls: [{ id: 'call_edit_2', name: 'Edit', input: edit }] },
			{ text: 'Now it answers 42.' },
		);
		const result = await api.sendMessage('Make it answer 42.');
		assert.equal(result.outcome, 'done', result.error);

		assert.match(toolResult(server, 'call_edit_1'), CHANGED);
		assert.match(toolResult(server, 'call_read_2'), /1\t\/\/ the person was here\n\s+2\texport const answer = 41;/, 'the Read shows the person\'s unsaved text');
		assert.equal(toolResult(server, 'call_edit_2'), 'Edited src/stale.ts: replaced 1 occurrence.');
		assert.equal(document.getText(), '// the person was here\nexport const answer = 42;\n', 'the person\'s line is kept, and the edit made on top of it');
		assert.equal(document.isDirty, false, 'the edit saved the document');
		assert.equal(readFileSync(file().fsPath, 'utf8'), '// the person was here\nexport const answer = 42;\n');
	});

	it('a change made while the approval card is open is caught when the approved Edit runs', async () => {
		const { api, hooks } = await activeAside();
		await aside.update('permissions.mode', 'ask', vscode.ConfigurationTarget.Global);
		try {
			server.script(
				{ toolCalls: [{ id: 'call_read_3', name: 'Read', input: { path: 'src/stale.ts' } }] },
				{ toolCalls: [{ id: 'call_edit_3', name: 'Edit', input: { path: 'src/stale.ts', old_string: 'answer = 41', new_string: 'answer = 43' } }] },
				{ text: 'It changed under me; I will read it again.' },
			);
			const sent = api.sendMessage('Make it answer 43.');
			await until(() => hooks.pendingApproval(), (id) => id === 'call_edit_3', 'the approval card for the Edit');
			const document = await personTypes(file(), '// typed while the card was open\n');
			hooks.approve('call_edit_3', true);
			const result = await sent;
			assert.equal(result.outcome, 'done', result.error);
			assert.match(toolResult(server, 'call_edit_3'), CHANGED);
			assert.equal(document.getText(), `// typed while the card was open\n${ORIGINAL}`, 'nothing was written over the person\'s text');
			// (The workbench may auto-save the person's text; the agent's edit is on disk in no case.)
			assert.doesNotMatch(readFileSync(file().fsPath, 'utf8'), /answer = 43/);
		} finally {
			await aside.update('permissions.mode', 'auto-edit', vscode.ConfigurationTarget.Global);
		}
	});

	it('a changed aside.editedFiles.maxDiffLines applies in the open chat, without New Chat', async () => {
		const { api, hooks } = await activeAside();
		const long = (word: string) => Array.from({ length: 30 }, (_, n) => `export const ${word}${n} = ${n};`).join('\n') + '\n';
		writeFileSync(file().fsPath, long('before'));
		server.script({ toolCalls: [{ id: 'call_read_4', name: 'Read', input: { path: 'src/stale.ts' } }] }, { text: 'Thirty constants.' });
		assert.equal((await api.sendMessage('Read src/stale.ts.')).outcome, 'done');
		await aside.update('editedFiles.maxDiffLines', 10, vscode.ConfigurationTarget.Global);
		writeFileSync(file().fsPath, long('after'));
		await until(() => hooks.pendingEditedFiles(), (n) => n > 0, 'the file watcher to see the change');
		server.script({ text: 'It was rewritten.' });
		const first = chatRequests(server).length;
		assert.equal((await api.sendMessage('Did it change?')).outcome, 'done');
		const last = messagesOf(chatRequests(server)[first]).at(-1)?.content ?? '';
		assert.match(last, /<system-reminder key="files\.edited">/);
		assert.match(last, /src\/stale\.ts changed; it is now [^.]+\. The diff is longer than 10 lines\./);
	});
});
