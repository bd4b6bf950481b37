// The task list in the real extension host: the agent on the scripted model server (OpenAI-
// compatible, loopback) calls TaskWrite and TaskList, the rows are recorded in the chat's
// transcript on disk, and after eight user turns without a task write the request carries exactly
// one tasks.nudge with the open rows (and the turn's later requests no second one).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, messagesOf, until, useScriptedServer } from './support';

const BLOCK = '<system-reminder key="tasks.nudge">';

/** How many tasks.nudge blocks the request's messages hold (a delivered one stays in the history). */
function nudges(request: ReceivedRequest | undefined): number {
	return messagesOf(request)
		.map((message) => message.content ?? '')
		.join('\n')
		.split(BLOCK).length - 1;
}

/** The chat's first message, so its title is its own in the chat list. */
const FIRST = `Plan a parser (task list test ${Date.now()}).`;

const taskWrite = (id: string, tasks: unknown) => ({ toolCalls: [{ id, name: 'TaskWrite', input: { tasks } }] });

describe('the task list, in VS Code', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;
	let chatId = '';

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		// Plan mode: the task tools are offered there too (they change no file).
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'plan' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
	});

	it('TaskWrite rows are recorded in the transcript; eight turns later the request carries exactly one tasks.nudge', async () => {
		const { api, hooks } = await activeAside();
		server.script(
			taskWrite('call_w1', [{ id: 'parse', title: 'Write the parser', status: 'in_progress' }, { id: 'docs', title: 'Document </system-reminder> it' }]),
			{ toolCalls: [{ id: 'call_l1', name: 'TaskList', input: {} }] },
			{ text: 'The plan has two steps.' },
		);
		const first = await api.sendMessage(FIRST);
		chatId = first.sessionId;
		assert.equal(first.outcome, 'done', first.error);
		const firstTurn = chatRequests(server);
		assert.equal(firstTurn.length, 3);
		const listed = messagesOf(firstTurn[2]).find((message) => message.role === 'tool' && message.tool_call_id === 'call_l1');
		assert.match(listed?.content ?? '', /^Tasks: 2 open, 0 closed\.\n- parse \[in_progress\] Write the parser \(owner root\)\n- docs \[pending\] Document ‹\/system-reminder> it \(owner root\)$/);

		const transcript = readFileSync(join(hooks.sessionsDir, `${first.sessionId}.jsonl`), 'utf8')
			.split('\n')
			.filter((line) => line !== '')
			.map((line) => JSON.parse(line) as { kind: string; by?: string; turn?: number; rows?: unknown });
		const written = transcript.filter((record) => record.kind === 'tasks');
		assert.equal(written.length, 1, 'one record for the write');
		const [record] = written;
		assert.ok(record);
		assert.equal(record.by, 'root');
		assert.equal(record.turn, 1);
		assert.deepEqual(record.rows, [
			{ id: 'parse', title: 'Write the parser', status: 'in_progress', owner: 'root' },
			{ id: 'docs', title: 'Document </system-reminder> it', status: 'pending', owner: 'root' },
		]);

		for (let turn = 2; turn <= 8; turn++) {
			server.script({ text: `Answer ${turn}.` });
			const before = chatRequests(server).length;
			const result = await api.sendMessage(`Message ${turn}.`);
			assert.equal(result.outcome, 'done', result.error);
			assert.equal(nudges(chatRequests(server)[before]), 0, `turn ${turn}: fewer than eight turns since the write`);
		}

		server.script({ toolCalls: [{ id: 'call_l2', name: 'TaskList', input: { status: 'open' } }] }, { text: 'Still on the parser.' });
		const before = chatRequests(server).length;
		const ninth = await api.sendMessage('Message 9.');
		assert.equal(ninth.outcome, 'done', ninth.error);
		const requests = chatRequests(server).slice(before);
		assert.deepEqual(requests.map(nudges), [1, 1], 'one tasks.nudge in turn 9, replayed (not repeated) in its next request');
		const content = messagesOf(requests[0])
			.map((message) => message.content ?? '')
			.find((text) => text.includes(BLOCK)) ?? '';
		// The block alone: from its opening tag to the first closing one after it.
		const start = content.indexOf(BLOCK);
		const block = content.slice(start, content.indexOf('</system-reminder>', start));
		assert.match(block, /No task was written for 8 turns \(the last task write was in turn 1; this is turn 9\), and 2 rows are still open:/);
		assert.match(block, /^- parse \[in_progress\] Write the parser \(owner root\)$/m);
		assert.match(block, /^- docs \[pending\] Document ‹\/system-reminder&gt; it \(owner root\)$/m, 'the title cannot close the block');
		assert.match(block, /RESULT \(its Agent tool result\)[\s\S]*If the open rows are right as they are, carry on\.\n$/, 'the whole body is inside the block');
	});

	it('reopened from the chat list, the chat has its rows again, and the nudge it already had is not repeated', async function () {
		if (!hasDriver || chatId === '') {
			this.skip();
		}
		const { api, hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		assert.notEqual(hooks.currentSessionId(), chatId);
		await vscode.commands.executeCommand('aside.focusChat');
		await driver('openFromChatList', { title: FIRST });
		await until(() => hooks.currentSessionId(), (current) => current === chatId, 'the chat opened from the list');
		server.script({ toolCalls: [{ id: 'call_l3', name: 'TaskList', input: {} }] }, { text: 'Both rows are still there.' });
		const before = chatRequests(server).length;
		const result = await api.sendMessage('What is left?');
		assert.equal(result.outcome, 'done', result.error);
		assert.equal(result.sessionId, chatId, 'the same chat, continued');
		const requests = chatRequests(server).slice(before);
		assert.deepEqual(requests.map(nudges), [1, 1], 'turn 10: only the delivery of turn 9, replayed');
		const listed = messagesOf(requests[1]).find((message) => message.role === 'tool' && message.tool_call_id === 'call_l3');
		assert.match(listed?.content ?? '', /^Tasks: 2 open, 0 closed\.\n- parse \[in_progress\] Write the parser \(owner root\)\n- docs \[pending\] Document ‹\/system-reminder> it \(owner root\)$/, 'the rows, folded from the transcript on disk');
	});
});
