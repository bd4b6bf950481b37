// Aside's default provider (vscode-lm) through the real Language Model API: a test extension
// (test/lmExtension/, loaded beside Aside by the harness) provides a chat model with
// vscode.lm.registerLanguageModelChatProvider, as GitHub Copilot does, and answers from the
// scripted model server. So a whole turn goes Aside → vscode.lm → another extension → the server
// and back, as a Copilot user's chat does; assertions are on what the server received.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ScriptedModels } from '../lmExtension/extension';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, messagesOf, transcriptLines, until, workspaceFile } from './support';

const LM_EXTENSION_ID = 'aside-tests.scripted-models';

interface WireMessage {
	readonly role: string;
	readonly content?: string | null;
	readonly tool_call_id?: string;
	readonly tool_calls?: readonly { readonly id: string; readonly function: { readonly name: string; readonly arguments: string } }[];
}

async function scriptedModels(): Promise<ScriptedModels> {
	const extension = vscode.extensions.getExtension<ScriptedModels>(LM_EXTENSION_ID);
	assert.ok(extension, `${LM_EXTENSION_ID} is loaded beside Aside by the harness`);
	return extension.activate();
}

describe('the default provider (vscode-lm) through the Language Model API', function () {
	let server: ModelServer;
	let models: ScriptedModels;
	const aside = vscode.workspace.getConfiguration('aside');

	before(async () => {
		server = await startModelServer({ models: ['scripted-lm'] });
		models = await scriptedModels();
		models.use(`${server.url}/v1`);
		// The default provider, its first model: what a person with only Copilot installed gets.
		await aside.update('provider', undefined, vscode.ConfigurationTarget.Global);
		await aside.update('model', undefined, vscode.ConfigurationTarget.Global);
		await activeAside();
		assert.equal(vscode.workspace.getConfiguration('aside').get('provider'), 'vscode-lm');
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		models.use(undefined);
		await server.close();
	});

	it('VS Code offers the other extension\'s model to Aside, selected by its vendor', async () => {
		const [model, ...others] = await vscode.lm.selectChatModels({ vendor: 'aside-scripted' });
		assert.equal(others.length, 0);
		assert.equal(model?.id, 'scripted-lm');
		assert.equal(model.maxInputTokens, 64_000);
	});

	it('a turn with a tool call: the call comes back as a tool call, its result goes to the model as a tool result, the answer is shown', async () => {
		const { api, hooks } = await activeAside();
		// A file of this test's own: the shared workspace's files are changed by other tests.
		mkdirSync(workspaceFile('lm').fsPath, { recursive: true });
		writeFileSync(workspaceFile('lm/greeting.ts').fsPath, 'export const greet = (name: string) => `Hello, ${name}!`;\n');
		server.script(
			{ text: 'Let me read it.', toolCalls: [{ id: 'call_lm_read', name: 'Read', input: { path: 'lm/greeting.ts' } }] },
			{ text: 'It greets by name.' },
		);
		const before = chatRequests(server).length;
		const result = await api.sendMessage('What does lm/greeting.ts do?');
		assert.equal(result.outcome, 'done', result.error);
		const [first, second, ...more] = chatRequests(server).slice(before);
		assert.equal(more.length, 0, 'two requests: the one that asked for the tool, the one with its result');
		const firstMessages = messagesOf(first) as WireMessage[];
		assert.equal(firstMessages[0]?.role, 'user', 'the API has no system role: the system prompt is the first user message');
		assert.match(firstMessages[0].content ?? '', /^You are Aside/);
		assert.match(firstMessages.at(-1)?.content ?? '', /What does lm\/greeting\.ts do\?/);
		const tools = ((first?.body ?? {}) as { tools?: { function: { name: string } }[] }).tools ?? [];
		assert.ok(tools.some((tool) => tool.function.name === 'Read'), 'the tools went through the API');
		const secondMessages = messagesOf(second) as WireMessage[];
		const call = secondMessages.find((message) => message.role === 'assistant' && message.tool_calls !== undefined);
		assert.equal(call?.tool_calls?.[0]?.id, 'call_lm_read');
		assert.equal(call.tool_calls[0].function.name, 'Read');
		assert.deepEqual(JSON.parse(call.tool_calls[0].function.arguments), { path: 'lm/greeting.ts' });
		const toolResult = secondMessages.find((message) => message.role === 'tool');
		assert.equal(toolResult?.tool_call_id, 'call_lm_read');
		assert.match(toolResult.content ?? '', /Hello, \$\{name\}!/, 'the file the Read returned');
		const answer = hooks.currentSessionItems().findLast((item) => item.kind === 'assistant');
		assert.equal(answer?.kind === 'assistant' ? answer.text : '', 'It greets by name.');
	});

	it("the context line counts with the model's own token counter, against the model's window", async () => {
		const { api, hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		server.script({ text: 'Counted.' });
		const start = models.counted.length;
		const result = await api.sendMessage('Count me.');
		assert.equal(result.outcome, 'done', result.error);
		const record = transcriptLines(hooks.sessionsDir, result.sessionId).findLast((line) => line.kind === 'assistant');
		const usage = record?.usage as { inputTokens: number; outputTokens: number } | undefined;
		assert.ok(usage, 'usage is known');
		// One request in a new chat: its messages, its tools and the answer, each counted once by the provider.
		const answered = models.counted.slice(start).reduce((sum, count) => sum + count, 0);
		// Everything the request carried takes room: its messages and its tools' definitions (as the server received them).
		const [request] = chatRequests(server).slice(-1);
		const tools = ((request?.body ?? {}) as { tools?: { function: { name: string; description: string; parameters: unknown } }[] }).tools ?? [];
		const carried = messagesOf(request).reduce((sum, message) => sum + (message.content ?? '').length, 0) + tools.reduce((sum, tool) => sum + tool.function.name.length + tool.function.description.length + JSON.stringify(tool.function.parameters).length, 0);
		assert.ok(tools.length > 0);
		assert.ok(usage.inputTokens >= Math.ceil(carried / 4), `${String(usage.inputTokens)} tokens counted for ${String(carried)} characters sent`);
		assert.equal(usage.outputTokens, Math.ceil('Counted.'.length / 4));
		assert.equal(usage.inputTokens + usage.outputTokens, answered, 'what the provider counted, nothing guessed');
		await until(() => hooks.contextWindow(), (window) => window === 64_000, "the model's maxInputTokens as the window");
		if (hasDriver) {
			await vscode.commands.executeCommand('aside.focusChat');
			const line = await driver<{ text: string; meterShown: boolean }>('readContext', { waitFor: '/ 64k' });
			assert.match(line.text, /\/ 64k tokens/, line.text);
			assert.equal(line.meterShown, true);
		}
	});

	it('Stop cancels the request through the API: the providing extension closes its connection to the server, the turn ends interrupted', async () => {
		const { api, hooks } = await activeAside();
		server.script({ hangAfterAccept: true, text: 'Partial answer' });
		const disconnects = server.disconnects();
		const before = chatRequests(server).length;
		const sent = api.sendMessage('Start answering, then get stopped.');
		await until(() => chatRequests(server).length, (n) => n > before, 'the request to reach the server');
		hooks.stop();
		const result = await sent;
		assert.equal(result.outcome, 'interrupted');
		await server.waitForDisconnects(disconnects + 1);
		const lines = transcriptLines(hooks.sessionsDir, result.sessionId);
		assert.equal(lines.at(-1)?.kind, 'turn-end');
		assert.equal(lines.at(-1)?.outcome, 'interrupted');
		assert.equal(hooks.agentBusy(), false);
	});

	it('an error in the middle of the stream ends the turn with that error and offers Retry, which asks once more', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
		// The error comes a moment after the text, as when a backend breaks off: VS Code drops the parts
		// a consumer has not read yet once a request fails, so text sent with the error is never seen.
		server.script(
			{
				raw: [`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Half an answer' }, finish_reason: null }] })}\n\n`, `data: ${JSON.stringify({ error: { type: 'server_error', message: 'The scripted model broke off.' } })}\n\n`],
				gapMs: 1000,
			},
			{ text: 'A whole answer.' },
		);
		const before = chatRequests(server).length;
		await driver('typeInChat', { text: 'Answer in one piece.' });
		await until(() => chatRequests(server).length, (n) => n > before, 'the request to reach the server');
		await until(() => hooks.agentBusy(), (busy) => !busy, 'the failed turn to end');
		const failed = await driver<{ rows: { kind: string; text: string }[] }>('readRows', { waitForKind: 'turn-end' });
		const end = failed.rows.filter((row) => row.kind === 'turn-end').at(-1);
		assert.match(end?.text ?? '', /The scripted model broke off\./, 'the error as the model said it');
		assert.match(end?.text ?? '', /Retry/);
		assert.equal(chatRequests(server).length, before + 1, 'not retried on its own after the answer began');
		const partial = transcriptLines(hooks.sessionsDir, hooks.currentSessionId()).findLast((line) => line.kind === 'assistant');
		assert.equal(partial?.text, 'Half an answer', 'what streamed before the error is kept');
		await driver('clickInChat', { name: 'Retry' });
		await until(() => chatRequests(server).length, (n) => n >= before + 2, 'the retried request');
		await until(() => hooks.agentBusy(), (busy) => !busy, 'the retried turn to end');
		const answer = hooks.currentSessionItems().findLast((item) => item.kind === 'assistant');
		assert.equal(answer?.kind === 'assistant' ? answer.text : '', 'A whole answer.');
		// The failed attempt reached the model, so the retry sends it with what it had said, then the message again.
		const retried = messagesOf(chatRequests(server)[before + 1]);
		assert.ok(retried.some((message) => message.role === 'assistant' && message.content === 'Half an answer'), 'the broken answer is in the history');
		assert.match(retried.at(-1)?.content ?? '', /Answer in one piece\./);
	});
});
