// After the window reload (a fresh extension host over the same storage, see
// test/harness/integration.mjs): the session is current again, whole, and continues — its
// history replayed into the next request, with one session.resume reminder.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptItem } from '../../src/protocol/messages';
import { startModelServer } from '../harness/modelServer.mjs';
import * as vscode from 'vscode';
import { activeAside, driver, hasDriver, type OpenAIMessage, RELOAD_NOTE, type TasksReading, useScriptedServer } from './support';

describe('after a window reload', () => {
	const note = JSON.parse(readFileSync(join(process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp', RELOAD_NOTE), 'utf8')) as { sessionId: string; items: TranscriptItem[] };

	it('reopens the session that was current, with every row', async () => {
		const { hooks } = await activeAside();
		assert.equal(hooks.currentSessionId(), note.sessionId);
		assert.deepEqual(hooks.currentSessionItems(), note.items);
	});

	it('has its task list: the panel shows the rows TaskWrite wrote before the reload', async function () {
		if (!hasDriver) {
			this.skip();
		}
		await vscode.commands.executeCommand('aside.focusChat');
		const tasks = await driver<TasksReading>('readTasks', { expand: true, waitFor: '2 open tasks' });
		assert.deepEqual([tasks.shown, tasks.summary], [true, '2 open tasks of 2 · Survey the workspace']);
		assert.deepEqual(tasks.rows, [
			{ id: 'survey', status: 'in_progress', title: 'Survey the workspace', owner: null },
			{ id: 'report', status: 'pending', title: 'Report what is in it', owner: null },
		]);
	});

	it('continues it: the next request replays the history and says the session was resumed, once', async () => {
		const { api } = await activeAside();
		const server = await startModelServer({ models: ['scripted-model'] });
		const restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model' });
		try {
			server.script({ text: 'Continuing where we left off.' });
			const result = await api.sendMessage('And what is in src?');
			assert.equal(result.outcome, 'done', result.error);
			assert.equal(result.sessionId, note.sessionId, 'the same session');
			const request = server.requests.find((received) => received.path.endsWith('/chat/completions'));
			const messages = ((request?.body ?? {}) as { messages?: OpenAIMessage[] }).messages ?? [];
			assert.deepEqual(
				messages.map((message) => message.role),
				['system', 'user', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user', 'user'],
				'system, the earlier turn (its date reminder, tool calls and results), the new message, the resume reminder',
			);
			assert.equal(messages[1]?.content, 'What is in this workspace?');
			assert.match(messages[2]?.content ?? '', /^<system-reminder key="session\.date">\nToday's date is /, 'the earlier delivery, replayed exactly where it was');
			assert.equal(messages[4]?.tool_call_id, 'call_list');
			assert.equal(messages[5]?.tool_call_id, 'call_tasks');
			assert.equal(messages[7]?.content, 'And what is in src?');
			const reminder = messages[8]?.content ?? '';
			assert.match(reminder, /^<system-reminder key="session\.resume">\nThis session was reopened after VS Code reloaded or restarted; it last recorded activity at \d{4}-\d\d-\d\dT/);
			assert.equal(reminder.split('<system-reminder').length - 1, 1);
		} finally {
			await restore();
			await server.close();
		}
	});
});
