// Workspace reminders in Restricted Mode (the untrusted window, test/harness/integration.mjs):
// a workspace's `.aside/reminders/` files are not read, so none is sent — a cloned repository
// must not steer the agent before the person trusts it.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { InjectionRecord } from '../../src/reminders/record';
import { activeAside, workspaceFile } from './support';

const ALWAYS = `---
key: always
policy: every
---
Sent at every turn, in a trusted workspace.
`;

describe('workspace reminders in Restricted Mode', () => {
	after(() => {
		rmSync(workspaceFile('.aside').fsPath, { recursive: true, force: true });
	});

	it('an untrusted workspace fires none of its reminders', async () => {
		const { api, hooks } = await activeAside();
		assert.equal(vscode.workspace.isTrusted, false);
		mkdirSync(workspaceFile('.aside/reminders').fsPath, { recursive: true });
		writeFileSync(workspaceFile('.aside/reminders/always.md').fsPath, ALWAYS);
		// Read the folder now, as the watcher would: in a trusted window this registers the file.
		hooks.reloadWorkspaceReminders();
		assert.deepEqual(hooks.workspaceReminders(), { keys: [], problems: [] }, 'nothing was read');
		// A new chat: its first request carries reminders of its own (whatever an earlier test sent).
		await vscode.commands.executeCommand('aside.newChat');
		const recorded: InjectionRecord[] = [];
		const listening = api.onDidRecordInjection((record) => recorded.push(record));
		try {
			const result = await api.sendMessage('Hello from an untrusted workspace.');
			assert.equal(result.outcome, 'done', result.error);
		} finally {
			listening.dispose();
		}
		assert.ok(recorded.length > 0, 'the request carried reminders of its own (the date, the environment)');
		assert.deepEqual(recorded.flatMap((record) => record.entries).filter((entry) => entry.key.startsWith('workspace.') && entry.key !== 'workspace.instructions'), []);
		assert.deepEqual(hooks.workspaceReminders(), { keys: [], problems: [] }, 'nothing was read');
	});
});
