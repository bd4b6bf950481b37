import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentRecord } from '../transcript/records';
import type { TranscriptItem } from '../protocol/messages';
import { isShown, itemsOf } from './rows';
import { displayRows, RowOrder } from './rowOrder';

const owner = { kind: 'root', id: 't1' } as const;
const entry = { type: 'sessionDate', key: 'session.date', label: 'date', body: 'Today.', reason: 'a new day' };

const user = (id: string): TranscriptItem => ({ kind: 'user', id, text: id, at: 0 });
const reminders = (id: string, phase: 'turn-start' | 'mid-turn' = 'turn-start'): TranscriptItem => ({ kind: 'reminders', id, at: 0, phase, entries: [entry] });
const answer = (id: string, text: string, stop: 'end' | 'tool-use' | 'other' | 'interrupted' | 'failed' | 'max-tokens' | 'refusal' = 'end'): TranscriptItem => ({ kind: 'assistant', id, at: 0, text, stop });
const turnEnd = (id: string, outcome: 'done' | 'interrupted' | 'failed' | 'step-limit'): TranscriptItem => ({ kind: 'turn-end', id, at: 0, outcome });
const ids = (items: readonly TranscriptItem[]): string[] => items.map((item) => item.id);

describe('the rows the view is sent', () => {
	it('one item per record that has something to say; an answer that only called tools is its tool rows', () => {
		const records: AgentRecord[] = [
			{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'Read a.ts' },
			{ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId: 'q1', at: 2, turn: 1, entries: [entry] },
			{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 3, text: '', toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }], stop: 'tool-use' },
			{ kind: 'tool-result', id: 'r1', turnId: 't1', callId: 'c1', name: 'Read', at: 4, content: '1\tx', isError: false },
			{ kind: 'assistant', id: 'a2', turnId: 't1', requestId: 'q2', at: 5, text: 'Done.', toolCalls: [], stop: 'end' },
			{ kind: 'turn-end', turnId: 't1', at: 6, outcome: 'done' },
		];
		const items = itemsOf(records);
		assert.deepEqual(items.map((item) => item.kind), ['user', 'reminders', 'tool', 'assistant', 'turn-end']);
		const tool = items[2];
		assert.equal(tool?.kind === 'tool' ? tool.input : undefined, '{\n  "path": "a.ts"\n}', 'the tool row shows its call\'s input');
	});

	it('a compaction is a row of its own, with what the person asked to keep, in its own conversation', () => {
		const records: AgentRecord[] = [
			{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'go' },
			{ kind: 'compaction', id: 'k1', at: 2, cause: 'manual', keepFrom: 'u1', summary: 'S.', tokensBefore: 900, tokensAfter: 100, instructions: 'the API', model: 'm' },
			{ kind: 'compaction', id: 'k2', at: 3, cause: 'auto', summary: 'T.', tokensBefore: 800, tokensAfter: 90, agent: 'root/explore#1' },
		];
		const [, root, child] = itemsOf(records);
		assert.deepEqual(root, { kind: 'compaction', id: 'k1', at: 2, cause: 'manual', tokensBefore: 900, tokensAfter: 100, summary: 'S.', instructions: 'the API' });
		assert.equal(child?.kind === 'compaction' ? child.agent : undefined, 'root/explore#1', 'a child\'s compaction goes in its block');
	});

	it('an answer that proposes a plan carries its parts as structure; a plan decision is a row of its own', () => {
		const records: AgentRecord[] = [
			{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 3, text: 'Intro.\n<proposed_plan>\n## Goal\nX\n</proposed_plan>\nOutro.', toolCalls: [], stop: 'end' },
			{ kind: 'assistant', id: 'a2', turnId: 't1', requestId: 'q2', at: 4, text: 'Quoting `<proposed_plan>` is no proposal.', toolCalls: [], stop: 'end' },
			{ kind: 'plan-decision', id: 'd1', at: 5, proposal: 'a1', decision: 'approved', mode: 'auto-edit', file: '/s/s1.plans/plan-1.md', note: 'go' },
		];
		const [proposed, plain, decision] = itemsOf(records);
		assert.deepEqual(proposed?.kind === 'assistant' ? proposed.proposal : undefined, { id: 'a1', before: 'Intro.', plan: '## Goal\nX', after: 'Outro.' });
		assert.equal(plain?.kind === 'assistant' ? plain.proposal : 'not an answer', undefined);
		assert.deepEqual(decision, { kind: 'plan-decision', id: 'd1', at: 5, decision: 'approved', mode: 'auto-edit', file: '/s/s1.plans/plan-1.md', note: 'go' });
		assert.ok(decision);
		assert.equal(isShown(decision), true);
	});

	it('shows no answer without text and nothing to flag, and no turn that simply finished', () => {
		assert.equal(isShown(answer('a', '', 'end')), false);
		assert.equal(isShown(answer('a', '', 'tool-use')), false);
		assert.equal(isShown(answer('a', '', 'other')), false);
		for (const stop of ['interrupted', 'failed', 'max-tokens', 'refusal'] as const) {
			assert.equal(isShown(answer('a', '', stop)), true, `a response that ended ${stop} is flagged`);
		}
		assert.equal(isShown(answer('a', 'text', 'end')), true);
		assert.equal(isShown(turnEnd('e', 'done')), false);
		for (const outcome of ['interrupted', 'failed', 'step-limit'] as const) {
			assert.equal(isShown(turnEnd('e', outcome)), true);
		}
		assert.equal(isShown(user('u')), true);
		assert.equal(isShown(reminders('r', 'mid-turn')), true);
	});

	it('places turn-start reminders above the message they followed, mid-turn ones where delivered', () => {
		const order = new RowOrder();
		assert.deepEqual(order.place(user('u1')), { row: user('u1') });
		assert.deepEqual(order.place(reminders('r1')), { row: reminders('r1'), before: 'u1' });
		assert.deepEqual(order.place(reminders('r1b')), { row: reminders('r1b'), before: 'u1' }, 'a second delivery for the same message goes there too');
		order.place(answer('a1', 'one'));
		assert.deepEqual(order.place(reminders('m1', 'mid-turn')), { row: reminders('m1', 'mid-turn') });
		assert.deepEqual(order.place(reminders('r-orphan')), { row: reminders('r-orphan') }, 'no message right above: it stays where it came');
		assert.equal(order.place(turnEnd('e1', 'done')), undefined);
		order.place(user('u2'));
		assert.deepEqual(ids(order.rows), ['r1', 'r1b', 'u1', 'a1', 'm1', 'r-orphan', 'u2']);
	});

	it('a row that is not shown ends the message\'s claim on the reminders that follow', () => {
		assert.deepEqual(ids(displayRows([user('u1'), turnEnd('e1', 'done'), reminders('r1')])), ['u1', 'r1']);
		assert.deepEqual(ids(displayRows([user('u1'), reminders('r1'), answer('a1', '', 'tool-use'), answer('a2', 'ok'), turnEnd('e1', 'done')])), ['r1', 'u1', 'a2']);
	});

	it('a snapshot\'s rows are the deltas\' rows, in the same order', () => {
		const items = [user('u1'), reminders('r1'), answer('a1', 'one'), turnEnd('e1', 'done'), user('u2'), reminders('r2'), reminders('m2', 'mid-turn'), answer('a2', '', 'failed'), turnEnd('e2', 'failed')];
		const shown: string[] = [];
		const order = new RowOrder();
		for (const item of items) {
			const placed = order.place(item);
			if (placed) {
				const at = placed.before === undefined ? shown.length : shown.indexOf(placed.before);
				shown.splice(at, 0, placed.row.id);
			}
		}
		assert.deepEqual(shown, ids(displayRows(items)));
		assert.deepEqual(shown, ['r1', 'u1', 'a1', 'r2', 'u2', 'm2', 'a2', 'e2']);
	});
});

describe('Retry on a failed turn', () => {
	it('the chat\'s last failed turn offers it; the next message takes it off that row; other endings never offer it', () => {
		const records: AgentRecord[] = [
			{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'go' },
			{ kind: 'turn-end', turnId: 't1', at: 2, outcome: 'failed', error: 'The key was refused.' },
		];
		const [, failed] = itemsOf(records);
		assert.deepEqual(failed, { kind: 'turn-end', id: 'end-t1', at: 2, outcome: 'failed', error: 'The key was refused.', retry: { turnId: 't1' } });
		const retried = itemsOf([...records, { kind: 'user', id: 'u2', turnId: 't2', at: 3, text: 'go', retryOf: 't1' }, { kind: 'turn-end', turnId: 't2', at: 4, outcome: 'interrupted' }]);
		assert.deepEqual(retried[1], { kind: 'turn-end', id: 'end-t1', at: 2, outcome: 'failed', error: 'The key was refused.' }, 'taken off once another message started a turn');
		assert.equal('retry' in (retried[3] ?? {}), false, 'a stopped turn offers none');
		const child = itemsOf([{ kind: 'turn-end', turnId: 't1', at: 2, outcome: 'failed', agent: 'root/explore#1' }]);
		assert.equal('retry' in (child[0] ?? {}), false, "a child's failure is its parent's to retry");
	});
});
