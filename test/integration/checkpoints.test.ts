// Checkpoints in the real extension host: an agent Edit turn, through the scripted
// model and the real document writer, keeps the file's previous content in the store in the
// workspace's storage folder (read through the test hooks); deleting the chat from the chat list
// removes its transcript and its checkpoints. Runs before session.test.ts (file order), which
// leaves its chat current for the reload phase.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { hashText } from '../../src/checkpoints/blobs';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, until, useScriptedServer, workspaceFile } from './support';

const folder = () => workspaceFile('checkpoints-scratch').fsPath;

describe('checkpoints', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		mkdirSync(folder(), { recursive: true });
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'auto-edit' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
		rmSync(folder(), { recursive: true, force: true });
	});

	it('an Edit turn keeps the old content before the write, grouped by the turn; deleting the chat from the list removes its checkpoints', async function () {
		const { api, hooks } = await activeAside();
		const store = hooks.checkpoints();
		assert.ok(store, 'the window has a checkpoint store');
		assert.ok(store.dir.startsWith(join(hooks.sessionsDir, '..')), 'beside the transcripts, in the storage folder, not the workspace');
		const file = join(folder(), 'kept.ts');
		const before = `export const kept = 'before ${Date.now()}';\n`;
		writeFileSync(file, before);
		server.script(
			{ toolCalls: [{ id: 'call_read', name: 'Read', input: { path: 'checkpoints-scratch/kept.ts' } }] },
			{ toolCalls: [{ id: 'call_edit', name: 'Edit', input: { path: 'checkpoints-scratch/kept.ts', old_string: "'before", new_string: "'after" } }] },
			{ toolCalls: [{ id: 'call_write', name: 'Write', input: { path: 'checkpoints-scratch/made.ts', content: 'export const made = 1;\n' } }] },
			{ text: 'Changed it.' },
		);
		const title = `Checkpoint chat ${Date.now()}`;
		const result = await api.sendMessage(title);
		assert.equal(result.outcome, 'done', result.error);
		const after = await until(() => readFileSync(file, 'utf8'), (text) => text.includes("'after"), 'the edit on disk');

		const entries = await store.entries(result.sessionId);
		assert.deepEqual(
			entries.map((entry) => [entry.shown, entry.before === null ? null : 'kept', entry.after === null ? null : 'kept']),
			[
				['checkpoints-scratch/kept.ts', 'kept', 'kept'],
				['checkpoints-scratch/made.ts', null, 'kept'],
			],
		);
		const [edit, made] = entries;
		assert.ok(edit && made);
		assert.equal(edit.path, file);
		assert.equal(edit.before, hashText(before));
		assert.equal(await store.text(hashText(before)), before, 'the old content, as it was before the Edit');
		assert.equal(await store.text(edit.after ?? ''), after);
		assert.equal(made.turnId, edit.turnId, 'one user turn');
		const user = readFileSync(join(hooks.sessionsDir, `${result.sessionId}.jsonl`), 'utf8')
			.split('\n')
			.filter((line) => line !== '')
			.map((line) => JSON.parse(line) as { kind: string; turnId?: string })
			.find((record) => record.kind === 'user');
		assert.equal(edit.turnId, user?.turnId, "the user record's turn");
		const manifest = join(store.dir, 'chats', `${result.sessionId}.jsonl`);
		assert.equal(existsSync(manifest), true);
		assert.equal(existsSync(join(store.dir, 'blobs', hashText(before).slice(0, 2), hashText(before))), true);

		if (!hasDriver) {
			// The chat list is in the webview, which only the code-server tier can drive.
			this.skip();
		}
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
		await driver('deleteFromChatList', { title });
		await until(() => existsSync(manifest), (exists) => !exists, 'the chat\'s checkpoints removed');
		assert.equal(existsSync(join(hooks.sessionsDir, `${result.sessionId}.jsonl`)), false, 'its transcript is gone');
		assert.equal(await store.text(hashText(before)), undefined, 'its blobs no other chat names are gone');
		assert.deepEqual(await store.entries(result.sessionId), []);
	});
});
