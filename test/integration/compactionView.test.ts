// A compacted chat in the real workbench's view: reopened from the chat list, it shows every
// earlier row above the compaction row, which expands to the summary as Markdown; the context
// line says the compaction's estimate (est.) with the threshold on the meter until the next
// answer reports usage; and the next request replays the summary and the kept tail, not the
// summarized prefix. The compaction record is written as the compaction would leave it.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, messagesOf, until, useScriptedServer } from './support';

interface ContextReading {
	readonly text: string;
	readonly meterShown: boolean;
	readonly percent: string | null;
}

interface CompactionReading {
	readonly order: readonly string[];
	readonly label: string;
	readonly instructions: string | null;
	readonly summary: string;
	readonly headings: readonly string[];
}

describe('a compacted chat in the view', function () {
	before(function () {
		if (!hasDriver) {
			// The rows and the context line are in the webview, which only the code-server tier can drive.
			this.skip();
		}
	});

	it('shows the rows above the compaction row, its summary, the estimate, and the next request replays summary and tail', async () => {
		const { api, hooks } = await activeAside();
		const aside = vscode.workspace.getConfiguration('aside');
		const id = `compacted-${Date.now()}`;
		const title = `A compacted chat ${Date.now()}`;
		const at = Date.now() - 60_000;
		const lines = [
			{ kind: 'session', v: 1, id, createdAt: at },
			{ kind: 'user', id: 'u1', turnId: 't1', at, text: 'Early question about the parser' },
			{ kind: 'meta', at, title },
			{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'r1', at: at + 1, text: 'Early answer.', toolCalls: [], stop: 'end', usage: { inputTokens: 150_000, outputTokens: 500 } },
			{ kind: 'turn-end', turnId: 't1', at: at + 2, outcome: 'done' },
			{ kind: 'user', id: 'u2', turnId: 't2', at: at + 3, text: 'Kept question' },
			{ kind: 'assistant', id: 'a2', turnId: 't2', requestId: 'r2', at: at + 4, text: 'Kept answer.', toolCalls: [], stop: 'end', usage: { inputTokens: 151_000, outputTokens: 100 } },
			{ kind: 'turn-end', turnId: 't2', at: at + 5, outcome: 'done' },
			{
				kind: 'compaction',
				id: 'k1',
				at: at + 6,
				cause: 'manual',
				keepFrom: 'u2',
				summary: '## Decisions\n\n- The parser keeps **tabs**.\n- <b>not markup</b>',
				tokensBefore: 151_100,
				tokensAfter: 1_200,
				instructions: 'the parser decisions',
			},
		];
		writeFileSync(join(hooks.sessionsDir, `${id}.jsonl`), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
		const server = await startModelServer({ models: ['scripted-model'] });
		const restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model' });
		await aside.update('contextWindow', 200_000, vscode.ConfigurationTarget.Global);
		try {
			await until(() => hooks.contextWindow(), (window) => window === 200_000, 'the window from the setting');
			await vscode.commands.executeCommand('aside.focusChat');
			await driver('openFromChatList', { title });
			await until(() => hooks.currentSessionId(), (current) => current === id, 'the chat opened from the list');

			const row = await driver<CompactionReading>('readCompaction');
			assert.deepEqual(row.order, ['user', 'assistant', 'user', 'assistant', 'compaction'], 'every earlier row stays above it');
			assert.equal(row.label, '◇ Chat compacted · 151.1k tokens → 1.2k (you asked)');
			assert.equal(row.instructions, 'You asked to keep: the parser decisions');
			assert.deepEqual(row.headings, ['Decisions']);
			assert.match(row.summary, /The parser keeps tabs\.[\s\S]*<b>not markup<\/b>/, 'Markdown rendered, HTML shown as text');

			const estimated = await driver<ContextReading>('readContext', { waitFor: '(est.)' });
			assert.match(estimated.text, /Context: 1\.2k \/ 200k tokens \(1%\) \(est\.\)/, estimated.text);
			assert.equal(estimated.meterShown, true);

			server.script({ text: 'Next answer.', usage: { input: 2_000, output: 40 } });
			const before = chatRequests(server).length;
			const result = await api.sendMessage('Next question');
			assert.equal(result.outcome, 'done', result.error);
			const [request] = chatRequests(server).slice(before);
			const messages = messagesOf(request);
			const sent = JSON.stringify(messages);
			assert.match(messages[1]?.content ?? '', /^<system-reminder key="context\.summary">\nThe earlier part of this chat was compacted/, 'the summary comes first after the system prompt');
			assert.deepEqual(messages.slice(2, 5).map((message) => [message.role, message.content]), [
				['user', 'Kept question'],
				['assistant', 'Kept answer.'],
				['user', 'Next question'],
			], 'then the kept tail and the new message');
			assert.ok(!sent.includes('Early question about the parser') && !sent.includes('Early answer.'), 'nothing of the summarized prefix');

			const reported = await driver<ContextReading>('readContext', { waitFor: '2k / 200k' });
			assert.match(reported.text, /Context: 2k \/ 200k tokens \(1%\)/, reported.text);
			assert.ok(!reported.text.includes('(est.)'), 'the answer reported its usage: no longer an estimate');
		} finally {
			await aside.update('contextWindow', undefined, vscode.ConfigurationTarget.Global);
			await restore();
			await server.close();
			await vscode.commands.executeCommand('aside.newChat');
		}
	});
});
