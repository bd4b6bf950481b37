// Before the window reload: a session with a tool call in it, left current. Its id and texts go
// to a file that session.reload.test.ts (the second window) reads.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startModelServer } from '../harness/modelServer.mjs';
import { activeAside, RELOAD_NOTE, useScriptedServer } from './support';

describe('a session to reopen after the reload', () => {
	it('is recorded as it happens and left current', async () => {
		const { api, hooks } = await activeAside();
		const server = await startModelServer({ models: ['scripted-model'] });
		const restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model' });
		try {
			await vscode.commands.executeCommand('aside.newChat');
			server.script(
				{
					toolCalls: [
						{ id: 'call_list', name: 'List', input: {} },
						{ id: 'call_tasks', name: 'TaskWrite', input: { tasks: [{ id: 'survey', title: 'Survey the workspace', status: 'in_progress' }, { id: 'report', title: 'Report what is in it' }] } },
					],
				},
				{ text: 'There are two folders.' },
			);
			const result = await api.sendMessage('What is in this workspace?');
			assert.equal(result.outcome, 'done', result.error);
			const items = hooks.currentSessionItems();
			// The date reminder goes with the first message of a session.
			assert.deepEqual(items.map((item) => item.kind), ['user', 'reminders', 'tool', 'tool', 'assistant', 'turn-end']);
			writeFileSync(join(process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp', RELOAD_NOTE), JSON.stringify({ sessionId: result.sessionId, items }));
		} finally {
			await restore();
			await server.close();
		}
	});
});
