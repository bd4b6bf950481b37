// Compaction in the real extension host with the scripted model server: a chat pushed past
// aside.context.autoCompactAt (a small aside.contextWindow and scripted usage) is compacted before
// the next request, which holds the summary and not the old prefix, lists the files read before
// (compact.file-references) and gives the path-scoped AGENTS.md of the folder read before again
// without a new Read; `/compact` typed into the real composer compacts and the view shows the
// compaction row; a provider's "prompt is too long" refusal leads to one compaction and a
// successful retry.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, messagesOf, until, useScriptedServer, workspaceFile } from './support';

/** Every summary request carries the summary prompt: the scripted server answers it by this. */
const SUMMARY_MATCH = 'is about to be compacted';
const global = vscode.ConfigurationTarget.Global;

/** The last message of an OpenAI-compatible request: the reminders it carried. */
const lastText = (request: Parameters<typeof messagesOf>[0]): string => messagesOf(request).at(-1)?.content ?? '';
const keysIn = (text: string): string[] => [...text.matchAll(/<system-reminder key="([^"]+)">/g)].map((match) => match[1] ?? '');

describe('compaction, in VS Code', function () {
	const aside = vscode.workspace.getConfiguration('aside');
	const folder = () => workspaceFile('src/compacted');

	before(async () => {
		mkdirSync(folder().fsPath, { recursive: true });
		writeFileSync(workspaceFile('src/compacted/AGENTS.md').fsPath, 'Keep every function in src/compacted pure.\n');
		writeFileSync(workspaceFile('src/compacted/util.ts').fsPath, 'export const twice = (n: number) => n * 2;\n');
		await aside.update('contextWindow', 2000, global);
		await aside.update('maxOutputTokens', 256, global);
	});

	after(async () => {
		await aside.update('contextWindow', undefined, global);
		await aside.update('maxOutputTokens', undefined, global);
		rmSync(folder().fsPath, { recursive: true, force: true });
	});

	describe('over the OpenAI-compatible API', function () {
		let server: ModelServer;
		let restore: () => Promise<void>;

		before(async () => {
			server = await startModelServer({ models: ['scripted-model'] });
			restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'full-access' });
			await vscode.commands.executeCommand('aside.newChat');
		});

		after(async () => {
			await restore();
			await server.close();
		});

		it('Aside: Compact Chat says why it cannot compact an empty chat, and sends nothing', async () => {
			await vscode.commands.executeCommand('aside.newChat');
			const before = chatRequests(server).length;
			assert.equal(await vscode.commands.executeCommand('aside.compactChat'), 'There is nothing to compact yet.');
			assert.equal(chatRequests(server).length, before);
		});

		it('a chat past the threshold is compacted before the next request: the summary, no old prefix, the files read before and the nested AGENTS.md again', async () => {
			const { api, hooks } = await activeAside();
			server.script(
				{ toolCalls: [{ id: 'call_read', name: 'Read', input: { path: 'src/compacted/util.ts' } }], usage: { input: 300, output: 10 } },
				// 1,700 of 2,000 tokens: past 0.8 of the window.
				{ text: 'util.ts doubles numbers.', usage: { input: 1700, output: 10 } },
				{ match: SUMMARY_MATCH, text: 'The user asked about src/compacted/util.ts, which doubles numbers.' },
				{ text: 'Next, the tests.' },
			);
			assert.equal((await api.sendMessage('What does src/compacted/util.ts do?')).outcome, 'done');
			const before = chatRequests(server).length;
			assert.ok(lastText(chatRequests(server)[before - 1]).includes('Keep every function in src/compacted pure.'), 'the Read brought the AGENTS.md');

			assert.equal((await api.sendMessage('What next?')).outcome, 'done');
			const [summary, next] = chatRequests(server).slice(before);
			assert.equal(chatRequests(server).length, before + 2, 'the summary request and the turn\'s one request: no new Read');
			const summaryBody = summary?.body as { tools?: unknown[]; tool_choice?: unknown };
			assert.equal(summaryBody.tool_choice, 'none');
			assert.deepEqual(summaryBody.tools, (next?.body as { tools?: unknown[] }).tools, 'the same tool list as the conversation\'s requests');
			assert.match(messagesOf(summary).at(-1)?.content ?? '', /^The conversation above is about to be compacted/);

			const messages = messagesOf(next).map((message) => `${message.role}: ${message.content ?? ''}`);
			assert.match(messages[1] ?? '', /^user: <system-reminder key="context\.summary">[\s\S]*The user asked about src\/compacted\/util\.ts, which doubles numbers\./);
			assert.equal(messages[2], 'user: What next?');
			assert.ok(!messages.some((message) => message.includes('What does src/compacted/util.ts do?')), 'the old prefix is not replayed');
			const reminders = lastText(next);
			assert.deepEqual(keysIn(reminders).filter((key) => key === 'compact.file-references' || key === 'workspace.instructions').sort(), ['compact.file-references', 'workspace.instructions']);
			assert.match(reminders, /- src\/compacted\/util\.ts \(\d+ bytes; last read /);
			assert.ok(reminders.includes('Keep every function in src/compacted pure.'), 'the path-scoped AGENTS.md again');

			const compaction = hooks.currentSessionItems().find((item) => item.kind === 'compaction');
			assert.ok(compaction?.kind === 'compaction');
			assert.equal(compaction.cause, 'auto');
			assert.ok(compaction.tokensBefore >= 1710, `${compaction.tokensBefore}`);
		});

		it('/compact typed in the composer compacts the chat, with what to keep, and the view shows the compaction row', async function () {
			if (!hasDriver) {
				this.skip();
			}
			const { hooks } = await activeAside();
			const compactions = () => hooks.currentSessionItems().filter((item) => item.kind === 'compaction').length;
			const had = compactions();
			const before = chatRequests(server).length;
			server.script({ match: SUMMARY_MATCH, text: 'Manual summary: the tests come next.' });
			await driver('typeInChat', { text: '/compact keep the decision about tests' });
			await until(compactions, (count) => count === had + 1, 'the manual compaction');
			const summary = chatRequests(server)[before];
			assert.match(JSON.stringify(summary?.body), /keep the decision about tests/);
			const { rows } = await driver<{ rows: { kind: string; text: string }[] }>('readRows', { waitForKind: 'compaction' });
			const shown = rows.filter((row) => row.kind === 'compaction');
			assert.ok(shown.length >= 1, JSON.stringify(rows));
			assert.match(shown.at(-1)?.text ?? '', /Chat compacted · .* tokens → /);
			assert.ok(!hooks.currentSessionItems().some((item) => item.kind === 'user' && item.text.startsWith('/compact')), 'not sent as a message');
		});
	});

	describe('over the Anthropic API', function () {
		let server: ModelServer;
		let restore: () => Promise<void>;

		before(async () => {
			server = await startModelServer({ models: ['claude-scripted'] });
			restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', mode: 'full-access', apiKey: 'sk-ant-compaction-test' });
			await vscode.commands.executeCommand('aside.newChat');
		});

		after(async () => {
			await restore();
			await server.close();
		});

		it('a "prompt is too long" refusal leads to one compaction and a successful retry', async () => {
			const { api, hooks } = await activeAside();
			const requests = () => server.requests.filter((request) => request.path === '/v1/messages');
			server.script({ text: 'Hello there.' });
			assert.equal((await api.sendMessage('Hi')).outcome, 'done');
			server.script(
				{ status: 400, errorType: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
				{ match: SUMMARY_MATCH, text: 'The user greeted the assistant.' },
				{ text: 'Retried and answered.' },
			);
			const outcome = await api.sendMessage('Tell me more.');
			assert.equal(outcome.outcome, 'done', outcome.error);
			assert.equal(requests().length, 4, 'the first turn, the refused request, the summary, the retry');
			assert.deepEqual((requests()[2]?.body as { tool_choice?: unknown }).tool_choice, { type: 'none' });
			const retry = requests()[3]?.body as { messages: { role: string; content: { type: string; text?: string }[] }[] };
			const first = retry.messages[0]?.content.map((block) => block.text ?? '').join('\n') ?? '';
			assert.match(first, /<system-reminder key="context\.summary">[\s\S]*The user greeted the assistant\./);
			assert.ok(!JSON.stringify(retry.messages).includes('Hello there.'), 'the old prefix is not replayed');
			const compaction = hooks.currentSessionItems().find((item) => item.kind === 'compaction');
			assert.equal(compaction?.kind === 'compaction' ? compaction.cause : undefined, 'overflow');
		});
	});
});
