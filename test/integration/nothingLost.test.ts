// A new user's first hour, in the real workbench driven through the chat's own UI: a message typed
// while the agent works and then caught by Stop comes back to the message box (never dropped);
// after Allow on an edit card the status says what happens next at once, with the card gone; and
// a failed turn offers Retry beside its error, which sends the same message once more (the model
// reads it once).
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, messagesOf, transcriptLines, until, useScriptedServer, workspaceFile } from './support';

const folder = () => workspaceFile('first-hour').fsPath;

describe('nothing typed is lost, and a decision shows at once', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	beforeEach(function () {
		// The webview is driven from the browser: not under test-electron.
		if (!hasDriver) {
			this.skip();
		}
	});

	before(async () => {
		mkdirSync(folder(), { recursive: true });
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.files.saveAll');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(folder(), { recursive: true, force: true });
		await restore();
		await server.close();
	});

	it('a message typed while the agent works, then Stop: it is back in the message box, not lost and not sent', async () => {
		const { hooks } = await activeAside();
		server.script({ delayMs: 60_000, text: 'too late' });
		const before = chatRequests(server).length;
		await driver('typeInChat', { text: 'Install the dependencies.' });
		await until(() => chatRequests(server).length, (n) => n > before, 'the request to reach the server');
		await driver('typeInChat', { text: 'use pnpm, not npm' });
		await driver('clickInChat', { name: 'Stop' });
		const composer = await driver<{ value: string; notices: string[] }>('readComposer', { waitForValue: 'use pnpm, not npm' });
		assert.equal(composer.value, 'use pnpm, not npm', 'back in the box');
		assert.ok(composer.notices.some((notice) => /stopped before your message reached it/.test(notice)), composer.notices.join(' | '));
		await until(() => hooks.agentBusy(), (busy) => !busy, 'the turn to end');
		const sessionId = hooks.currentSessionId();
		const lines = transcriptLines(hooks.sessionsDir, sessionId);
		assert.equal(lines.filter((line) => JSON.stringify(line).includes('use pnpm, not npm')).length, 0, 'it never reached the model, so no record has it');
		assert.equal(chatRequests(server).length, before + 1, 'and no request carried it');
	});

	it('Allow on an edit card: the card goes and the status stops asking for a decision in the same moment', async () => {
		const { hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		const file = join(folder(), 'decide.ts');
		writeFileSync(file, 'export const answer = 1;\n');
		server.script(
			{ toolCalls: [{ id: 'call_read', name: 'Read', input: { path: 'first-hour/decide.ts' } }] },
			{ toolCalls: [{ id: 'call_edit', name: 'Edit', input: { path: 'first-hour/decide.ts', old_string: 'answer = 1', new_string: 'answer = 2' } }] },
			{ delayMs: 3_000, text: 'Changed it.' },
		);
		await driver('typeInChat', { text: 'Make the answer 2.' });
		await until(() => hooks.pendingApproval(), (id) => id === 'call_edit', 'the edit card');
		const seen = await driver<{ card: boolean; status: string }>('decideAndReadStatus', { which: 'allow' });
		assert.equal(seen.card, false, 'the card went');
		assert.ok(seen.status !== '', 'a status is shown while the turn goes on');
		assert.doesNotMatch(seen.status, /^Waiting for you/i, `the status says what happens now: "${seen.status}"`);
		await until(() => hooks.agentBusy(), (busy) => !busy, 'the turn to end', 60_000);
	});

	it('a failed turn offers Retry beside its error; Retry sends the same message once more, and the model reads it once', async () => {
		const { hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		server.script({ status: 400, message: 'The scripted server refuses this request.' }, { text: 'Hello again.' });
		const before = chatRequests(server).length;
		await driver('typeInChat', { text: 'Say hello.' });
		await until(() => hooks.agentBusy(), (busy) => !busy, 'the failed turn to end');
		await driver('clickInChat', { name: 'Retry' });
		await until(() => chatRequests(server).length, (n) => n >= before + 2, 'the retried request');
		await until(() => hooks.agentBusy(), (busy) => !busy, 'the retried turn to end');
		const retried = messagesOf(chatRequests(server)[before + 1]).filter((message) => message.role === 'user' && message.content === 'Say hello.');
		assert.equal(retried.length, 1, 'the message once, though it was sent twice');
		const chat = await driver<{ userTexts: string[] }>('readChat', { waitForText: 'Say hello.' });
		assert.deepEqual(chat.userTexts, ['Say hello.', 'Say hello.'], 'both attempts are in the chat');
		const rows = await driver<{ rows: { kind: string; text: string }[] }>('readRows', {});
		const failed = rows.rows.filter((row) => row.kind === 'turn-end');
		assert.equal(failed.length, 1, 'the failed turn keeps its row, with its error');
		assert.doesNotMatch(failed[0]?.text ?? '', /Retry/, 'but no longer offers Retry');
	});
});
