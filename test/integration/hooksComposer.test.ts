// What the person sees of their UserPromptSubmit hooks in the real chat webview: the context a
// hook added shows as the message's collapsed `◇ hook context` part, and a message the hook
// blocked is not sent and comes back into the composer, with the hook's reason as a notice.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import type { TranscriptItem } from '../../src/protocol/messages';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, useScriptedServer } from './support';

describe('UserPromptSubmit hooks in the chat view', function () {
	let server: ModelServer | undefined;
	let restore: (() => Promise<void>) | undefined;
	const dir = mkdtempSync(join(tmpdir(), 'aside-hooks-view-it-'));
	const aside = () => vscode.workspace.getConfiguration('aside');

	before(async function () {
		if (!hasDriver) {
			this.skip();
		}
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
		// Blocks a message that says "forbidden" (exit 2, the reason on stderr, as Claude Code's do); adds context to any other.
		const gate = join(dir, 'gate.js');
		writeFileSync(gate, `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const e=JSON.parse(s);if(String(e.prompt).includes('forbidden')){process.stderr.write('the gate hook refuses forbidden words');process.exit(2);}console.log('ticket ASIDE-16 is open');});`);
		await aside().update('hooks', { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(gate)}`, timeout: 30 }] }] }, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
	});

	after(async () => {
		await aside().update('hooks', undefined, vscode.ConfigurationTarget.Global);
		await restore?.();
		await server?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	const scripted = (): ModelServer => {
		assert.ok(server, 'the model server runs');
		return server;
	};
	const completions = (): number => scripted().requests.filter((request) => request.path.includes('/chat/completions')).length;

	it('shows the context the hook added as the message\'s collapsed hook-context part', async () => {
		const { hooks } = await activeAside();
		scripted().script({ text: 'Noted.' });
		const ended = waitForEvent(hooks.onDidAppend, (items: readonly TranscriptItem[]) => items.some((item) => item.kind === 'turn-end'), 60_000, 'the end of the turn');
		await driver('typeInChat', { text: 'What ticket is open?' });
		await ended;
		const row = await driver<{ text: string; hookContext: string[] }>('readUserRow', { waitForHookContext: true });
		assert.equal(row.text, 'What ticket is open?');
		assert.deepEqual(row.hookContext, ['◇ hook context (UserPromptSubmit)']);
	});

	it('a message the hook blocked is not sent and comes back into the empty composer, with the reason', async () => {
		const before = completions();
		await driver('typeInChat', { text: 'deploy the forbidden branch' });
		const composer = await driver<{ value: string; notices: string[] }>('readComposer', { waitForValue: 'deploy the forbidden branch' });
		assert.equal(composer.value, 'deploy the forbidden branch', 'the text is back in the box');
		assert.equal(composer.notices.filter((notice) => notice.includes('the gate hook refuses forbidden words')).length, 1, `the reason, said once: ${composer.notices.join(' | ')}`);
		assert.equal(completions(), before, 'nothing was sent to the model');
	});
});
