import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wrap } from '../reminders/envelope';
import type { InjectionRecord } from '../reminders/record';
import type { AssistantRecord, UserRecord } from '../transcript/records';
import type { RestoreRecord } from '../transcript/restoreRecord';
import type { CompactionRecord } from '../transcript/historyMarkers';
import { ContextUseTracker, estimateTokens } from './contextUse';

const owner = { kind: 'root', id: 't1' } as const;
const user = (id: string, turnId = `turn-${id}`): UserRecord => ({ kind: 'user', id, turnId, at: 0, text: 'hi' });
const answer = (id: string, usage?: AssistantRecord['usage']): AssistantRecord => ({ kind: 'assistant', id, turnId: 't1', requestId: `q-${id}`, at: 2, text: 'ok', toolCalls: [], stop: 'end', ...(usage ? { usage } : {}) });
const injection = (requestId: string, body: string): InjectionRecord => ({
	kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId, at: 1, turn: 1, entries: [{ type: 'sessionDate', key: 'session.date', label: 'date', body, reason: 'r' }],
});
const restore = (to: string, scope: RestoreRecord['scope'] = 'chat', turns: string[] = [`turn-${to}`]): RestoreRecord => ({ kind: 'restore', id: `restore-${to}-${scope}`, at: 9, to, scope, turns, files: [] });
const compaction: CompactionRecord = { kind: 'compaction', id: 'k1', at: 5, cause: 'manual', summary: 'Said hello.', tokensBefore: 9_000, tokensAfter: 700 };

/** u1 → a1 (1,100 used) → u2 → its reminder → a2 (5,200 used). */
function twoTurns(): ContextUseTracker {
	const tracker = new ContextUseTracker();
	tracker.take(user('u1'));
	tracker.take(injection('q1', 'Today.'));
	tracker.take(answer('a1', { inputTokens: 1_000, outputTokens: 100 }));
	tracker.take(user('u2'));
	tracker.take(injection('q2', 'Later.'));
	tracker.take(answer('a2', { inputTokens: 5_000, outputTokens: 200, cacheReadTokens: 4_000 }));
	return tracker;
}

describe('ContextUseTracker across a chat restore', () => {
	it('goes back to the context before the message restored to, as an estimate until the next answer reports usage', () => {
		const tracker = twoTurns();
		assert.equal(tracker.view(200_000).usedTokens, 5_200);
		assert.equal(tracker.take(restore('u2')), true, 'the context use changed');
		const restored = tracker.view(200_000, { mayCompact: true });
		assert.equal(restored.usedTokens, 1_100, 'what the context held before u2: the turns after it are rolled back');
		assert.equal(restored.estimated, true, 'an estimate: the provider has not measured this history');
		assert.equal(restored.remindersInContext, estimateTokens(wrap('session.date', 'Today.')), 'the rolled-back reminder is no longer replayed');
		assert.deepEqual(restored.reminders, [{ key: 'session.date', label: 'date', deliveries: 2, tokens: 2 * estimateTokens(wrap('session.date', 'Today.')) }], 'the table still counts every block sent');
		assert.equal(restored.canCompact, true, 'u1 and a1 are still there to compact');

		tracker.take(user('u3'));
		assert.equal(tracker.view(200_000).estimated, true, 'a message reports no usage');
		tracker.take(answer('a3', { inputTokens: 1_300, outputTokens: 40 }));
		const answered = tracker.view(200_000);
		assert.equal(answered.usedTokens, 1_340);
		assert.equal(answered.estimated, undefined, 'reported again');
	});

	it('restored to the first message: nothing is known to be in context, and nothing is left to compact', () => {
		const tracker = twoTurns();
		assert.equal(tracker.take(restore('u1', 'both', ['turn-u1', 'turn-u2'])), true);
		const view = tracker.view(200_000, { mayCompact: true });
		assert.equal(view.usedTokens, undefined);
		assert.equal(view.estimated, undefined, 'no number, so no estimate either');
		assert.equal(view.remindersInContext, undefined);
		assert.equal(view.canCompact, false);
		assert.equal(view.cacheReadTokens, 4_000, 'the last request\'s cache numbers are still that request\'s');
	});

	it('a restore of files only, or to a message it does not know, changes nothing', () => {
		const tracker = twoTurns();
		const before = tracker.view(200_000);
		assert.equal(tracker.take(restore('u2', 'files')), false);
		assert.equal(tracker.take(restore('missing')), false);
		assert.deepEqual(tracker.view(200_000), before);
	});

	it('a restore to before a compaction rolls the compaction back with its part', () => {
		const tracker = twoTurns();
		tracker.take(compaction);
		tracker.take(user('u3'));
		assert.equal(tracker.view(200_000).compaction?.tokensAfter, 700);
		tracker.take(restore('u2', 'chat', ['turn-u2', 'turn-u3']));
		const view = tracker.view(200_000);
		assert.equal(view.compaction, undefined, 'the compaction came after u2');
		assert.equal(view.usedTokens, 1_100);
		assert.equal(view.estimated, true);

		// Restored to a message after the compaction point: the compaction stays.
		const later = twoTurns();
		later.take(compaction);
		later.take(user('u3'));
		later.take(answer('a3', { inputTokens: 800, outputTokens: 50 }));
		later.take(user('u4'));
		later.take(restore('u4'));
		assert.equal(later.view(200_000).compaction?.tokensAfter, 700);
		assert.equal(later.view(200_000).usedTokens, 850);
	});
});
