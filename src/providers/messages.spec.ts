import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assistantCalls, assistantText, resultsInUser, userText } from '../testing/history';
import { alternating, type ChatMessage } from './messages';

describe('alternating: the one history normalisation every provider starts from', () => {
	it('merges the user-role content between assistant messages into one turn, tool results first', () => {
		const history: ChatMessage[] = [
			userText('Fix the bug'),
			assistantCalls('c1', 'c2'),
			{ role: 'tool', callId: 'c1', content: 'one' },
			{ role: 'user', content: [{ type: 'text', text: 'also lint' }, { type: 'tool-result', callId: 'c2', content: 'two', isError: true }] },
			{ role: 'user', synthetic: 'reminders', content: [{ type: 'text', text: '<system-reminder key="files.edited">…</system-reminder>' }] },
			assistantText('Done.'),
		];
		assert.deepEqual(alternating(history), [
			{ role: 'user', results: [], texts: [[{ type: 'text', text: 'Fix the bug' }]] },
			history[1],
			{
				role: 'user',
				results: [
					{ type: 'tool-result', callId: 'c1', content: 'one' },
					{ type: 'tool-result', callId: 'c2', content: 'two', isError: true },
				],
				texts: [[{ type: 'text', text: 'also lint' }], [{ type: 'text', text: '<system-reminder key="files.edited">…</system-reminder>' }]],
			},
			history[5],
		]);
	});

	it('keeps a tool message\'s error flag and each message\'s text parts as they were, empty ones too', () => {
		const [turn] = alternating([
			{ role: 'tool', callId: 'c1', content: 'exit 1', isError: true },
			{ role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'b' }] },
			{ role: 'user', content: [{ type: 'tool-result', callId: 'c2', content: 'only a result' }] },
		]);
		assert.deepEqual(turn, {
			role: 'user',
			results: [
				{ type: 'tool-result', callId: 'c1', content: 'exit 1', isError: true },
				{ type: 'tool-result', callId: 'c2', content: 'only a result' },
			],
			texts: [[{ type: 'text', text: '' }, { type: 'text', text: 'b' }]],
		});
	});

	it('leaves out empty assistant text, and an assistant message left with nothing, joining the user content around it', () => {
		const turns = alternating([
			userText('a'),
			assistantText(''),
			resultsInUser('c1'),
			{ role: 'assistant', content: [{ type: 'text', text: '' }, { type: 'tool-call', id: 'c3', name: 'Bash', input: {} }] },
			assistantText('next'),
		]);
		assert.deepEqual(turns, [
			{ role: 'user', results: [{ type: 'tool-result', callId: 'c1', content: 'contents of c1.ts' }], texts: [[{ type: 'text', text: 'a' }]] },
			{ role: 'assistant', content: [{ type: 'tool-call', id: 'c3', name: 'Bash', input: {} }] },
			{ role: 'assistant', content: [{ type: 'text', text: 'next' }] },
		]);
	});

	it('gives nothing for nothing, and no turn for a user message without parts', () => {
		assert.deepEqual(alternating([]), []);
		assert.deepEqual(alternating([{ role: 'user', content: [] }]), []);
	});
});
