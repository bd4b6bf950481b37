import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wrap } from '../reminders/envelope';
import type { InjectionRecord } from '../reminders/record';
import type { AssistantRecord, UserRecord } from '../transcript/records';
import type { CompactionRecord } from '../transcript/historyMarkers';
import { summaryMessage } from '../transcript/replay';
import { ContextUseTracker, estimateTokens } from './contextUse';

const owner = { kind: 'root', id: 't1' } as const;

describe('ContextUseTracker', () => {
	it('counts each key\'s blocks as sent, tool notices included, most expensive first', () => {
		const tracker = new ContextUseTracker();
		const long = 'x'.repeat(400);
		assert.equal(tracker.take({ kind: 'user', id: 'u1', turnId: 't1', at: 0, text: 'hi' }), true, 'the first message: there is something to compact');
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
			// Per key, the declared label, whatever a delivery's own said (an MCP one names its server).
			{ key: 'workspace.instructions', label: 'project instructions', deliveries: 1, tokens: estimateTokens(wrap('workspace.instructions', long)) },
			{ key: 'read.truncated', label: 'read.truncated', deliveries: 1, tokens: estimateTokens(wrap('read.truncated', 'Showing lines 1–2000 of 9000.')) },
			{ key: 'session.date', label: 'date', deliveries: 1, tokens: estimateTokens(wrap('session.date', 'Today.')) },
		]);
	});

	it('estimates each block once: what is in context and the table\'s total are one sum, to the token', () => {
		// Blocks whose lengths are no multiple of four: each rounds up on its own, so rounding their sum instead came out lower.
		const body = (length: number, key: string): string => {
			const frame = wrap(key, '').length;
			return 'x'.repeat(length - frame);
		};
		const tracker = new ContextUseTracker();
		tracker.take({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId: 'q1', at: 1, turn: 1, entries: [
			{ type: 'workspaceInstructions', key: 'workspace.instructions', label: 'instructions', body: body(1521, 'workspace.instructions'), reason: 'r' },
			{ type: 'sessionDate', key: 'session.date', label: 'date', body: body(61, 'session.date'), reason: 'r' },
		] });
		tracker.take({ kind: 'tool-result', id: 'r1', turnId: 't1', callId: 'c1', name: 'Read', at: 2, content: 'a', isError: false, notices: [{ key: 'read.truncated', body: body(117, 'read.truncated') }] });
		const view = tracker.view(undefined);
		const table = view.reminders.reduce((sum, cost) => sum + cost.tokens, 0);
		assert.deepEqual(view.reminders.map((cost) => cost.tokens), [381, 30, 16]);
		assert.equal(table, 427);
		assert.equal(view.remindersInContext, table, 'the line says what the table adds up to');
		assert.equal(Math.ceil((1521 + 61 + 117) / 4), 425, 'where rounding the characters\' sum said 425');
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

describe('ContextUseTracker across a compaction', () => {
	const injection = (requestId: string, body: string): InjectionRecord => ({
		kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId, at: 1, turn: 1, entries: [{ type: 'sessionDate', key: 'session.date', label: 'date', body, reason: 'r' }],
	});
	const user = (id: string): UserRecord => ({ kind: 'user', id, turnId: 't1', at: 0, text: 'hi' });
	const answer = (id: string, usage?: AssistantRecord['usage']): AssistantRecord => ({ kind: 'assistant', id, turnId: 't1', requestId: `q-${id}`, at: 2, text: 'ok', toolCalls: [], stop: 'end', ...(usage ? { usage } : {}) });
	const compaction = (keepFrom?: string): CompactionRecord => ({
		kind: 'compaction', id: 'k1', at: Date.UTC(2026, 11, 1, 14, 2), cause: 'auto', summary: 'Goals: ship it.', tokensBefore: 150_000, tokensAfter: 12_000, ...(keepFrom ? { keepFrom } : {}),
	});
	const summaryBlock = (record: CompactionRecord): string => {
		const [part] = summaryMessage(record).content;
		return part?.type === 'text' ? part.text : assert.fail('the summary is text');
	};
	const early = 'e'.repeat(4000);
	const kept = 'k'.repeat(400);

	it('estimates the context at tokensAfter until the next answer reports usage, and says where it compacted', () => {
		const tracker = new ContextUseTracker();
		tracker.take(user('u1'));
		tracker.take(answer('a1', { inputTokens: 140_000, outputTokens: 10_000 }));
		assert.equal(tracker.take(compaction()), true);
		const after = tracker.view(200_000);
		assert.equal(after.usedTokens, 12_000);
		assert.equal(after.estimated, true);
		assert.deepEqual(after.compaction, { at: Date.UTC(2026, 11, 1, 14, 2), cause: 'auto', tokensBefore: 150_000, tokensAfter: 12_000 });
		tracker.take(user('u2'));
		assert.equal(tracker.view(200_000).estimated, true, 'a user message reports no usage');
		tracker.take(answer('a2', { inputTokens: 13_000, outputTokens: 500 }));
		const answered = tracker.view(200_000);
		assert.equal(answered.usedTokens, 13_500);
		assert.equal(answered.estimated, undefined, 'reported, not estimated');
		assert.equal(answered.compaction?.tokensAfter, 12_000, 'the compaction point stays');
	});

	it('counts the reminders still in context: reset at a compaction to the kept tail and the summary block', () => {
		const tracker = new ContextUseTracker();
		tracker.take(injection('q1', early));
		tracker.take(user('u1'));
		tracker.take(answer('a1'));
		tracker.take(user('u2'));
		tracker.take(injection('q2', kept));
		tracker.take({ kind: 'tool-result', id: 'r1', turnId: 't1', callId: 'c1', name: 'Read', at: 3, content: 'a', isError: false, notices: [{ key: 'read.truncated', body: 'Showing 1–10.' }] });
		const before = tracker.view(undefined);
		const all = estimateTokens(wrap('session.date', early)) + estimateTokens(wrap('session.date', kept)) + estimateTokens(wrap('read.truncated', 'Showing 1–10.'));
		assert.equal(before.remindersInContext, all, 'never compacted: every block is replayed');

		const record = compaction('u2');
		tracker.take(record);
		const tail = estimateTokens(wrap('session.date', kept)) + estimateTokens(wrap('read.truncated', 'Showing 1–10.'));
		assert.equal(tracker.view(undefined).remindersInContext, tail + estimateTokens(summaryBlock(record)), 'the kept tail from u2, and the summary');
		tracker.take(injection('q3', 'Later.'));
		assert.equal(tracker.view(undefined).remindersInContext, tail + estimateTokens(summaryBlock(record)) + estimateTokens(wrap('session.date', 'Later.')), 'what follows counts again');

		const table = tracker.view(undefined).reminders;
		assert.equal(table.find((cost) => cost.key === 'session.date')?.deliveries, 3, 'the table stays every delivery of the chat');
		assert.deepEqual(table.find((cost) => cost.key === 'context.summary'), { key: 'context.summary', label: 'summary', deliveries: 1, tokens: estimateTokens(summaryBlock(record)) });
	});

	it('keeps no tail when keepFrom is absent or names no record, and ignores a child\'s compaction', () => {
		const tracker = new ContextUseTracker();
		tracker.take(injection('q1', early));
		tracker.take(user('u1'));
		const record = compaction('missing');
		tracker.take(record);
		assert.equal(tracker.view(undefined).remindersInContext, estimateTokens(summaryBlock(record)));
		assert.equal(tracker.take({ ...compaction(), id: 'k2', tokensAfter: 5, agent: 'root/explore#1' }), false);
		assert.equal(tracker.view(undefined).usedTokens, 12_000);
	});

	it('reports the cache numbers of the last answer that said them', () => {
		const tracker = new ContextUseTracker();
		tracker.take(answer('a1', { inputTokens: 20_000, outputTokens: 100, cacheReadTokens: 12_300, cacheWriteTokens: 1_100 }));
		const view = tracker.view(undefined);
		assert.equal(view.cacheReadTokens, 12_300);
		assert.equal(view.cacheWriteTokens, 1_100);
		tracker.take(answer('a2', { inputTokens: 21_000, outputTokens: 100 }));
		assert.equal(tracker.view(undefined).cacheReadTokens, undefined, 'a provider that said nothing this time: no stale numbers');
	});

	it('says Compact can run only with something to compact since the compaction point, and passes the threshold on', () => {
		const tracker = new ContextUseTracker();
		assert.equal(tracker.view(undefined).canCompact, undefined, 'not asked, not said');
		assert.equal(tracker.view(undefined, { mayCompact: true }).canCompact, false, 'an empty chat has nothing to compact');
		assert.equal(tracker.take(user('u1')), true, 'the first message changes that');
		assert.equal(tracker.take(user('u2')), false, 'a second one does not');
		assert.equal(tracker.view(undefined, { mayCompact: true }).canCompact, true);
		assert.equal(tracker.view(undefined, { mayCompact: false }).canCompact, false);
		tracker.take(compaction('u2'));
		assert.equal(tracker.view(undefined, { mayCompact: true }).canCompact, false, 'just compacted: nothing new to compact');
		tracker.take(answer('a1'));
		assert.equal(tracker.view(undefined, { mayCompact: true, autoCompactAt: 0.8 }).canCompact, true);
		assert.equal(tracker.view(undefined, { autoCompactAt: 0.8 }).autoCompactAt, 0.8);
		assert.equal(tracker.view(undefined).autoCompactAt, undefined);
	});
});
