import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamEvent } from '../providers/provider';
import { broken, completed, foldEvent, NO_RESPONSE, type Response } from './response';

const fold = (events: readonly StreamEvent[]): Response => events.reduce(foldEvent, NO_RESPONSE);

describe('a response, folded from its stream', () => {
	it('gathers the text, the tool calls in order, the usage and the stop reason', () => {
		const response = fold([
			{ type: 'accepted' },
			{ type: 'text', text: 'Let me ' },
			{ type: 'reasoning', text: 'I should read it first.' },
			{ type: 'text', text: 'look.' },
			{ type: 'tool-call', id: 'c1', name: 'Read', input: { path: 'a.ts' } },
			{ type: 'tool-call', id: 'c2', name: 'Grep', input: { pattern: 'x' } },
			{ type: 'usage', inputTokens: 10, outputTokens: 2 },
			{ type: 'usage', inputTokens: 12, outputTokens: 5 },
			{ type: 'stop', reason: 'tool-use' },
		]);
		assert.deepEqual(response, {
			accepted: true,
			text: 'Let me look.',
			toolCalls: [
				{ id: 'c1', name: 'Read', input: { path: 'a.ts' } },
				{ id: 'c2', name: 'Grep', input: { pattern: 'x' } },
			],
			stop: 'tool-use',
			usage: { inputTokens: 12, outputTokens: 5 },
		});
	});

	it('changes nothing it was given: each event makes a new response', () => {
		const accepted = foldEvent(NO_RESPONSE, { type: 'accepted' });
		const texted = foldEvent(accepted, { type: 'text', text: 'hi' });
		assert.deepEqual([NO_RESPONSE.accepted, accepted.text, texted.text], [false, '', 'hi']);
	});

	it('completed: without a stop reason, it stopped for its tool calls, else at the end', () => {
		assert.equal(completed(fold([{ type: 'accepted' }, { type: 'text', text: 'Done.' }])).stop, 'end');
		assert.equal(completed(fold([{ type: 'accepted' }, { type: 'tool-call', id: 'c', name: 'Read', input: {} }])).stop, 'tool-use');
		assert.equal(completed(fold([{ type: 'accepted' }, { type: 'stop', reason: 'max-tokens' }])).stop, 'max-tokens');
		assert.deepEqual(completed(fold([{ type: 'accepted' }, { type: 'text', text: 'x' }])), { accepted: true, text: 'x', toolCalls: [], stop: 'end' }, 'no usage key without usage');
	});

	it('broken: keeps what streamed, drops its tool calls, and says whether it was stopped or failed', () => {
		const error = new Error('cut off');
		const partial = fold([{ type: 'accepted' }, { type: 'text', text: 'Half' }, { type: 'tool-call', id: 'c', name: 'Edit', input: {} }, { type: 'usage', inputTokens: 3, outputTokens: 1 }]);
		assert.deepEqual(broken(partial, error, false), { accepted: true, text: 'Half', toolCalls: [], stop: 'failed', usage: { inputTokens: 3, outputTokens: 1 }, error });
		assert.equal(broken(partial, error, true).stop, 'interrupted');
		assert.equal(broken(NO_RESPONSE, error, false).accepted, false, 'a request never accepted stays so');
	});
});
