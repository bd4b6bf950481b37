// A goal with a token budget in the real extension host: set with `/goal` typed in the chat's
// composer (the real webview, the host's parsing, the goal record on disk), then a long tool loop
// on the scripted model server whose answers report usage. 50 % and 80 % are each reported once,
// at the request after the tool result that passed them; the 100 % the last answer passed goes
// with the next message's request, and that turn stops after its one step.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, messagesOf, transcriptLines, until, useScriptedServer } from './support';

/** How many goal.budget blocks reporting `percent` the request's last message (what it delivered) holds, whatever its content's shape. */
function reports(request: ReceivedRequest | undefined, percent: number): number {
	const last = JSON.stringify(messagesOf(request).at(-1) ?? {});
	return last.split(`key=\\"goal.budget\\">\\nThe goal's token budget: ${percent} % passed`).length - 1;
}

/** What each threshold report the chat's records say was delivered names ("50 %", "80 %, 100 %"); budget changes left out. */
function recordedReports(lines: readonly { kind: string; [key: string]: unknown }[]): string[] {
	return lines
		.filter((line) => line.kind === 'injected-reminders')
		.flatMap((line) => (line.entries as { key: string; body: string }[]).filter((entry) => entry.key === 'goal.budget').flatMap((entry) => /^The goal's token budget: ([\d %,]+) passed/.exec(entry.body)?.[1] ?? []));
}

/** Every answer costs 200 tokens (150 in, 50 out) against a budget of 1,000. */
const USAGE = { input: 150, output: 50 };
const list = (id: string) => ({ toolCalls: [{ id, name: 'TaskList', input: {} }], usage: USAGE });

describe('a goal with a token budget, in VS Code', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'plan' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
	});

	it('reports 50 % and 80 % once each during a long tool loop, and stops the next turn after its step at 100 %', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { api, hooks } = await activeAside();
		// The chat is stored with its first record: the goal's.
		await driver('typeInChat', { text: '/goal Keep the task list <b>tidy</b>' });
		const stored = () => existsSync(join(hooks.sessionsDir, `${hooks.currentSessionId()}.jsonl`));
		const goals = () => (stored() ? transcriptLines(hooks.sessionsDir, hooks.currentSessionId()).filter((record) => record.kind === 'goal') : []);
		await until(goals, (records) => records.length === 1, 'the goal record');
		await driver('typeInChat', { text: '/goal budget 1000' });
		await until(goals, (records) => records.length === 2, 'the budget record');
		assert.deepEqual(goals().map((record) => [record.change, record.objective, record.budget]), [['set', 'Keep the task list <b>tidy</b>', undefined], ['budget', 'Keep the task list <b>tidy</b>', 1000]]);
		assert.equal(chatRequests(server).length, 0, '/goal is never sent to the model');

		// 200, 400, 600 (50 %: after the third tool result), 800 (80 %), 1,000 (the answer: 100 %).
		server.script(list('call_1'), list('call_2'), list('call_3'), list('call_4'), { text: 'The list is tidy.', usage: USAGE });
		const result = await api.sendMessage('Tidy the task list, one look at a time.');
		assert.equal(result.outcome, 'done', result.error);
		const turn = chatRequests(server);
		assert.equal(turn.length, 5);
		assert.deepEqual(turn.map((request) => reports(request, 50)), [0, 0, 0, 1, 0], '50 %: once, at the request after the tool result that passed it');
		assert.deepEqual(turn.map((request) => reports(request, 80)), [0, 0, 0, 0, 1], '80 %: once');
		assert.deepEqual(turn.map((request) => reports(request, 100)), [0, 0, 0, 0, 0]);
		assert.deepEqual(recordedReports(transcriptLines(hooks.sessionsDir, hooks.currentSessionId())), ['50 %', '80 %']);
		assert.match(JSON.stringify(messagesOf(turn[0])), /<system-reminder key=\\"goal.current\\">\\nThe person set this goal for the chat\..*Objective: Keep the task list &lt;b&gt;tidy&lt;\/b&gt;\\nToken budget: 1,000 tokens/);

		server.script(list('call_5'), { text: 'not sent' });
		const next = await api.sendMessage('Go on.');
		assert.equal(next.outcome, 'done', next.error);
		const after = chatRequests(server).slice(5);
		assert.equal(after.length, 1, 'at 100 % the turn stops after its one step');
		assert.equal(reports(after[0], 100), 1, 'the 100 % the last answer passed rides the next request, once');
		assert.equal(reports(after[0], 50) + reports(after[0], 80), 0);
		assert.deepEqual(recordedReports(transcriptLines(hooks.sessionsDir, hooks.currentSessionId())), ['50 %', '80 %', '100 %'], 'each threshold delivered once, as the records say');
		assert.equal(goals().filter((record) => record.change === 'exhausted').length, 1, 'the stop is recorded');
	});
});
