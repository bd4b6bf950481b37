import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileRejected, mentionedFile } from '../reminders/builtin/mentions';
import type { UserTurnItem } from '../protocol/messages';
import type { StagedEntry } from '../reminders/definition';
import type { AgentRecord } from '../transcript/records';
import { testSessions } from '../testing/sessions';
import { itemsOf } from './rows';
import { SessionProjection } from './sessionView';

const owner = { kind: 'root', id: 't1' } as const;
/** As the injection record keeps an entry. */
const recorded = (entry: StagedEntry) => ({ type: entry.type, key: entry.key, label: entry.label ?? entry.type, body: entry.body ?? '', reason: entry.reason ?? '' });
const attached = recorded(mentionedFile({ shown: 'src/a.ts', text: 'x', first: 1, last: 1, total: 1, cut: false, subject: { ref: '/w/src/a.ts', hashes: ['abcdef12'] } }));
const userOf = (items: readonly { kind: string }[]): UserTurnItem | undefined => items.find((item): item is UserTurnItem => item.kind === 'user');

describe('the user row as its turn goes on', () => {
	it('shows the mentions pending, then what the first request\'s injection said of them', () => {
		const records: AgentRecord[] = [
			{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'look at @src/a.ts and @nope.ts#L3' },
		];
		assert.deepEqual(userOf(itemsOf(records))?.mentions?.map((chip) => chip.state), ['pending', 'pending']);
		records.push({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId: 'q1', at: 2, turn: 1, entries: [attached, recorded(fileRejected('@nope.ts#L3', 'no such file in the workspace folders.'))] });
		const user = userOf(itemsOf(records));
		assert.ok(user);
		assert.equal(user.text, 'look at @src/a.ts and @nope.ts#L3', 'the text stays as typed');
		assert.deepEqual(user.mentions?.map((chip) => [chip.label, chip.state]), [['src/a.ts', 'attached'], ['nope.ts#L3', 'rejected']]);
	});

	it('a turn Aside started keeps what it sent in the person\'s place on its row, and has no chips', () => {
		const startedBy = { why: 'p1 `npm test` exited: exit code 1', key: 'run.background.wake', label: 'Aside started this turn', body: 'No person wrote this message. @src/a.ts' };
		const user = userOf(itemsOf([{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: '', startedBy }]));
		assert.deepEqual(user?.startedBy, startedBy);
		assert.equal(user.text, '');
		assert.equal(user.mentions, undefined, 'its reminder is not the person\'s text: nothing in it is a mention');
	});

	it('a mid-turn injection, or a child\'s, does not settle them; a request without any injection does', () => {
		const records: AgentRecord[] = [
			{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'ask @someone' },
			{ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner: { kind: 'agent', id: 'root/explore#1' }, requestId: 'c1', at: 2, turn: 1, entries: [attached], agent: 'root/explore#1' } as AgentRecord,
		];
		assert.deepEqual(userOf(itemsOf(records))?.mentions?.map((chip) => chip.state), ['pending']);
		records.push({ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 3, text: 'Hi.', toolCalls: [], stop: 'end' });
		assert.equal(userOf(itemsOf(records))?.mentions, undefined, '@someone named nothing: no chip');
	});

	it('merges hook context from the record and from the turn\'s hook-context record, reserved first', () => {
		const records: AgentRecord[] = [
			{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'go', hookContext: [{ event: 'UserPromptSubmit', text: 'branch: main' }] },
		];
		assert.deepEqual(userOf(itemsOf(records))?.hookContext, [{ event: 'UserPromptSubmit', text: 'branch: main' }]);
		records.push({ kind: 'hook-context', id: 'h0', turnId: 'other', requestId: 'q0', at: 2, entries: [{ event: 'SessionStart', text: 'not this turn' }] });
		records.push({ kind: 'hook-context', id: 'h1', turnId: 't1', requestId: 'q1', at: 2, entries: [{ event: 'SessionStart', text: 'welcome <b>x</b>' }] });
		assert.deepEqual(userOf(itemsOf(records))?.hookContext, [
			{ event: 'SessionStart', text: 'welcome <b>x</b>' },
			{ event: 'UserPromptSubmit', text: 'branch: main' },
		]);
	});

	it('the projection sends the changed user row as an update, and its snapshot has it too', () => {
		const sessions = testSessions();
		const projection = new SessionProjection(sessions.current);
		const updates: string[] = [];
		projection.onDidUpdate((rows) => updates.push(...rows.map((row) => (row.kind === 'user' ? `${row.id} ${row.mentions?.map((chip) => chip.state).join(',') ?? ''} ${row.hookContext?.map((part) => part.event).join(',') ?? ''}` : row.id))));
		sessions.current.append({ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: '@src/a.ts' });
		sessions.current.append({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId: 'q1', at: 2, turn: 1, entries: [attached] });
		sessions.current.append({ kind: 'hook-context', id: 'h1', turnId: 't1', requestId: 'q1', at: 2, entries: [{ event: 'SessionStart', text: 'hi' }] });
		assert.deepEqual(updates, ['u1 attached ', 'u1 attached SessionStart']);
		const shown = userOf(projection.toView().items);
		assert.deepEqual([shown?.mentions?.[0]?.state, shown?.hookContext?.[0]?.event], ['attached', 'SessionStart']);
		assert.deepEqual(userOf(projection.items)?.mentions?.[0]?.state, 'attached');
	});

	it('bounds a long hook text for the view, saying so', () => {
		const long = 'x'.repeat(25_000);
		const user = userOf(itemsOf([{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'go', hookContext: [{ event: 'SessionStart', text: long }] }]));
		assert.match(user?.hookContext?.[0]?.text ?? '', /^x{20000}\n… 5,000 more characters/u);
	});
});
