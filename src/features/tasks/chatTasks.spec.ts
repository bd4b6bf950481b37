import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TASKS_NUDGE } from '../../reminders/builtin/catalog/agents';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { testEnvironment } from '../../testing/sessions';
import { MAX_CHAT_ROWS, MAX_ROWS_PER_WRITE, MAX_TASK_TITLE_CHARS } from '../../tools/taskAccess';
import type { TasksRecord } from '../../transcript/records';
import { ChatSession } from '../../agent/session';
import { ChatTasks, SETTLED, withinSubtree } from './chatTasks';

/** A chat over a memory store (or one reopened from `store`), with its task list. */
function chat(store = new MemorySessionStore(), options: { isRunning?: (path: string) => boolean } = {}) {
	const clock = new FakeClock(1_000);
	const ids = new SequentialIds('id');
	const session = new ChatSession('s1', store, testEnvironment(clock, ids), store.records);
	const tasks = new ChatTasks(session, { clock, newId: () => ids.next(), ...options });
	const records = () => store.records.filter((record): record is TasksRecord => record.kind === 'tasks');
	return { session, tasks, store, records };
}

function ok<T extends { ok: boolean }>(result: T): Extract<T, { ok: true }> {
	assert.equal(result.ok, true, JSON.stringify(result));
	return result as Extract<T, { ok: true }>;
}

function refused(result: { ok: boolean; error?: string }): string {
	assert.equal(result.ok, false, 'refused');
	return result.error ?? '';
}

describe('ChatTasks', () => {
	it('creates rows owned by their writer, pending by default, and records one tasks record per write at the session turn', () => {
		const { session, tasks, records } = chat();
		session.reminders.beginUserTurn('t1');
		const written = ok(tasks.write('root', [{ id: 'a', title: 'Parse' }, { id: 'b', title: 'Test', status: 'in_progress', notes: 'the lexer first' }]));
		assert.deepEqual(written.changed, [
			{ id: 'a', title: 'Parse', status: 'pending', owner: 'root' },
			{ id: 'b', title: 'Test', status: 'in_progress', owner: 'root', notes: 'the lexer first' },
		]);
		assert.equal(records().length, 1);
		const record = records()[0];
		assert.ok(record);
		assert.equal(record.by, 'root');
		assert.equal(record.turn, 1);
		assert.deepEqual(record.rows, written.changed);
		assert.equal(tasks.lastWriteTurn, 1);
	});

	it('an update changes only the fields it gives, records only the rows it changed, and "" clears the notes', () => {
		const { tasks, records } = chat();
		ok(tasks.write('root', [{ id: 'a', title: 'Parse', notes: 'x' }, { id: 'b', title: 'Test' }]));
		const updated = ok(tasks.write('root', [{ id: 'a', status: 'completed', notes: '' }, { id: 'b', status: 'pending' }]));
		assert.deepEqual(updated.changed, [{ id: 'a', title: 'Parse', status: 'completed', owner: 'root' }], 'b was already pending');
		assert.deepEqual(records().at(-1)?.rows, updated.changed);
		assert.deepEqual(tasks.all.map((row) => [row.id, row.status]), [['a', 'completed'], ['b', 'pending']]);
	});

	it('a write that changes nothing records nothing and does not count as a write', () => {
		const { session, tasks, records } = chat();
		session.reminders.beginUserTurn('t1');
		ok(tasks.write('root', [{ id: 'a', title: 'Parse' }]));
		session.reminders.beginUserTurn('t2');
		assert.deepEqual(ok(tasks.write('root', [{ id: 'a', title: 'Parse', status: 'pending' }])).changed, []);
		assert.equal(records().length, 1);
		assert.equal(tasks.lastWriteTurn, 1);
	});

	it('refuses, changing nothing: a new row without a title, an id twice, a bad id, a long or multi-line title, too many rows', () => {
		const { tasks, records } = chat();
		ok(tasks.write('root', [{ id: 'a', title: 'Parse' }]));
		assert.match(refused(tasks.write('root', [{ id: 'a', status: 'completed' }, { id: 'new', status: 'pending' }])), /^new is a new task: give it a title/);
		assert.match(refused(tasks.write('root', [{ id: 'x', title: 'X' }, { id: 'x', title: 'Y' }])), /^x is given twice in one write/);
		assert.match(refused(tasks.write('root', [{ id: 'has space', title: 'X' }])), /^"has space" is not a task id/);
		assert.match(refused(tasks.write('root', [{ id: 'x', title: 'y'.repeat(MAX_TASK_TITLE_CHARS + 1) }])), /^x: the title has 201 characters; at most 200\./);
		assert.match(refused(tasks.write('root', [{ id: 'x', title: 'one\ntwo' }])), /^x: the title must be one line/);
		assert.match(refused(tasks.write('root', [{ id: 'x', title: 'red \u001b[31m' }])), /^x: the title must be one line of text, not empty \(no line breaks or control characters\)\./);
		assert.match(refused(tasks.write('root', [{ id: 'x', title: 'X', notes: 'nul \u0000' }])), /^x: the notes may hold line breaks and tabs, but no other control characters\./);
		ok(tasks.write('root', [{ id: 'tabbed', title: 'Tabbed', notes: 'a\tb\r\nc' }]));
		ok(tasks.write('root', [{ id: 'tabbed', status: 'cancelled' }]));
		assert.match(refused(tasks.write('root', [{ id: 'x', title: '   ' }])), /^x: the title must be one line of text, not empty/);
		assert.match(refused(tasks.write('root', [])), /at least one task row/);
		const many = Array.from({ length: MAX_ROWS_PER_WRITE + 1 }, (_, i) => ({ id: `r${i}`, title: 'T' }));
		assert.match(refused(tasks.write('root', many)), /201 rows in one write; at most 200/);
		assert.deepEqual(tasks.all[0], { id: 'a', title: 'Parse', status: 'pending', owner: 'root' }, 'the first row of the refused write was not applied either');
		assert.equal(records().length, 3, 'only the two accepted writes of "tabbed" were recorded after the first');
	});

	it('holds at most MAX_CHAT_ROWS rows in a chat', () => {
		const { tasks } = chat();
		for (let n = 0; n < MAX_CHAT_ROWS; n += MAX_ROWS_PER_WRITE) {
			ok(tasks.write('root', Array.from({ length: MAX_ROWS_PER_WRITE }, (_, i) => ({ id: `r${n + i}`, title: 'T' }))));
		}
		assert.match(refused(tasks.write('root', [{ id: 'r0', status: 'completed' }, { id: 'more', title: 'One more' }])), /has 1,000 task rows and this write adds 1; at most 1,000/);
		ok(tasks.write('root', [{ id: 'r0', status: 'completed' }]));
	});

	it('a child may create rows and change its own and its descendants\', never another\'s; the root may change any', () => {
		const { tasks } = chat();
		ok(tasks.write('root', [{ id: 'mine', title: 'Root work' }]));
		ok(tasks.write('root/general#1', [{ id: 'g', title: 'General work' }]));
		ok(tasks.write('root/general#1/explore#2', [{ id: 'e', title: 'Explore work' }]));
		ok(tasks.write('root/explore#3', [{ id: 'other', title: 'Sibling work' }]));
		assert.equal(tasks.all.find((row) => row.id === 'e')?.owner, 'root/general#1/explore#2');

		ok(tasks.write('root/general#1', [{ id: 'e', status: 'in_progress' }]));
		assert.equal(tasks.all.find((row) => row.id === 'e')?.owner, 'root/general#1/explore#2', 'an update keeps the owner');
		const error = refused(tasks.write('root/general#1', [{ id: 'g', status: 'completed' }, { id: 'mine', status: 'completed' }]));
		assert.match(error, /^mine belongs to root; root\/general#1 may change only its own rows/);
		assert.equal(tasks.all.find((row) => row.id === 'g')?.status, 'pending', 'nothing of the refused write applied');
		assert.match(refused(tasks.write('root/general#1/explore#2', [{ id: 'g', status: 'completed' }])), /^g belongs to root\/general#1;/);
		assert.match(refused(tasks.write('root/general#1', [{ id: 'other', status: 'completed' }])), /^other belongs to root\/explore#3;/);
		// root/general#10 is not inside root/general#1's subtree.
		ok(tasks.write('root/general#10', [{ id: 'ten', title: 'Ten' }]));
		assert.match(refused(tasks.write('root/general#1', [{ id: 'ten', status: 'completed' }])), /^ten belongs to root\/general#10;/);

		ok(tasks.write('root', [{ id: 'g', status: 'completed' }, { id: 'other', status: 'cancelled' }, { id: 'e', status: 'completed' }]));
		assert.equal(withinSubtree('root', 'root/x#1'), true);
	});

	it('settle closes the child\'s own open rows on success only, in one record by settled, and does not count as a write', () => {
		const { session, tasks, records } = chat();
		session.reminders.beginUserTurn('t1');
		ok(tasks.write('root/explore#1', [{ id: 'a', title: 'A' }, { id: 'b', title: 'B', status: 'in_progress' }, { id: 'c', title: 'C', status: 'cancelled' }]));
		ok(tasks.write('root/explore#1/explore#2', [{ id: 'nested', title: 'Nested' }]));
		ok(tasks.write('root', [{ id: 'root-row', title: 'Root' }]));
		ok(tasks.write('root/verify#3', [{ id: 'v', title: 'Verify' }]));
		const before = records().length;

		for (const outcome of ['failed', 'interrupted', 'step-limit'] as const) {
			assert.deepEqual(ok(tasks.settle('root/explore#1', outcome)).changed, [], outcome);
		}
		assert.equal(records().length, before, 'a failed or interrupted child leaves its rows open, and nothing is recorded');

		session.reminders.beginUserTurn('t2');
		const settled = ok(tasks.settle('root/explore#1', 'done'));
		assert.deepEqual(settled.changed.map((row) => [row.id, row.status]), [['a', 'completed'], ['b', 'completed']]);
		assert.equal(records().length, before + 1);
		assert.equal(records().at(-1)?.by, SETTLED);
		assert.deepEqual(
			tasks.open().map((row) => row.id),
			['nested', 'root-row', 'v'],
			'its descendants\', the root\'s and a sibling\'s rows stay open',
		);
		assert.equal(tasks.lastWriteTurn, 1, 'a settlement is not a task write');
		assert.deepEqual(ok(tasks.settle('root/explore#1', 'done')).changed, [], 'nothing left to close');
		assert.equal(records().length, before + 1);
		assert.deepEqual(ok(tasks.settle('root', 'done')).changed, [], 'the root is never settled');
	});

	it('a caller settles only the children it started, through its access', () => {
		const { tasks } = chat();
		ok(tasks.write('root/general#1', [{ id: 'g', title: 'G' }]));
		ok(tasks.write('root/general#1/explore#2', [{ id: 'e', title: 'E' }]));
		assert.equal(refused(tasks.access('root/explore#3').settle('root/general#1', 'done')), 'root/general#1 is not an agent root/explore#3 started, so root/explore#3 cannot settle its rows.');
		assert.match(refused(tasks.access('root/general#1').settle('root/general#1', 'done')), /is not an agent root\/general#1 started/);
		assert.deepEqual(ok(tasks.access('root/general#1').settle('root/general#1/explore#2', 'done')).changed.map((row) => row.id), ['e']);
		assert.deepEqual(ok(tasks.access('root').settle('root/general#1', 'done')).changed.map((row) => row.id), ['g']);
	});

	it('a record that cannot be written fails the write with a clear result, and nothing changes in memory', () => {
		const { tasks, store } = chat();
		ok(tasks.write('root', [{ id: 'a', title: 'Parse' }]));
		let fired = 0;
		tasks.onDidChange(() => fired++);
		store.failNext = new Error('disk full');
		assert.equal(refused(tasks.write('root', [{ id: 'a', status: 'completed' }, { id: 'b', title: 'New' }])), 'The task list could not be saved (disk full), so nothing changed.');
		assert.deepEqual(tasks.all, [{ id: 'a', title: 'Parse', status: 'pending', owner: 'root' }]);
		assert.equal(fired, 0);
		ok(tasks.write('root/x#1', [{ id: 'c', title: 'C' }]));
		store.failNext = new Error('disk full');
		assert.equal(refused(tasks.settle('root/x#1', 'done')), 'The task list could not be saved (disk full), so nothing changed.');
		assert.equal(tasks.all.find((row) => row.id === 'c')?.status, 'pending');
	});

	it('fires its event with every row on each change, not for a refused or empty write', () => {
		const { tasks } = chat();
		const seen: string[][] = [];
		tasks.onDidChange((rows) => seen.push(rows.map((row) => `${row.id}:${row.status}`)));
		ok(tasks.write('root', [{ id: 'a', title: 'A' }]));
		ok(tasks.write('root', [{ id: 'b', title: 'B' }, { id: 'a', status: 'in_progress' }]));
		refused(tasks.write('root', [{ id: 'c' }]));
		ok(tasks.write('root', [{ id: 'a', status: 'in_progress' }]));
		ok(tasks.write('root/x#1', [{ id: 'x', title: 'X' }]));
		ok(tasks.settle('root/x#1', 'done'));
		assert.deepEqual(seen, [['a:pending'], ['a:in_progress', 'b:pending'], ['a:in_progress', 'b:pending', 'x:pending'], ['a:in_progress', 'b:pending', 'x:completed']]);
	});

	it('a reopened chat has its rows, their owners and the turn of the last write again', () => {
		const first = chat();
		first.session.reminders.beginUserTurn('t1');
		first.session.reminders.beginUserTurn('t2');
		ok(first.tasks.write('root', [{ id: 'a', title: 'Parse', notes: 'line one\nline two' }, { id: 'b', title: 'Test' }]));
		ok(first.tasks.write('root/explore#1', [{ id: 'c', title: 'Look around' }]));
		first.session.reminders.beginUserTurn('t3');
		ok(first.tasks.write('root', [{ id: 'a', status: 'completed' }]));
		first.session.reminders.beginUserTurn('t4');
		ok(first.tasks.settle('root/explore#1', 'done'));
		const rows = first.tasks.all;

		const reopened = chat(first.store);
		assert.deepEqual(reopened.tasks.all, rows);
		assert.deepEqual(reopened.tasks.open().map((row) => row.id), ['b']);
		assert.equal(reopened.tasks.lastWriteTurn, 3, 'the settlement at turn 4 is not a write');
		assert.ok(reopened.session.reminders.roster.turn >= 3, 'the session turn continues from the last write');
		assert.ok(reopened.session.reminders.roster.has(TASKS_NUDGE.type));
	});

	it('installs tasks.nudge once per chat, even with a second list over the same chat', () => {
		const { session, store } = chat();
		assert.doesNotThrow(() => new ChatTasks(session, { clock: new FakeClock(), newId: () => 'x' }));
		assert.equal(session.reminders.roster.types().filter((type) => type === TASKS_NUDGE.type).length, 1);
		assert.equal(store.records.length, 0, 'making the list writes nothing');
	});
});
