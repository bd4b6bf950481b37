// The server's requests through the SDK: the shapes converted both ways, and the real reference
// server (server-everything over stdio) asking for a model's answer and for a form during a tool
// call, answered by Aside's handlers with the calling chat named.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { EVERYTHING } from '../testing/everything';
import { sdkConnector } from './sdkConnector';
import { clientCapabilities, elicitationRequestOf, elicitResultOf, samplingRequestOf, samplingResultOf } from './sdkClientRequests';
import type { ElicitationRequest, SamplingRequest, ServerRequestContext, ServerRequestHandlers } from './serverRequests';
import type { McpSession } from './session';

describe('the SDK\'s server requests, converted', () => {
	it('declares sampling and both elicitation modes only with someone to answer', () => {
		assert.deepEqual(clientCapabilities(undefined), {});
		const handlers = { sampling: () => Promise.reject(new Error('x')), elicitation: () => Promise.reject(new Error('x')) };
		assert.deepEqual(clientCapabilities(handlers), { sampling: {}, elicitation: { form: {}, url: {} } });
	});

	it('reads a sampling request: each block, attachments named by size, the hints', () => {
		const request = samplingRequestOf({
			messages: [
				{ role: 'user', content: { type: 'text', text: 'Describe it.' } },
				{ role: 'user', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }, { type: 'audio', data: 'AAA=', mimeType: 'audio/wav' }] },
				{ role: 'assistant', content: { type: 'tool_use', id: 't1', name: 'x', input: {} } },
			],
			maxTokens: 64,
			systemPrompt: 'Be brief.',
			temperature: 0.2,
			stopSequences: ['END'],
			modelPreferences: { hints: [{ name: 'claude' }, {}] },
		});
		assert.deepEqual(request, {
			messages: [
				{ role: 'user', content: [{ type: 'text', text: 'Describe it.' }] },
				{ role: 'user', content: [{ type: 'image', mimeType: 'image/png', bytes: 3 }, { type: 'audio', mimeType: 'audio/wav', bytes: 2 }] },
				{ role: 'assistant', content: [{ type: 'other', what: 'tool_use' }] },
			],
			maxTokens: 64,
			systemPrompt: 'Be brief.',
			temperature: 0.2,
			stopSequences: ['END'],
			modelHints: ['claude'],
		});
		assert.deepEqual(samplingResultOf({ text: '4', model: 'claude-test', stopReason: 'maxTokens' }), {
			role: 'assistant', content: { type: 'text', text: '4' }, model: 'claude-test', stopReason: 'maxTokens',
		});
	});

	it('reads an elicitation, form or URL, and writes the answer', () => {
		assert.deepEqual(elicitationRequestOf({ mode: 'url', message: 'Pay', url: 'https://pay.example.com/', elicitationId: 'e1' }), { mode: 'url', message: 'Pay', url: 'https://pay.example.com/', elicitationId: 'e1' });
		const schema = { type: 'object' as const, properties: { name: { type: 'string' as const } } };
		assert.deepEqual(elicitationRequestOf({ message: 'Name?', requestedSchema: schema }), { mode: 'form', message: 'Name?', requestedSchema: schema });
		assert.deepEqual(elicitResultOf({ action: 'accept', content: { name: 'Ada', age: 36, ok: true, tags: ['a'] } }), { action: 'accept', content: { name: 'Ada', age: 36, ok: true, tags: ['a'] } });
		assert.deepEqual(elicitResultOf({ action: 'accept' }), { action: 'accept' });
		assert.deepEqual(elicitResultOf({ action: 'decline' }), { action: 'decline' });
	});
});

describe('server-everything asks during a tool call (stdio)', () => {
	const sessions: McpSession[] = [];
	after(async () => {
		await Promise.all(sessions.map((session) => session.close()));
	});

	async function connected(handlers: ServerRequestHandlers | undefined): Promise<McpSession> {
		const session = await sdkConnector.connect(
			{ transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} },
			{ signal: new AbortController().signal, timeoutMs: 20_000, ...(handlers ? { requests: handlers } : {}) },
		);
		sessions.push(session);
		return session;
	}

	const text = (result: { content: readonly { type: string; text?: string }[] }): string => result.content.map((block) => block.text ?? '').join('');
	const call = { signal: new AbortController().signal, timeoutMs: 20_000, caller: 'chat-7' };

	it('without handlers, the server offers neither tool', async () => {
		const names = (await (await connected(undefined)).listTools(new AbortController().signal)).map((tool) => tool.name);
		assert.ok(names.includes('echo'));
		assert.ok(!names.includes('trigger-sampling-request') && !names.includes('trigger-elicitation-request'));
	});

	it('sampling and a form: the handlers get Aside\'s shapes and the calling chat; the tool result carries the answers', async () => {
		const sampled: { request: SamplingRequest; context: ServerRequestContext; endedThen: boolean }[] = [];
		const elicited: { request: ElicitationRequest; context: ServerRequestContext }[] = [];
		const session = await connected({
			sampling: (request, context) => {
				sampled.push({ request, context, endedThen: context.signal.aborted });
				return Promise.resolve({ text: 'The answer is 4.', model: 'scripted-model', stopReason: 'endTurn' });
			},
			elicitation: (request, context) => {
				elicited.push({ request, context });
				return Promise.resolve({ action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 42 } });
			},
		});
		const names = (await session.listTools(new AbortController().signal)).map((tool) => tool.name);
		assert.ok(names.includes('trigger-sampling-request') && names.includes('trigger-elicitation-request') && names.includes('trigger-url-elicitation'));

		const sampling = text(await session.callTool('trigger-sampling-request', { prompt: 'What is 2+2?', maxTokens: 77 }, call));
		assert.match(sampling, /The answer is 4\./);
		assert.match(sampling, /scripted-model/);
		const [first] = sampled;
		assert.ok(first);
		assert.deepEqual(first.request, {
			messages: [{ role: 'user', content: [{ type: 'text', text: 'Resource trigger-sampling-request context: What is 2+2?' }] }],
			maxTokens: 77,
			systemPrompt: 'You are a helpful test server.',
			temperature: 0.7,
		});
		assert.deepEqual(first.context.callers, ['chat-7']);
		assert.equal(first.endedThen, false, 'asked while the call runs');
		assert.equal(first.context.signal.aborted, true, 'moot once the call that made it ended');

		const form = text(await session.callTool('trigger-elicitation-request', {}, call));
		assert.match(form, /Ada Lovelace/);
		const [asked] = elicited;
		assert.ok(asked);
		assert.equal(asked.request.mode, 'form');
		assert.ok((asked.request.requestedSchema.properties as Record<string, unknown>).firstLine, 'the server\'s schema as it sent it');
		assert.deepEqual(asked.context.callers, ['chat-7']);
	});

	it('a handler\'s error reaches the server, and the call still ends', async () => {
		const session = await connected({
			sampling: () => Promise.reject(new Error('Sampling is turned off in Aside (aside.mcp.sampling is "off").')),
			elicitation: () => Promise.resolve({ action: 'decline' }),
		});
		const result = await session.callTool('trigger-sampling-request', { prompt: 'hi' }, call).then(text, (error: unknown) => String(error));
		assert.match(result, /Sampling is turned off in Aside/);
	});
});
