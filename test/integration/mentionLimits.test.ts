// The @-mention bounds as settings (aside.mentions.*) in the real extension host: a changed
// setting applies to the next message, read by the real configuration.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, until, useScriptedServer, workspaceFile } from './support';

describe('mention bounds from the settings', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;
	const aside = vscode.workspace.getConfiguration('aside');
	const file = () => workspaceFile('many-lines.txt');

	before(async () => {
		writeFileSync(file().fsPath, Array.from({ length: 60 }, (_, i) => `row ${i + 1}`).join('\n'));
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
	});

	after(async () => {
		await aside.update('mentions.maxLines', undefined, vscode.ConfigurationTarget.Global);
		await restore();
		await server.close();
		rmSync(file().fsPath, { force: true });
	});

	it('aside.mentions.maxLines bounds the next @file attachment', async () => {
		const { api } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		server.script({ text: 'Whole.' }, { text: 'Bounded.' });
		assert.equal((await api.sendMessage('Look at @many-lines.txt')).outcome, 'done');
		assert.match(messagesOf(chatRequests(server).at(-1)).at(-1)?.content ?? '', /The user mentioned many-lines\.txt \(lines 1–60 of 60\)/);
		await aside.update('mentions.maxLines', 10, vscode.ConfigurationTarget.Global);
		await until(() => vscode.workspace.getConfiguration('aside').get('mentions.maxLines'), (value) => value === 10, 'the setting');
		await vscode.commands.executeCommand('aside.newChat');
		assert.equal((await api.sendMessage('Look at @many-lines.txt again')).outcome, 'done');
		const body = messagesOf(chatRequests(server).at(-1)).at(-1)?.content ?? '';
		assert.match(body, /The user mentioned many-lines\.txt \(lines 1–10 of 60\)/);
		assert.match(body, /offset=11/);
	});
});
