import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	FAKE_LM_API,
	FakeCancellationTokenSource,
	FakeChatMessage,
	FakeLanguageModel,
	FakeTextPart,
	FakeToolCallPart,
	words,
} from '../testing/fakeLanguageModel';
import { assistantText, userText } from '../testing/history';
import { READ_TOOL, run } from '../testing/streams';
import { LanguageModelProvider } from './languageModel';
import type { ChatMessage } from './messages';
import { ProviderError, type ChatRequest, type StreamEvent } from './provider';

function calls(...parts: { id: string; name: string; input: unknown }[]): ChatMessage {
	return { role: 'assistant', content: parts.map((part) => ({ type: 'tool-call' as const, ...part })) };
}

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
	return { model: 'gpt-4o', system: 'You are Aside.', messages: [userText('hi')], tools: [], maxOutputTokens: 512, ...overrides };
}

function setup(): { model: FakeLanguageModel; provider: LanguageModelProvider } {
	const model = new FakeLanguageModel();
	return { model, provider: new LanguageModelProvider(model, FAKE_LM_API) };
}

/** What a message holds, in a form a test can compare. */
function shape(message: FakeChatMessage | undefined): unknown {
	assert.ok(message);
	return {
		role: message.role === 1 ? 'user' : 'assistant',
		parts: message.content.map((part) => {
			if (part instanceof FakeTextPart) {
				return { text: part.value };
			}
			if (part instanceof FakeToolCallPart) {
				return { call: part.callId, name: part.name, input: part.input };
			}
			return { result: part.callId, content: part.content.map((inner) => (inner instanceof FakeTextPart ? inner.value : inner)) };
		}),
	};
}

const cancelled = (error: unknown) => error instanceof ProviderError && error.kind === 'cancelled';

describe('LanguageModelProvider: the request', () => {
	it('sends the system prompt as the first user message, then the history in the API\'s parts', async () => {
		const { model, provider } = setup();
		const messages: ChatMessage[] = [
			userText('Read a.ts'),
			calls({ id: 'call_1', name: 'Read', input: { path: 'a.ts' } }),
			{ role: 'tool', callId: 'call_1', content: '1\tconst a = 1;' },
			userText('<system-reminder key="session.date">\n…\n</system-reminder>'),
			assistantText(''),
			calls({ id: 'call_2', name: 'Grep', input: 'not an object' }),
			{ role: 'user', content: [{ type: 'tool-result', callId: 'call_2', content: 'no matches' }] },
			assistantText('Done.'),
		];
		await run(provider.stream(request({ messages }), new AbortController().signal));
		const sent = model.requests[0]?.messages ?? [];
		assert.deepEqual(sent.map(shape), [
			{ role: 'user', parts: [{ text: 'You are Aside.' }] },
			{ role: 'user', parts: [{ text: 'Read a.ts' }] },
			{ role: 'assistant', parts: [{ call: 'call_1', name: 'Read', input: { path: 'a.ts' } }] },
			{ role: 'user', parts: [{ result: 'call_1', content: ['1\tconst a = 1;'] }, { text: '<system-reminder key="session.date">\n…\n</system-reminder>' }] },
			{ role: 'assistant', parts: [{ call: 'call_2', name: 'Grep', input: {} }] },
			{ role: 'user', parts: [{ result: 'call_2', content: ['no matches'] }] },
			{ role: 'assistant', parts: [{ text: 'Done.' }] },
		]);
	});

	it('puts a user message\'s tool results before its text, whatever order they came in', async () => {
		const { model, provider } = setup();
		const messages: ChatMessage[] = [
			calls({ id: 'call_1', name: 'Read', input: { path: 'a.ts' } }),
			{ role: 'user', content: [{ type: 'text', text: 'also look at b.ts' }, { type: 'tool-result', callId: 'call_1', content: 'a' }] },
		];
		await run(provider.stream(request({ messages }), new AbortController().signal));
		assert.deepEqual(shape(model.requests[0]?.messages.at(-1)), { role: 'user', parts: [{ result: 'call_1', content: ['a'] }, { text: 'also look at b.ts' }] });
	});

	it('offers the tools, in Auto mode, with the output limit and a justification', async () => {
		const { model, provider } = setup();
		await run(provider.stream(request({ tools: [READ_TOOL] }), new AbortController().signal));
		const options = model.requests[0]?.options;
		assert.ok(options);
		assert.deepEqual(options.tools, [{ name: READ_TOOL.name, description: READ_TOOL.description, inputSchema: READ_TOOL.inputSchema }]);
		assert.equal(options.toolMode, FAKE_LM_API.LanguageModelChatToolMode.Auto);
		assert.deepEqual(options.modelOptions, { max_tokens: 512 });
		assert.match(options.justification ?? '', /Aside sends your message/);
	});

	it("toolChoice 'none': offers no tools and no tool mode, and sends the history's calls and results as text", async () => {
		const { model, provider } = setup();
		const messages: ChatMessage[] = [
			userText('Read a.ts'),
			calls({ id: 'call_1', name: 'Read', input: { path: 'a.ts' } }),
			{ role: 'tool', callId: 'call_1', content: '1\tconst a = 1;' },
			userText('Summarize the chat.'),
		];
		await run(provider.stream(request({ messages, tools: [READ_TOOL], toolChoice: 'none' }), new AbortController().signal));
		const options = model.requests[0]?.options;
		assert.ok(options);
		assert.equal(options.tools, undefined);
		assert.equal(options.toolMode, undefined);
		assert.deepEqual((model.requests[0]?.messages ?? []).map(shape), [
			{ role: 'user', parts: [{ text: 'You are Aside.' }] },
			{ role: 'user', parts: [{ text: 'Read a.ts' }] },
			{ role: 'assistant', parts: [{ text: '[tool call Read {"path":"a.ts"}]' }] },
			{ role: 'user', parts: [{ text: '[result of tool call call_1]\n1\tconst a = 1;' }, { text: 'Summarize the chat.' }] },
		]);
	});
});

describe('LanguageModelProvider: the response', () => {
	it('streams text and tool calls, ignores parts it does not know, then usage and the stop reason', async () => {
		const { model, provider } = setup();
		model.script({ parts: [new FakeTextPart('Let me '), new FakeTextPart('look.'), { mimeType: 'image/png', data: new Uint8Array() }, new FakeToolCallPart('call_9', 'Read', { path: 'a.ts' })] });
		const { events, error } = await run(provider.stream(request(), new AbortController().signal));
		assert.equal(error, undefined);
		const kinds = events.map((event) => event.type);
		assert.deepEqual(kinds, ['accepted', 'text', 'text', 'tool-call', 'usage', 'stop']);
		assert.deepEqual(events[3], { type: 'tool-call', id: 'call_9', name: 'Read', input: { path: 'a.ts' } });
		assert.deepEqual(events.at(-1), { type: 'stop', reason: 'tool-use' });
	});

	it("counts usage with the model's countTokens: every message (the system prompt too) and the tools in, the streamed text and calls out", async () => {
		const { model, provider } = setup();
		model.script({ parts: [new FakeTextPart('Two words'), new FakeToolCallPart('call_1', 'Read', { path: 'a.ts' })] });
		const req = request({ system: 'You are Aside, a coding agent.', messages: [userText('please read a.ts now')], tools: [READ_TOOL] });
		const { events } = await run(provider.stream(req, new AbortController().signal));
		const usage = events.find((event): event is Extract<StreamEvent, { type: 'usage' }> => event.type === 'usage');
		const toolsJson = JSON.stringify([{ name: READ_TOOL.name, description: READ_TOOL.description, inputSchema: READ_TOOL.inputSchema }]);
		assert.deepEqual(usage, {
			type: 'usage',
			inputTokens: words('You are Aside, a coding agent.') + words('please read a.ts now') + words(toolsJson),
			outputTokens: words('Two words' + 'Read {"path":"a.ts"}'),
		});
		assert.ok(model.counted.some((value) => value instanceof FakeChatMessage), 'messages are counted as messages, not flattened to text');
	});

	it('counts each message once per provider: the next step of a turn counts only what is new', async () => {
		const { model, provider } = setup();
		model.script({ parts: [new FakeToolCallPart('c1', 'Read', { path: 'a.ts' })] }, { parts: [new FakeTextPart('Done.')] });
		const first = [userText('read a.ts')];
		await run(provider.stream(request({ messages: first }), new AbortController().signal));
		const counted = model.counted.length;
		const second: ChatMessage[] = [...first, calls({ id: 'c1', name: 'Read', input: { path: 'a.ts' } }), { role: 'tool', callId: 'c1', content: 'one two' }];
		const { events } = await run(provider.stream(request({ messages: second }), new AbortController().signal));
		const newlyCounted = model.counted.slice(counted).filter((value) => value instanceof FakeChatMessage);
		assert.equal(newlyCounted.length, 2, 'the call and its result, not the system prompt or the first message again');
		const usage = events.find((event): event is Extract<StreamEvent, { type: 'usage' }> => event.type === 'usage');
		assert.equal(usage?.inputTokens, words('You are Aside.') + words('read a.ts') + words('Read {"path":"a.ts"}') + words('one two'));
	});

	it("falls back to the messages' text for a model that counts only strings", async () => {
		const { model, provider } = setup();
		model.countFails = 'messages';
		model.script({ parts: [new FakeTextPart('fine')] });
		const { events } = await run(provider.stream(request({ system: 'Be brief.', messages: [userText('one two three')] }), new AbortController().signal));
		assert.deepEqual(events.find((event) => event.type === 'usage'), { type: 'usage', inputTokens: 2 + 3, outputTokens: 1 });
	});

	it('a model that cannot count at all: no usage, and the answer is unharmed', async () => {
		const { model, provider } = setup();
		model.countFails = 'all';
		model.script({ parts: [new FakeTextPart('Hello')] });
		const { events, error } = await run(provider.stream(request(), new AbortController().signal));
		assert.equal(error, undefined);
		assert.deepEqual(events.map((event) => event.type), ['accepted', 'text', 'stop']);
	});

	it('lists the model with its maxInputTokens as the window', async () => {
		const model = new FakeLanguageModel({ id: 'claude-sonnet-4', name: 'Claude Sonnet 4', maxInputTokens: 128_000 });
		assert.deepEqual(await new LanguageModelProvider(model, FAKE_LM_API).listModels(), [{ id: 'claude-sonnet-4', name: 'Claude Sonnet 4', contextWindow: 128_000 }]);
	});
});

describe('LanguageModelProvider: cancellation', () => {
	it('Stop while streaming cancels the token and ends as cancelled, keeping what streamed', async () => {
		const { model, provider } = setup();
		model.script({ parts: [new FakeTextPart('Working')], hang: true });
		const controller = new AbortController();
		const events: StreamEvent[] = [];
		let caught: unknown;
		try {
			for await (const event of provider.stream(request(), controller.signal)) {
				events.push(event);
				if (event.type === 'text') {
					controller.abort();
				}
			}
		} catch (error) {
			caught = error;
		}
		assert.ok(cancelled(caught), `cancelled, got ${String(caught)}`);
		assert.deepEqual(events.map((event) => event.type), ['accepted', 'text']);
		assert.equal(model.requests[0]?.token.isCancellationRequested, true, 'the request\'s own token was cancelled');
		assert.equal(FakeCancellationTokenSource.created.at(-1)?.disposed, true, 'and its source disposed');
	});

	it('a stream that just ends after Stop is still a stopped request, not an answer', async () => {
		const model = new FakeLanguageModel();
		const controller = new AbortController();
		// A model whose stream ends quietly when cancelled (some do).
		model.sendRequest = () =>
			Promise.resolve({
				stream: (async function* () {
					await Promise.resolve();
					yield new FakeTextPart('partial');
					controller.abort();
				})(),
			});
		const { events, error } = await run(new LanguageModelProvider(model, FAKE_LM_API).stream(request(), controller.signal));
		assert.ok(cancelled(error));
		assert.ok(!events.some((event) => event.type === 'stop'));
	});
});
