// The request prefix a prompt cache keeps, over the real turn loop: consecutive requests of a
// turn (and of the next turn) repeat the previous request's bytes from the start, with reminders
// firing mid-turn, on both HTTP protocols as they would send them; and the provider's cache
// counters reach the transcript.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anthropicBody } from '../providers/anthropic';
import { openAIBody } from '../providers/openaiCompatible';
import type { ChatRequest } from '../providers/provider';
import { userSteering } from '../reminders/builtin/userSteering';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { turnHarness } from '../testing/turnHarness';
import { BUILTIN_TOOLS, toolSpecs } from '../tools/registry';

const MARKER = ',"cache_control":{"type":"ephemeral"}';

/** The body as sent, without its cache markers: they say where to cache, they are not part of the prompt. */
function unmarked(body: Record<string, unknown>): string {
	return JSON.stringify(body).replaceAll(MARKER, '');
}

/** The serialized last message block of `body` that carries a breakpoint, without the marker. */
function tailBlock(body: Record<string, unknown>): string {
	const messages = body.messages as { content: { cache_control?: unknown }[] }[];
	const marked = messages.flatMap((message) => message.content).filter((block) => block.cache_control !== undefined);
	const { cache_control: _marker, ...block } = marked.at(-1) ?? {};
	assert.ok(marked.length > 0, 'a request with history has a breakpoint in its messages');
	return JSON.stringify(block);
}

async function chat(): Promise<{ requests: readonly ChatRequest[]; usages: unknown[] }> {
	const provider = new ScriptedProvider(
		{ text: 'Reading.', toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }], usage: [300, 10], cache: { read: 0, write: 280 } },
		// Past half the window of 1,000: context.usage fires at the next WAIT.
		{ toolCalls: [{ id: 'c2', name: 'Read', input: { path: 'b.ts' } }, { id: 'c3', name: 'Read', input: { path: 'c.ts' } }], usage: [600, 10], cache: { read: 280, write: 300 } },
		{ toolCalls: [{ id: 'c4', name: 'Edit', input: { path: 'd.ts' } }] },
		{ text: 'Done.' },
		{ toolCalls: [{ id: 'c5', name: 'Read', input: { path: 'e.ts' } }] },
		{ text: 'All good.' },
	);
	const { session, turn } = turnHarness(provider);
	const first = turn('turn-1');
	provider.onRequest = () => {
		// Observations made while a request runs, delivered at the next WAIT.
		if (provider.requests.length === 2) {
			session.reminders.queueTurnEvent(first.owner, { type: 'editedFiles', key: 'files.edited', body: 'src/a.ts changed on disk.' });
		}
		if (provider.requests.length === 3) {
			session.reminders.queueTurnEvent(first.owner, userSteering('also run the linter'));
		}
	};
	assert.equal((await first.run('Fix the parser.', new AbortController().signal)).outcome, 'done');
	assert.equal((await turn('turn-2').run('Check e.ts too.', new AbortController().signal)).outcome, 'done');
	const usages = session.records.flatMap((record) => (record.kind === 'assistant' && record.usage ? [record.usage] : []));
	return { requests: provider.requests, usages };
}

describe('the request prefix over a real turn', () => {
	it('reminders fired mid-turn and the requests carried them', async () => {
		const { requests } = await chat();
		assert.equal(requests.length, 6);
		const texts = requests.map((request) => JSON.stringify(request.messages.at(-1)));
		assert.match(texts[2] ?? '', /context\.usage/);
		assert.match(texts[2] ?? '', /files\.edited/);
		assert.match(texts[3] ?? '', /steering\.user/);
	});

	it('Anthropic: each request repeats the previous one up to its last breakpoint, byte for byte', async () => {
		const { requests } = await chat();
		for (let index = 1; index < requests.length; index++) {
			const previous = anthropicBody(requests[index - 1] as ChatRequest);
			const current = unmarked(anthropicBody(requests[index] as ChatRequest));
			const before = unmarked(previous);
			const tail = tailBlock(previous);
			const end = before.lastIndexOf(tail) + tail.length;
			assert.ok(end > tail.length, `request ${index}: its tail block is in the body`);
			assert.ok(current.startsWith(before.slice(0, end)), `request ${index + 1} repeats request ${index} up to its last breakpoint`);
			// More: every message of the previous request, its fresh reminders included (replayed as recorded).
			assert.ok(current.startsWith(before.slice(0, before.length - '],"stream":true}'.length)), `request ${index + 1} repeats all of request ${index}'s messages`);
			// As sent, markers in: the same bytes up to the previous tail's marker (no step here is long
			// enough for a second one in the messages, so no other marker moved).
			const sent = JSON.stringify(previous);
			assert.ok(JSON.stringify(anthropicBody(requests[index] as ChatRequest)).startsWith(sent.slice(0, sent.lastIndexOf(MARKER))), `request ${index + 1} as sent`);
		}
	});

	it('OpenAI-compatible: each request repeats every message of the previous one', async () => {
		const { requests } = await chat();
		for (let index = 1; index < requests.length; index++) {
			const before = JSON.stringify(openAIBody(requests[index - 1] as ChatRequest));
			const current = JSON.stringify(openAIBody(requests[index] as ChatRequest));
			const closing = '],"stream":true,"stream_options":{"include_usage":true}}';
			assert.ok(before.endsWith(closing));
			assert.ok(current.startsWith(before.slice(0, -closing.length)), `request ${index + 1} repeats request ${index}`);
		}
	});

	it('the system prompt and the tools are the same bytes in every request of both turns, on both protocols', async () => {
		const { requests } = await chat();
		const anthropic = new Set(requests.map((request) => JSON.stringify([anthropicBody(request).system, anthropicBody(request).tools])));
		const openai = new Set(requests.map((request) => {
			const body = openAIBody(request);
			return JSON.stringify([body.tools, (body.messages as unknown[])[0]]);
		}));
		assert.equal(anthropic.size, 1);
		assert.equal(openai.size, 1);
	});

	it('the built-in tools\' specs are the same bytes each time they are built, in the same order', () => {
		const once = JSON.stringify(toolSpecs(BUILTIN_TOOLS));
		assert.equal(JSON.stringify(toolSpecs([...BUILTIN_TOOLS])), once);
		assert.doesNotMatch(once, /\d{4}-\d{2}-\d{2}T\d{2}:/, 'no timestamp');
	});

	it('the cache counters the provider reported are on the assistant records', async () => {
		const { usages } = await chat();
		assert.deepEqual(usages.slice(0, 2), [
			{ inputTokens: 300, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 280 },
			{ inputTokens: 600, outputTokens: 10, cacheReadTokens: 280, cacheWriteTokens: 300 },
		]);
	});
});
