// The implementation request an approval sends: shown as that request (its plan behind a
// disclosure), while the transcript and what the model is sent keep the whole message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { implementationPrompt } from '../agent/plans';
import type { AgentRecord } from '../transcript/records';
import { replayHistory } from '../transcript/replay';
import { itemsOf } from './rows';

const PLAN = '## Goal\nSay good morning.\n\n## Steps\n1. Change the greeting.';
const FILE = '/home/u/.config/Code/User/workspaceStorage/0123abcd/aside-dev.aside/sessions/s1.plans/plan-1.md';

function approved(note?: string): AgentRecord[] {
	return [
		{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'Plan the greeting.' },
		{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 2, text: `Here it is.\n<proposed_plan>\n${PLAN}\n</proposed_plan>`, toolCalls: [], stop: 'end' },
		{ kind: 'turn-end', turnId: 't1', at: 3, outcome: 'done' },
		{ kind: 'plan-decision', id: 'd1', at: 4, proposal: 'a1', decision: 'approved', mode: 'auto-edit', file: FILE, ...(note ? { note } : {}) },
	];
}

describe('the implementation request of an approved plan', () => {
	it('is the user row of the approval that sent it: its decision and plan file, its text whole', () => {
		for (const note of [undefined, 'Keep it short.']) {
			const records = [...approved(note), { kind: 'user' as const, id: 'u2', turnId: 't2', at: 5, text: implementationPrompt(PLAN, FILE, note ?? '') }];
			const request = itemsOf(records).find((item) => item.id === 'u2');
			assert.deepEqual(request?.kind === 'user' ? request.implementsPlan : undefined, { decision: 'd1', file: FILE }, `note: ${String(note)}`);
			assert.equal(request?.kind === 'user' ? request.text : '', implementationPrompt(PLAN, FILE, note ?? ''), 'the row still carries what was sent');
			// The model gets the message as it was: the whole plan, the file and the note.
			const sent = replayHistory(records).filter((message) => message.role === 'user').at(-1);
			assert.deepEqual(sent?.role === 'user' ? sent.content : undefined, [{ type: 'text', text: implementationPrompt(PLAN, FILE, note ?? '') }]);
		}
	});

	it('is nothing else: the person\'s own next message, a message before any approval, or a later one', () => {
		const typed = itemsOf([...approved(), { kind: 'user', id: 'u2', turnId: 't2', at: 5, text: 'Actually, wait.' }]).find((item) => item.id === 'u2');
		assert.equal(typed?.kind === 'user' ? typed.implementsPlan : 'no row', undefined, 'a message typed instead');
		const quoted = implementationPrompt(PLAN, FILE, '');
		const before = itemsOf([{ kind: 'user', id: 'u0', turnId: 't0', at: 0, text: quoted }]);
		assert.equal(before[0]?.kind === 'user' ? before[0].implementsPlan : 'no row', undefined, 'the same words with no approval before them');
		const again = itemsOf([...approved(), { kind: 'user', id: 'u2', turnId: 't2', at: 5, text: quoted }, { kind: 'turn-end', turnId: 't2', at: 6, outcome: 'done' }, { kind: 'user', id: 'u3', turnId: 't3', at: 7, text: quoted }]);
		assert.deepEqual(again.flatMap((item) => (item.kind === 'user' && item.implementsPlan ? [item.id] : [])), ['u2'], 'one approval, one request');
	});
});
