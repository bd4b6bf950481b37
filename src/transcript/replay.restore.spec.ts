// Replay after restores: a chat restore rolls the conversation back to before a
// message; a files-only one leaves it; several compose; compaction before or after composes too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentRecord, AssistantRecord, UserRecord } from './records';
import type { RestoreRecord } from './restoreRecord';
import type { CompactionRecord } from './historyMarkers';
import { replayHistory, selectedRecords } from './replay';

const user = (n: number): UserRecord => ({ kind: 'user', id: `u${n}`, turnId: `t${n}`, at: n, text: `message ${n}` });
const answer = (n: number): AssistantRecord => ({ kind: 'assistant', id: `a${n}`, turnId: `t${n}`, requestId: `r${n}`, at: n, text: `answer ${n}`, toolCalls: [], stop: 'end' });
const turn = (n: number): AgentRecord[] => [user(n), answer(n)];
const restore = (to: number, scope: RestoreRecord['scope'] = 'chat', id = `restore-${to}`): RestoreRecord => ({ kind: 'restore', id, at: 100, to: `u${to}`, scope, turns: [], files: [] });
const compaction = (keepFrom?: string): CompactionRecord => ({ kind: 'compaction', id: `c-${keepFrom ?? 'all'}`, at: 50, cause: 'manual', summary: 'SUMMARY', tokensBefore: 10, tokensAfter: 2, ...(keepFrom ? { keepFrom } : {}) });

/** The texts a request would replay, the summary as `SUMMARY`. */
function texts(records: readonly AgentRecord[]): string[] {
	return replayHistory(records).map((message) => {
		const [part] = message.role === 'tool' ? [{ type: 'text', text: message.content }] : message.content;
		const text = part.type === 'text' ? part.text : '';
		return text.includes('SUMMARY') ? 'SUMMARY' : text;
	});
}

describe('replay after a restore', () => {
	it('a chat restore continues from before the message; the rolled-back turns are not replayed', () => {
		const records = [...turn(1), ...turn(2), ...turn(3), restore(2), ...turn(4)];
		assert.deepEqual(texts(records), ['message 1', 'answer 1', 'message 4', 'answer 4']);
	});

	it('a files-only restore leaves the history as it is; "both" rolls it back like "chat"', () => {
		assert.deepEqual(texts([...turn(1), ...turn(2), restore(2, 'files')]), ['message 1', 'answer 1', 'message 2', 'answer 2']);
		assert.deepEqual(texts([...turn(1), ...turn(2), restore(2, 'both')]), ['message 1', 'answer 1']);
	});

	it('several restores compose, each on what the earlier left; one to a message rolled back already changes nothing', () => {
		const records = [...turn(1), ...turn(2), ...turn(3), restore(3), ...turn(4), restore(2, 'chat', 'second'), ...turn(5)];
		assert.deepEqual(texts(records), ['message 1', 'answer 1', 'message 5', 'answer 5']);
		const again = [...turn(1), ...turn(2), restore(2), ...turn(3), restore(2, 'chat', 'again')];
		assert.deepEqual(texts(again), ['message 1', 'answer 1', 'message 3', 'answer 3'], 'u2 is no longer in the chat');
	});

	it('a restore to before a compaction point rolls the compaction back too', () => {
		const records = [...turn(1), ...turn(2), compaction(), ...turn(3), restore(2)];
		const selected = selectedRecords(records);
		assert.equal(selected.compaction, undefined);
		assert.deepEqual(texts(records), ['message 1', 'answer 1']);
	});

	it('a restore after a compaction point keeps the compaction and its kept tail', () => {
		const records = [...turn(1), ...turn(2), compaction('u2'), ...turn(3), ...turn(4), restore(4)];
		assert.equal(selectedRecords(records).compaction?.id, 'c-u2');
		assert.deepEqual(texts(records), ['SUMMARY', 'message 2', 'answer 2', 'message 3', 'answer 3']);
	});

	it('a compaction after a restore summarizes what the restore left, and its tail is after the restore', () => {
		const records = [...turn(1), ...turn(2), restore(2), ...turn(3), compaction('u3'), answer(3)];
		assert.deepEqual(texts(records), ['SUMMARY', 'message 3', 'answer 3', 'answer 3']);
		// A later restore to before that compaction: its summary goes, what the earlier restore left stays rolled back.
		assert.deepEqual(texts([...records, restore(3, 'chat', 'later')]), ['message 1', 'answer 1']);
	});
});
