// Permission modes in the real workbench, through the scripted model server: the mode picked in
// the view's toolbar is the chat's, and the request after the switch carries exactly one
// `mode.constraints` block, the next none; a one-message override from the composer does the
// same and the following message returns to the chat's mode. And the rules end to end: an allow
// rule runs a command without asking in ask mode, a deny rule refuses one, and a rule that does
// not parse is named while the others still apply. (Named to run before session.test.ts, which
// leaves the session the reload phase reopens current.)
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import type { TranscriptItem } from '../../src/protocol/messages';
import { parseReminders } from '../../src/reminders/envelope';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, lastUserText, until, useScriptedServer, workspaceFile } from './support';

/** The mode.constraints blocks a request carried (in its last user message: what this request added), by their first line. */
function constraints(request: ReceivedRequest | undefined): string[] {
	return parseReminders(lastUserText(request))
		.filter((block) => block.key === 'mode.constraints')
		.map((block) => block.body.split('\n', 1)[0] ?? '');
}

describe('permission modes in the real workbench', function () {
	let server: ModelServer | undefined;
	let restore: (() => Promise<void>) | undefined;
	const rules = () => vscode.workspace.getConfiguration('aside.permissions');

	before(async function () {
		if (!hasDriver) {
			// The toolbar and the composer are in the webview: only the browser driver reaches them.
			this.skip();
		}
		server = await startModelServer({ models: ['claude-scripted'] });
		restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', mode: 'ask', apiKey: 'sk-test-modes' });
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
	});

	after(async () => {
		await rules().update('rules', undefined, vscode.ConfigurationTarget.Global);
		await restore?.();
		await server?.close();
	});

	/** Types `text` in the composer and waits for its turn to end; returns the requests it made. */
	async function send(text: string): Promise<ReceivedRequest[]> {
		const { hooks } = await activeAside();
		assert.ok(server);
		const first = server.requests.length;
		const ended = waitForEvent(hooks.onDidAppend, (items: readonly TranscriptItem[]) => items.some((item) => item.kind === 'turn-end'), 60_000, `the end of the turn of "${text}"`);
		await driver('typeInChat', { text });
		await ended;
		return server.requests.slice(first).filter((request) => request.path === '/v1/messages');
	}

	it('the request after switching modes in the toolbar carries exactly one mode.constraints block, the next none', async () => {
		const { hooks } = await activeAside();
		assert.deepEqual((await send('Hello in ask mode.')).map(constraints), [['Permission mode now: ask.']], 'the first request of the chat');
		assert.deepEqual((await send('Still in ask mode.')).map(constraints), [[]], 'an unchanged mode is silent');

		await driver('selectInChat', { name: 'Permission mode of this chat', value: 'auto-edit' });
		await until(hooks.permissionMode, (mode) => mode === 'auto-edit', 'the chat to be in auto-edit');
		assert.deepEqual((await send('Now in auto-edit.')).map(constraints), [['Permission mode now: auto-edit.']], 'exactly one block after the switch');
		// What the chat shows of it: the reminders row above the message, opened (a picture for the docs).
		const row = await driver<{ entries: { key: string; body: string }[] }>('expandReminders', { which: 'last', screenshot: { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/mode-constraints.png`, clip: { x: 0, y: 0, width: 1100, height: 720 } } });
		assert.deepEqual(row.entries.map((entry) => entry.key), ['mode.constraints']);
		assert.match(row.entries[0]?.body ?? '', /^Permission mode now: auto-edit\.\n- Runs without asking: reading and searching/);
		assert.deepEqual((await send('Again in auto-edit.')).map(constraints), [[]], 'and none on the request after it');
	});

	it('a one-message override from the composer fires it once, and the next message returns to the chat\'s mode', async () => {
		const { hooks } = await activeAside();
		await driver('selectInChat', { name: 'Permission mode for the next message only', value: 'plan' });
		await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/mode-override.png` });
		assert.deepEqual((await send('Only look, this once.')).map(constraints), [['Permission mode now: plan.']]);
		assert.equal(hooks.permissionMode(), 'auto-edit', 'the chat keeps its own mode');
		assert.deepEqual((await send('Back to the chat\'s mode.')).map(constraints), [['Permission mode now: auto-edit.']]);
		assert.deepEqual((await send('And quiet again.')).map(constraints), [[]]);
	});

	it('rules end to end: an allow rule runs a command without asking in ask mode, a deny rule refuses one, a bad rule is named and the others apply', async () => {
		const { hooks } = await activeAside();
		await driver('selectInChat', { name: 'Permission mode of this chat', value: 'ask' });
		await until(hooks.permissionMode, (mode) => mode === 'ask', 'the chat to be in ask mode');
		await rules().update('rules', { allow: ['Run(echo*)', 'Run(echo'], deny: ['Run(rm *)'] }, vscode.ConfigurationTarget.Global);
		const problems = await until(hooks.settingProblems, (list) => list.some((problem) => problem.key === 'aside.permissions.rules'), 'the bad rule to be named', 15_000);
		assert.deepEqual(
			problems.filter((problem) => problem.key === 'aside.permissions.rules').map((problem) => problem.message),
			['The setting "aside.permissions.rules" has a bad rule in "allow": "Run(echo" (the pattern has no closing ")"); that rule is ignored, the others apply.'],
		);

		server?.script(
			{ toolCalls: [{ id: 'toolu_echo', name: 'Run', input: { command: 'echo allowed-by-rule' } }] },
			{ toolCalls: [{ id: 'toolu_rm', name: 'Run', input: { command: 'rm -rf modes-scratch' } }] },
			{ text: 'Done.' },
		);
		const asked: string[] = [];
		const watching = setInterval(() => {
			const pending = hooks.pendingApproval();
			if (pending !== undefined && !asked.includes(pending)) {
				asked.push(pending);
				// Deny whatever asks, so a wrong decision shows up as a question, never hangs the test.
				hooks.approve(pending, false);
			}
		}, 50);
		let requests: ReceivedRequest[];
		try {
			requests = await send('Echo, then remove the scratch folder.');
		} finally {
			clearInterval(watching);
		}
		assert.deepEqual(asked, [], 'neither call asked: one is allowed by a rule, the other refused by one');
		assert.equal(requests.length, 3);
		assert.match(lastUserText(requests[1]), /allowed-by-rule/, 'the echo ran and the model read its output');
		assert.match(lastUserText(requests[2]), /Not run: the rule Run\(rm \*\) in aside\.permissions\.rules "deny" refuses it\. Run did not run/);
		assert.deepEqual(requests.map(constraints), [['Permission mode now: ask.'], [], []], 'the rules changed what the model may do: told once, with the new rules');
		assert.match(parseReminders(lastUserText(requests[0])).find((block) => block.key === 'mode.constraints')?.body ?? '', /^ {2}allow: Run\(echo\*\)$/m);
	});

	it('a workspace\'s own settings cannot choose the mode or the rules, even trusted: only the user\'s settings do', async () => {
		const { hooks } = await activeAside();
		const file = workspaceFile('.vscode/settings.json').fsPath;
		const aside = () => vscode.workspace.getConfiguration('aside');
		const users = { mode: aside().inspect('permissions.mode')?.globalValue ?? 'ask', rules: aside().inspect('permissions.rules')?.globalValue ?? {} };
		const chatMode = hooks.permissionMode();
		assert.notEqual(users.mode, 'full-access');
		mkdirSync(dirname(file), { recursive: true });
		// What a cloned repository could ship: full access and every command allowed. The message
		// length is an ordinary setting, there to show that VS Code has read the file.
		writeFileSync(file, JSON.stringify({ 'aside.permissions.mode': 'full-access', 'aside.permissions.rules': { allow: ['Run', 'Edit'] }, 'aside.chat.maxMessageLength': 4321 }));
		try {
			await until(() => aside().get('chat.maxMessageLength'), (length) => length === 4321, 'VS Code to read the workspace settings', 30_000);
			assert.equal(aside().get('permissions.mode'), users.mode, 'the user\'s mode, not the workspace\'s');
			// VS Code lays the user's object over the setting's default (three empty lists).
			assert.deepEqual(aside().get('permissions.rules'), { allow: [], ask: [], deny: [], ...users.rules }, 'the user\'s rules, none from the workspace');
			assert.equal(hooks.permissionMode(), chatMode, 'the chat\'s mode is untouched');
		} finally {
			rmSync(dirname(file), { recursive: true, force: true });
			await until(() => aside().get('chat.maxMessageLength'), (length) => length !== 4321, 'the workspace settings to go', 30_000);
		}
	});
});
