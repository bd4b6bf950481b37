import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wrap } from '../reminders/envelope';
import { ContextUseTracker, estimateTokens } from './contextUse';

const owner = { kind: 'root', id: 't1' } as const;

describe('ContextUseTracker', () => {
	it('counts each key\'s blocks as sent, tool notices included, most expensive first', () => {
		const tracker = new ContextUseTracker();
		const long = 'x'.repeat(400);
		assert.equal(tracker.take({ kind: 'user', id: 'u1', turnId: 't1', at: 0, text: 'hi' }), false);
		assert.equal(tracker.take({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId: 'q1', at: 1, turn: 1, entries: [
			{ type: 'sessionDate', key: 'session.date', label: 'date', body: 'Today.', reason: 'r' },
			{ type: 'workspaceInstructions', key: 'workspace.instructions', label: 'instructions', body: long, reason: 'r' },
		] }), true);
		assert.equal(tracker.take({ kind: 'tool-result', id: 'r1', turnId: 't1', callId: 'c1', name: 'Read', at: 2, content: 'a', isError: false }), false, 'a result without notices changes nothing');
		assert.equal(tracker.take({ kind: 'tool-result', id: 'r2', turnId: 't1', callId: 'c2', name: 'Read', at: 3, content: 'a', isError: false, notices: [{ key: 'read.truncated', body: 'Showing lines 1–2000 of 9000.' }] }), true);
		const view = tracker.view(undefined);
		assert.equal(view.usedTokens, undefined, 'no usage reported yet');
		assert.equal(view.limitTokens, undefined);
		assert.deepEqual(view.reminders, [
			{ key: 'workspace.instructions', label: 'instructions', deliveries: 1, tokens: estimateTokens(wrap('workspace.instructions', long)) },
			{ key: 'read.truncated', label: 'read.truncated', deliveries: 1, tokens: estimateTokens(wrap('read.truncated', 'Showing lines 1–2000 of 9000.')) },
			{ key: 'session.date', label: 'date', deliveries: 1, tokens: estimateTokens(wrap('session.date', 'Today.')) },
		]);
	});

	it('takes the last reported usage, input plus output, and ignores a bad window', () => {
		const tracker = new ContextUseTracker();
		tracker.take({ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 1, text: '', toolCalls: [], stop: 'tool-use', usage: { inputTokens: 900, outputTokens: 100 } });
		tracker.take({ kind: 'assistant', id: 'a2', turnId: 't1', requestId: 'q2', at: 2, text: '', toolCalls: [], stop: 'end' });
		assert.deepEqual(tracker.view(8192), { usedTokens: 1000, limitTokens: 8192, reminders: [] });
		assert.equal(tracker.view(0).limitTokens, undefined);
		assert.equal(tracker.view(-5).limitTokens, undefined);
	});
});
