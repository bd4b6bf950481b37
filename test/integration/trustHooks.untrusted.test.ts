// Hooks in Restricted Mode (the untrusted window, test/harness/integration.mjs): no hook runs at
// all — not the workspace's `.aside/hooks.json`, and not the person's own `aside.hooks`, which
// would run with the untrusted folder as cwd and CLAUDE_PROJECT_DIR — and the chat names what was
// not used. Sorted after trust.untrusted.test.ts on purpose: sending a message opens the network
// gate, which that file checks is still closed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeAside, type ChatReading, driver, workspaceFile } from './support';

describe('hooks in Restricted Mode', () => {
	const dir = mkdtempSync(join(tmpdir(), 'aside-hooks-untrusted-'));
	const aside = () => vscode.workspace.getConfiguration('aside');
	/** A hook that leaves a file named `name` in `dir` when it runs. */
	const marker = (name: string) => ({ type: 'command', command: `${JSON.stringify(process.execPath)} -e ${JSON.stringify(`require('fs').writeFileSync(${JSON.stringify(join(dir, name))}, 'ran')`)}` });

	after(async () => {
		await aside().update('hooks', undefined, vscode.ConfigurationTarget.Global);
		rmSync(workspaceFile('.aside').fsPath, { recursive: true, force: true });
		rmSync(dir, { recursive: true, force: true });
	});

	it("runs neither the workspace's hooks nor the user's own, and the chat names both", async () => {
		const { api } = await activeAside();
		assert.equal(vscode.workspace.isTrusted, false);
		const file = workspaceFile('.aside/hooks.json').fsPath;
		mkdirSync(workspaceFile('.aside').fsPath, { recursive: true });
		writeFileSync(file, JSON.stringify({ SessionStart: [{ hooks: [marker('workspace-session-start')] }], UserPromptSubmit: [{ hooks: [marker('workspace-prompt')] }] }));
		await aside().update('hooks', { SessionStart: [{ hooks: [marker('user-session-start')] }], UserPromptSubmit: [{ hooks: [marker('user-prompt')] }] }, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
		const result = await api.sendMessage('Hello, hooks.');
		assert.equal(result.outcome, 'done', result.error);
		assert.deepEqual(readdirSync(dir), [], 'no hook process ran');
		const said = (notices: readonly string[]) =>
			notices.some((text) => text.includes('No hook runs in an untrusted workspace (Restricted Mode), not even your own (the setting aside.hooks)')) &&
			notices.some((text) => text.startsWith('Restricted Mode:') && text.includes('hooks (.aside/hooks.json)'));
		const deadline = Date.now() + 30_000;
		let chat = await driver<ChatReading>('readChat');
		while (!said(chat.notices) && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 250));
			chat = await driver<ChatReading>('readChat');
		}
		assert.ok(said(chat.notices), `the chat's notices: ${JSON.stringify(chat.notices)}`);
	});
});
