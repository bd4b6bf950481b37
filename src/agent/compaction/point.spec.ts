import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../providers/messages';
import type { AgentRecord } from '../../transcript/records';
import type { CompactionRecord } from '../../transcript/historyMarkers';
import { replayHistory, summaryMessage } from '../../transcript/replay';
import { conversationTokens, requestTokens } from './estimate';
import { compactedMessages, compactionCut, summaryRequest } from './point';
import { LEFT_OUT_NOTE, SUMMARY_PROMPT } from './prompt';

const user = (id: string, text: string, turnId = `t-${id}`): AgentRecord => ({ kind: 'user', id, turnId, at: 1, text });
const answer = (id: string, text: string, calls: readonly string[] = [], usage?: readonly [number, number]): AgentRecord => ({
	kind: 'assistant',
	id,
	turnId: 't',
	requestId: `r-${id}`,
	at: 2,
	text,
	toolCalls: calls.map((call) => ({ id: call, name: 'Read', input: { path: `${call}.ts` } })),
	stop: calls.length ? 'tool-use' : 'end',
	...(usage ? { usage: { inputTokens: usage[0], outputTokens: usage[1] } } : {}),
});
const result = (callId: string, content = `contents of ${callId}.ts`): AgentRecord => ({ kind: 'tool-result', id: `res-${callId}`, turnId: 't', callId, name: 'Read', at: 3, content, isError: false });
const end = (turnId = 't'): AgentRecord => ({ kind: 'turn-end', turnId, at: 4, outcome: 'done' });
const compaction = (keepFrom: string | undefined, summary = 'Earlier: the user wants a parser.'): CompactionRecord => ({
	kind: 'compaction',
	id: `k-${keepFrom ?? 'none'}`,
	at: 5,
	cause: 'auto',
	...(keepFrom ? { keepFrom } : {}),
	summary,
	tokensBefore: 900,
	tokensAfter: 100,
});

/** Two finished turns, then a third whose first step read c3. */
const CHAT: AgentRecord[] = [
	user('u1', 'Write a parser.'),
	answer('a1', 'Reading.', ['c1']),
	result('c1'),
	answer('a2', 'Done with the first part.'),
	end(),
	user('u2', 'Now the lexer.'),
	answer('a3', 'Looking.', ['c3']),
	result('c3'),
];

const texts = (messages: readonly ChatMessage[]): string[] =>
	messages.map((message) => (message.role === 'tool' ? `tool:${message.content}` : message.content.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-call' ? `call:${part.id}` : part.content)).join('|')));

describe('the compaction point', () => {
	it('between turns summarizes everything and keeps no tail', () => {
		const cut = compactionCut(CHAT, 'between-turns');
		assert.ok(cut);
		assert.equal(cut.keepFrom, undefined);
		assert.deepEqual(cut.tail, []);
		assert.deepEqual(cut.messages, replayHistory(CHAT));
	});

	it("at a turn's first request keeps the turn's user message", () => {
		const cut = compactionCut(CHAT, 'turn-start');
		assert.ok(cut);
		assert.equal(cut.keepFrom, 'u2');
		assert.deepEqual(cut.tail.map((record) => record.kind), ['user', 'assistant', 'tool-result']);
		assert.deepEqual(texts(cut.messages), ['Write a parser.', 'Reading.|call:c1', 'tool:contents of c1.ts', 'Done with the first part.']);
	});

	it('mid-turn keeps the latest answer and its tool results, never parting a call from its result', () => {
		const cut = compactionCut(CHAT, 'mid-turn');
		assert.ok(cut);
		assert.equal(cut.keepFrom, 'a3');
		assert.deepEqual(texts(cut.messages).at(-1), 'Now the lexer.');
		assert.deepEqual(texts(compactedMessages(summaryMessage(compaction('a3')), cut.tail)).slice(1), ['Looking.|call:c3', 'tool:contents of c3.ts']);
	});

	it('replays summary + tail after each kind of point, and the old prefix is gone', () => {
		for (const [point, keepFrom] of [['between-turns', undefined], ['turn-start', 'u2'], ['mid-turn', 'a3']] as const) {
			const cut = compactionCut(CHAT, point);
			assert.ok(cut);
			const record = compaction(keepFrom);
			const replayed = replayHistory([...CHAT, record]);
			assert.deepEqual(replayed, compactedMessages(summaryMessage(record), cut.tail), point);
			assert.match(texts(replayed)[0] ?? '', /^<system-reminder key="context\.summary">[\s\S]*Earlier: the user wants a parser\./);
			assert.ok(!texts(replayed).includes('Write a parser.'), `${point}: the summarized prefix is not replayed`);
		}
	});

	it('a second compaction summarizes the first summary with what followed it', () => {
		const first = compaction('u2');
		const records = [...CHAT, first, answer('a4', 'Lexer done.'), end(), user('u3', 'Tests?')];
		const cut = compactionCut(records, 'turn-start');
		assert.ok(cut);
		assert.equal(cut.keepFrom, 'u3');
		assert.deepEqual(cut.messages[0], summaryMessage(first));
		assert.deepEqual(texts(cut.messages).slice(1), ['Now the lexer.', 'Looking.|call:c3', 'tool:contents of c3.ts', 'Lexer done.']);
	});

	it('has nothing to compact before the first message, or with only the turn message at its start', () => {
		assert.equal(compactionCut([], 'between-turns'), undefined);
		assert.equal(compactionCut([user('u1', 'Hi')], 'turn-start'), undefined);
	});
});

describe('the summary request', () => {
	const tools = [{ name: 'Read', description: 'Reads a file.', inputSchema: { type: 'object' } }];

	it('sends the conversation\'s own system prompt and tools, allows no tool call, and ends with the summary prompt', () => {
		const cut = compactionCut(CHAT, 'turn-start');
		assert.ok(cut);
		const { request, leftOut } = summaryRequest(cut, { model: 'm', system: 'You are Aside.', tools, maxOutputTokens: 500, contextWindow: 100_000, instructions: 'keep the API decisions' });
		assert.equal(leftOut, 0);
		assert.equal(request.system, 'You are Aside.');
		assert.equal(request.tools, tools);
		assert.equal(request.toolChoice, 'none');
		assert.deepEqual(request.messages.slice(0, -1), cut.messages);
		const prompt = texts(request.messages).at(-1) ?? '';
		assert.ok(prompt.startsWith(SUMMARY_PROMPT));
		assert.match(prompt, /keeps this:\n\nkeep the API decisions$/);
		assert.ok(!prompt.includes(LEFT_OUT_NOTE));
	});

	it('drops the oldest turns when the summarized part would not fit the window, and says so', () => {
		const long = 'x'.repeat(4000);
		const records: AgentRecord[] = [user('u1', long), answer('a1', long), end(), user('u2', long), answer('a2', long), end(), user('u3', 'Last question?'), answer('a3', 'Short.'), end()];
		const cut = compactionCut(records, 'between-turns');
		assert.ok(cut);
		// The prompt and the last turn fit in 2,000 tokens; with one more 2,000-token turn they do not.
		const { request, leftOut } = summaryRequest(cut, { model: 'm', system: 's', tools: [], maxOutputTokens: 1000, contextWindow: 3000 });
		assert.equal(leftOut, 4);
		assert.deepEqual(texts(request.messages).slice(0, 2), ['Last question?', 'Short.']);
		assert.ok((texts(request.messages).at(-1) ?? '').includes(LEFT_OUT_NOTE));
		assert.ok(requestTokens('s', [], request.messages) <= 2000);
	});

	it('never starts the request on a tool result: the cut falls only before a typed message', () => {
		const long = 'y'.repeat(8000);
		const records: AgentRecord[] = [user('u1', 'Read them.'), answer('a1', 'Reading.', ['c1']), result('c1', long), answer('a2', 'And more.', ['c2']), result('c2', long), user('u2', 'Next.'), answer('a3', 'ok')];
		const cut = compactionCut(records, 'between-turns');
		assert.ok(cut);
		const { request } = summaryRequest(cut, { model: 'm', system: 's', tools: [], maxOutputTokens: 100, contextWindow: 1000 });
		assert.deepEqual(texts(request.messages).slice(0, 2), ['Next.', 'ok']);
	});
});

describe('the estimate of the next request', () => {
	it("counts the last answer's reported usage plus ~chars/4 of what was recorded after it", () => {
		const records = [user('u1', 'Hi'), answer('a1', 'Reading.', ['c1'], [500, 20]), result('c1', 'z'.repeat(400))];
		assert.equal(conversationTokens(records, 'system', []), 520 + Math.ceil(400 / 4));
	});

	it('never uses usage from before the compaction point: then it estimates the whole request', () => {
		const records = [user('u1', 'Hi'), answer('a1', 'Reading.', ['c1'], [5000, 20]), result('c1'), compaction('a1', 'S')];
		const estimate = conversationTokens(records, 'system', []);
		assert.equal(estimate, requestTokens('system', [], replayHistory(records)));
		assert.ok(estimate < 200, `${estimate}`);
	});

	it('without any usage, estimates system, tools and history', () => {
		const tools = [{ name: 'Read', description: 'd'.repeat(396), inputSchema: {} }];
		assert.equal(conversationTokens([user('u1', 'a'.repeat(400))], 's'.repeat(400), tools), Math.ceil((400 + 4 + 396 + 2 + 400) / 4));
	});
});
