// Provider streams as real servers send them, end to end in the real extension host: the
// scripted model server replays recorded answers byte for byte (`raw` steps), and the turn's
// outcome, its record on disk and the next request are what a person would see.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, useScriptedServer } from './support';

const KEY = 'sk-integration-echoed-key-0123456789';

/** Chat requests so far; the model picker's list requests are not counted. */
function chatRequests(server: ModelServer): number {
	return server.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/chat/completions')).length;
}

function sse(...chunks: readonly object[]): string[] {
	return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
}

describe('provider streams from real servers', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', apiKey: KEY });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
	});

	it("llama.cpp's error after HTTP 200 fails the turn with the server's message, and nothing is sent again", async () => {
		const { api } = await activeAside();
		const message = 'failed to load model: the file is not a GGUF file';
		server.script({ raw: [`error: {"code":500,"message":"${message}","type":"server_error"}\n\n`, 'data: [DONE]\n\n'] });
		const before = chatRequests(server);
		const result = await api.sendMessage('Hello, model that will not load.');
		assert.equal(result.outcome, 'failed');
		assert.ok(result.error?.includes(message), result.error);
		assert.equal(chatRequests(server) - before, 1, 'the same request is not sent again');
	});

	it("llama.cpp's context-size error after HTTP 200 is a too-long refusal: the chat is compacted once and the request sent again", async () => {
		const { api, hooks } = await activeAside();
		const message = 'the request exceeds the available context size. try increasing the context size or enable context shift';
		// The llama.cpp build of this server sends it in the stream after a 200, before any answer.
		server.script(
			{ raw: [`error: {"code":400,"message":"${message}","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}\n\n`, 'data: [DONE]\n\n'] },
			{ text: 'The user greeted the model; a model that would not load was reported.' },
			{ text: 'Here again, after the compaction.' },
		);
		const before = chatRequests(server);
		const result = await api.sendMessage('A prompt too long for the server.');
		assert.equal(result.outcome, 'done', result.error);
		assert.equal(chatRequests(server) - before, 3, 'the refused request, the summary request, the retry');
		const [, summary, retry] = server.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/chat/completions')).slice(-3);
		assert.equal((summary?.body as { tool_choice?: unknown }).tool_choice, 'none');
		assert.match(JSON.stringify(retry?.body), /context\.summary/);
		const compaction = readFileSync(join(hooks.sessionsDir, `${result.sessionId}.jsonl`), 'utf8').split('\n').filter((line) => line.includes('"kind":"compaction"'));
		assert.equal(compaction.length, 1);
		assert.match(compaction[0] ?? '', /"cause":"overflow"/);
	});

	it("Mistral's thinking parts are not the answer; its text parts are", async () => {
		const { api, hooks } = await activeAside();
		const chunk = (content: unknown, finish: string | null = null) => ({ choices: [{ index: 0, delta: { content }, finish_reason: finish }] });
		server.script({
			raw: [...sse(chunk([{ type: 'thinking', thinking: [{ type: 'text', text: 'Private musing.' }] }]), chunk([{ type: 'text', text: 'Public answer.' }]), chunk('', 'stop')), 'data: [DONE]\n\n'],
		});
		const result = await api.sendMessage('Think, then answer.');
		assert.equal(result.outcome, 'done', result.error);
		const answer = hooks.currentSessionItems().findLast((item) => item.kind === 'assistant');
		assert.equal(answer?.kind === 'assistant' ? answer.text : '', 'Public answer.');
		assert.ok(!readFileSync(join(hooks.sessionsDir, `${result.sessionId}.jsonl`), 'utf8').includes('Private musing.'));
	});

	it('a server that echoes the API key in its error shows it nowhere: not in the error, not in the transcript', async () => {
		const { api, hooks } = await activeAside();
		server.script({ status: 401, message: `Incorrect API key provided: ${KEY}` });
		const result = await api.sendMessage('Hello with a bad key.');
		assert.equal(result.outcome, 'failed');
		assert.match(result.error ?? '', /Incorrect API key provided: \[redacted\]/);
		const transcript = readFileSync(join(hooks.sessionsDir, `${result.sessionId}.jsonl`), 'utf8');
		assert.match(transcript, /Incorrect API key provided: \[redacted\]/, 'the failure is recorded');
		assert.ok(!transcript.includes(KEY), 'the key is not in the transcript');
	});
});
