import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatSession } from '../agent/session';
import type { ToolItem, TranscriptItem } from '../protocol/messages';
import { MemorySessionStore } from '../testing/memorySessionStore';
import { testEnvironment } from '../testing/sessions';
import type { AgentRecord } from '../transcript/records';
import type { RestoreRecord } from '../transcript/restoreRecord';
import { ItemProjector } from './rows';
import { SessionProjection } from './sessionView';

describe('the restored row', () => {
	it('says what was restored, to which message, how many turns and what became of each file', () => {
		const projector = new ItemProjector();
		projector.project({ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'Fix <script>the</script> parser' });
		const { item } = projector.project({ kind: 'restore', id: 'r1', at: 5, to: 'u1', scope: 'both', turns: ['t1', 't2'], files: [{ path: '/ws/a.ts', shown: 'a.ts', action: 'person-changed', done: false }] });
		assert.deepEqual(item, { kind: 'restore', id: 'r1', at: 5, scope: 'both', to: 'u1', message: 'Fix <script>the</script> parser', turns: 2, files: [{ shown: 'a.ts', action: 'person-changed', done: false }] });
	});
});

describe('the rows a chat restore rolled back', () => {
	const owner = { kind: 'root', id: 't2' } as const;
	const entry = { type: 'sessionDate', key: 'session.date', label: 'date', body: 'Today.', reason: 'a new day' };
	/** Two turns, the second with turn-start reminders, a tool call and a sub-agent, then a restore to before it. */
	const records = (scope: RestoreRecord['scope'], to = 'u2'): AgentRecord[] => [
		{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'First' },
		{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 2, text: 'One.', toolCalls: [], stop: 'end' },
		{ kind: 'turn-end', turnId: 't1', at: 3, outcome: 'done' },
		{ kind: 'user', id: 'u2', turnId: 't2', at: 4, text: 'Second' },
		{ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId: 'q2', at: 5, turn: 2, entries: [entry] },
		{ kind: 'assistant', id: 'a2', turnId: 't2', requestId: 'q2', at: 6, text: 'Looking.', toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }], stop: 'tool-use' },
		{ kind: 'tool-result', id: 'r1', turnId: 't2', callId: 'c1', name: 'Read', at: 7, content: 'a', isError: false },
		{ kind: 'turn-end', turnId: 't2', at: 8, outcome: 'failed', error: 'boom' },
		{ kind: 'restore', id: 'x1', at: 9, to, scope, turns: ['t2'], files: [] },
	];
	const marks = (rows: readonly TranscriptItem[]) => rows.map((row) => `${row.id}${row.rolledBack === undefined ? '' : ` ${row.rolledBack}`}`);

	it('marks every row from the message restored to on, the first shown of them as first; the earlier rows and the restored row stay as they were', () => {
		const session = new ChatSession('s1', new MemorySessionStore(), testEnvironment(), []);
		const projection = new SessionProjection(session);
		const updates: TranscriptItem[][] = [];
		projection.onDidUpdate((items) => updates.push([...items]));
		for (const record of records('chat')) {
			session.append(record);
		}
		assert.deepEqual(marks(projection.rows), ['u1', 'a1', 'reminders-q2 first', 'u2 rest', 'a2 rest', 'r1 rest', 'end-t2 rest', 'x1']);
		assert.deepEqual(updates.map(marks), [['u2 rest', 'reminders-q2 first', 'a2 rest', 'r1 rest', 'end-t2 rest']], 'sent as one update when the restore is recorded');
		assert.equal((updates[0]?.find((item) => item.id === 'r1') as ToolItem | undefined)?.result, 'a', 'the rows keep everything else: still readable and expandable');
	});

	it('survives a reload: a projection made from the records marks the same rows', () => {
		const live = new SessionProjection(new ChatSession('s1', new MemorySessionStore(), testEnvironment(), []));
		for (const record of records('both')) {
			live.session.append(record);
		}
		const reopened = new SessionProjection(new ChatSession('s2', new MemorySessionStore(), testEnvironment(), records('both')));
		assert.deepEqual(marks(reopened.rows), marks(live.rows));
		assert.deepEqual(reopened.toView().items.filter((item) => item.rolledBack !== undefined).map((item) => item.id), ['reminders-q2', 'u2', 'a2', 'r1', 'end-t2']);
	});

	it('marks nothing for a files-only restore, nor for a restore to a message rolled back already; a later restore to an earlier message marks what came since', () => {
		assert.deepEqual(marks(new SessionProjection(new ChatSession('s1', new MemorySessionStore(), testEnvironment(), records('files'))).rows).filter((mark) => mark.includes(' ')), []);
		const again: AgentRecord[] = [
			...records('chat'),
			{ kind: 'user', id: 'u3', turnId: 't3', at: 10, text: 'Third' },
			{ kind: 'assistant', id: 'a3', turnId: 't3', requestId: 'q3', at: 11, text: 'Three.', toolCalls: [], stop: 'end' },
			{ kind: 'restore', id: 'x2', at: 12, to: 'u2', scope: 'chat', turns: ['t2'], files: [] },
			{ kind: 'restore', id: 'x3', at: 13, to: 'u1', scope: 'chat', turns: ['t1', 't3'], files: [] },
		];
		assert.deepEqual(marks(new SessionProjection(new ChatSession('s1', new MemorySessionStore(), testEnvironment(), again)).rows), [
			'u1 first', 'a1 rest', 'reminders-q2 first', 'u2 rest', 'a2 rest', 'r1 rest', 'end-t2 rest', 'x1 rest', 'u3 rest', 'a3 rest', 'x2 rest', 'x3',
		]);
	});
});
