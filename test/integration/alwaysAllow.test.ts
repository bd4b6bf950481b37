// "Always allow" end to end, in the real workbench over the scripted model server in ask mode:
// the Run card shows the rule it would save; choosing it (a click in the chat, as the person
// would) allows the call, writes the rule into the user settings — after the person's own rules,
// which stay as they were, and never into the workspace's — the chat says what was saved, and the
// next identical call runs without a card.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, type ChatReading, chatRequests, driver, hasDriver, toolResult, until, useScriptedServer } from './support';

describe('"Always allow" on a Run card', function () {
	let server: ModelServer | undefined;
	let restore: (() => Promise<void>) | undefined;
	const permissions = () => vscode.workspace.getConfiguration('aside.permissions');
	let userRules: unknown;

	before(async function () {
		if (!hasDriver) {
			// The card is in the webview: only the browser driver reaches it.
			this.skip();
		}
		userRules = permissions().inspect('rules')?.globalValue;
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
		// The chat's webview is up (the first one of a window takes a while).
		await driver('readChat');
	});

	after(async () => {
		await permissions().update('rules', userRules, vscode.ConfigurationTarget.Global);
		await restore?.();
		await server?.close();
	});

	it('allows the call, saves the rule after the person\'s own in the user settings, says so, and the next identical call runs without a card', async () => {
		const { api, hooks } = await activeAside();
		assert.ok(server);
		const theirs = { deny: ['Run(rm -rf *)'], allow: ['Run(ls *)'], ask: ['Run(git push *)'] };
		await permissions().update('rules', theirs, vscode.ConfigurationTarget.Global);
		server.script(
			{ toolCalls: [{ id: 'toolu_first', name: 'Run', input: { command: 'echo aside-always first' } }] },
			{ toolCalls: [{ id: 'toolu_second', name: 'Run', input: { command: 'echo aside-always first' } }] },
			{ text: 'Echoed twice.' },
		);
		const first = chatRequests(server).length;
		const sent = api.sendMessage('Echo it twice.');
		await until(() => hooks.pendingApproval(), (id) => id === 'toolu_first', 'the Run card');
		const asked: string[] = [];
		// Whatever asks after the first call is a failure: it is denied, so the test cannot hang on it.
		const watching = setInterval(() => {
			const pending = hooks.pendingApproval();
			if (pending !== undefined && pending !== 'toolu_first' && !asked.includes(pending)) {
				asked.push(pending);
				hooks.approve(pending, false);
			}
		}, 50);
		try {
			await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/always-allow.png` });
			await driver('clickInChat', { name: 'Always allow Run(echo aside-always first *)' });
			const result = await sent;
			assert.equal(result.outcome, 'done', result.error);
		} finally {
			clearInterval(watching);
		}
		assert.deepEqual(asked, [], 'the second, identical call ran without a card');
		const saved = permissions().inspect('rules');
		assert.ok(saved);
		assert.deepEqual(saved.globalValue, { deny: ['Run(rm -rf *)'], allow: ['Run(ls *)', 'Run(echo aside-always first *)'], ask: ['Run(git push *)'] }, 'theirs kept, in order; the rule added at the end of "allow"');
		assert.equal(saved.workspaceValue, undefined, 'never the workspace settings');
		assert.equal(chatRequests(server).length - first, 3);
		assert.match(toolResult(server, 'toolu_first'), /aside-always first/, 'the first call ran');
		assert.match(toolResult(server, 'toolu_second'), /aside-always first/, 'the second call ran');
		const tools = hooks.currentSessionItems().flatMap((item) => (item.kind === 'tool' ? [{ callId: item.callId, verdict: item.verdict }] : []));
		assert.deepEqual(tools, [{ callId: 'toolu_first', verdict: 'granted' }, { callId: 'toolu_second', verdict: undefined }], 'only the first was asked about');
		const chat = await driver<ChatReading>('readChat');
		assert.ok(
			chat.notices.some((text) => text.includes('Saved `Run(echo aside-always first *)` to "allow" of "aside.permissions.rules" in your user settings')),
			`the chat says what was saved: ${JSON.stringify(chat.notices)}`,
		);
	});
});
