import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wrap } from '../reminders/envelope';
import { assistantCalls, assistantText, resultsInUser, toolResult, userText } from '../testing/history';
import { READ_TOOL } from '../testing/streams';
import { anthropicBody, type AnthropicMessage } from './anthropic';
import type { ChatMessage, UserMessage } from './messages';
import type { ChatRequest } from './provider';

const EPHEMERAL = { type: 'ephemeral' };
const LIST_TOOL = { name: 'List', description: 'Lists a folder.', inputSchema: { type: 'object', properties: {} } };

function request(messages: readonly ChatMessage[], overrides: Partial<ChatRequest> = {}): ChatRequest {
	return { model: 'claude-test', system: 'You are Aside.', messages, tools: [READ_TOOL, LIST_TOOL], maxOutputTokens: 1024, ...overrides };
}

function reminders(text: string): UserMessage {
	return { role: 'user', synthetic: 'reminders', content: [{ type: 'text', text: wrap('files.edited', text) }] };
}

interface Body {
	readonly system?: unknown;
	readonly tools?: readonly { readonly name: string; readonly cache_control?: unknown }[];
	readonly messages: readonly AnthropicMessage[];
}

function bodyOf(req: ChatRequest): Body {
	return anthropicBody(req) as unknown as Body;
}

/** Each marked message block as "message index/block index: what it is". */
function marked(body: Body): string[] {
	const out: string[] = [];
	body.messages.forEach((message, m) => {
		message.content.forEach((block, b) => {
			if (block.cache_control) {
				assert.deepEqual(block.cache_control, EPHEMERAL);
				const what = block.type === 'text' ? block.text : block.type === 'tool_use' ? `use ${block.id}` : block.type === 'image' ? 'image' : `result ${block.tool_use_id}`;
				out.push(`${m}/${b}: ${what}`);
			}
		});
	});
	return out;
}

/** Every breakpoint of the request: system, tools and messages. */
function breakpoints(body: Body): number {
	const text = JSON.stringify(body);
	return text.split('"cache_control"').length - 1;
}

describe('Anthropic prompt caching: breakpoints', () => {
	it('marks the system prompt as one text block and the last tool, and orders the body stable parts first', () => {
		const body = anthropicBody(request([userText('hi')], { toolChoice: 'none' }));
		assert.deepEqual(Object.keys(body), ['model', 'max_tokens', 'system', 'tools', 'tool_choice', 'messages', 'stream']);
		assert.deepEqual(body.system, [{ type: 'text', text: 'You are Aside.', cache_control: EPHEMERAL }]);
		const tools = body.tools as Body['tools'];
		assert.deepEqual(tools?.map((tool) => [tool.name, tool.cache_control]), [['Read', undefined], ['List', EPHEMERAL]]);
		assert.deepEqual(body.tool_choice, { type: 'none' });
	});

	it('first request of a chat: the user message is the tail, and there is no previous tail', () => {
		const body = bodyOf(request([userText('Fix the bug'), reminders('src/a.ts changed')]));
		assert.deepEqual(marked(body), ['0/0: Fix the bug']);
		assert.equal(body.messages[0]?.content.length, 2, 'the reminders are merged into the user message, after the text');
		assert.equal(breakpoints(body), 3);
	});

	it('mid-turn: the tail goes before the fresh reminder text merged with the tool results', () => {
		const history: ChatMessage[] = [
			userText('Fix the bug'),
			reminders('first'),
			assistantCalls('c1', 'c2'),
			resultsInUser('c1', 'c2'),
			reminders('second'),
			assistantCalls('c3'),
			toolResult('c3'),
			reminders('third'),
		];
		const body = bodyOf(request(history));
		assert.deepEqual(marked(body), ['4/0: result c3'], 'the previous tail is within the lookback: not marked');
		const fresh = body.messages.at(-1)?.content.at(-1);
		assert.ok(fresh);
		assert.equal(fresh.type, 'text', 'the fresh reminders stay last, unmarked');
		assert.equal(fresh.cache_control, undefined);
		assert.equal(breakpoints(body), 3);
	});

	it('without a fresh reminders message the last block is the tail', () => {
		const body = bodyOf(request([userText('a'), assistantCalls('c1'), toolResult('c1')]));
		assert.deepEqual(marked(body), ['2/0: result c1']);
	});

	it('turn start: the tail is the new message', () => {
		const history: ChatMessage[] = [
			userText('one'),
			assistantCalls('c1'),
			toolResult('c1'),
			reminders('late'),
			assistantText('Done.'),
			userText('two'),
			reminders('fresh'),
		];
		const body = bodyOf(request(history));
		assert.deepEqual(marked(body), ['4/0: two']);
	});

	it('spends the breakpoints the system prompt and tools leave, at most four in all', () => {
		const calls = Array.from({ length: 12 }, (_, index) => `p${index}`);
		const history: ChatMessage[] = [userText('a'), assistantCalls('c1'), toolResult('c1'), reminders('r0'), assistantCalls(...calls), ...calls.map((id) => toolResult(id)), reminders('r1')];
		const bare = bodyOf(request(history, { system: '', tools: [] }));
		assert.equal(bare.system, undefined);
		assert.equal(bare.tools, undefined);
		assert.deepEqual(marked(bare), ['2/0: result c1', '4/11: result p11'], 'no system, no tools: still at most two in messages');
		assert.equal(breakpoints(bare), 2);
		assert.equal(breakpoints(bodyOf(request(history, { tools: [] }))), 3);
		assert.equal(breakpoints(bodyOf(request(history))), 4, 'four: the API limit');
		assert.equal(anthropicBody(request(history, { tools: [], toolChoice: 'none' })).tool_choice, undefined, 'no tool_choice without tools');
	});

	it('never marks an empty or whitespace-only text block: the nearest block before it instead', () => {
		const history: ChatMessage[] = [
			userText('a'),
			{ role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'Read', input: {} }] },
			{ role: 'user', content: [{ type: 'tool-result', callId: 'c1', content: 'x' }, { type: 'text', text: '  \n' }, { type: 'text', text: '' }] },
			reminders('r'),
		];
		const body = bodyOf(request(history));
		assert.deepEqual(marked(body), ['2/0: result c1']);
		const whitespace = bodyOf(request([userText('   ')]));
		assert.deepEqual(marked(whitespace), [], 'a request of only whitespace text has no message breakpoint');
		assert.deepEqual(bodyOf(request([userText('a')], { system: '  ' })).system, '  ', 'a whitespace system prompt goes as it was, unmarked');
	});

	it('a step of many parallel calls does not lose the previous entry: past the lookback, the previous tail is marked too', () => {
		const calls = Array.from({ length: 12 }, (_, index) => `p${index}`);
		const history: ChatMessage[] = [userText('go'), assistantCalls('c0'), toolResult('c0'), reminders('r0'), assistantCalls(...calls), ...calls.map((id) => toolResult(id)), reminders('r1')];
		const body = bodyOf(request(history));
		assert.deepEqual(marked(body), ['2/0: result c0', '4/11: result p11']);
	});

	it('places breakpoints on copies: the request and its history are left as they were', () => {
		const history: ChatMessage[] = [userText('a'), assistantCalls('c1'), toolResult('c1')];
		const before = JSON.stringify(history);
		anthropicBody(request(history));
		assert.equal(JSON.stringify(history), before);
	});
});
