// The task panel as the view connection sends it: the tasks records folded into the snapshot's
// part and its changes (tasks.changed), per chat.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROTOCOL_VERSION } from '../../protocol/messages';
import type { AgentRecord } from '../../transcript/records';
import { expectMessage } from '../../testing/expectMessage';
import { testConnection } from '../../testing/viewConnection';
import { TasksPresenter } from './tasksPresenter';

const A = 'root/explore#1';

describe('the task panel', () => {
	const tasks = (by: string, rows: { id: string; title: string; status: 'pending' | 'in_progress' | 'completed' | 'cancelled'; owner: string; notes?: string }[]): AgentRecord => ({ kind: 'tasks', id: `k-${by}-${rows.length}`, at: 1, by, turn: 1, rows });

	it('folds the tasks records: open count, the current task (first in progress, else first pending), sent on change', () => {
		const t = testConnection({ features: (sessions) => [new TasksPresenter(sessions)] });
		const session = t.sessions.current;
		session.append(tasks('root', [
			{ id: '1', title: 'Read the code', status: 'completed', owner: 'root' },
			{ id: '2', title: 'Write the fix', status: 'pending', owner: 'root' },
			{ id: '3', title: 'Test it', status: 'pending', owner: 'root' },
		]));
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		assert.deepEqual(expectMessage(t.posted[0], 'snapshot').state.tasks, {
			rows: [
				{ id: '1', title: 'Read the code', status: 'completed', owner: 'root' },
				{ id: '2', title: 'Write the fix', status: 'pending', owner: 'root' },
				{ id: '3', title: 'Test it', status: 'pending', owner: 'root' },
			],
			open: 2,
			current: '2',
		});
		session.append(tasks(A, [{ id: '3', title: 'Test it', status: 'in_progress', owner: 'root', notes: 'npm test' }, { id: '4', title: 'Look at src', status: 'pending', owner: A }]));
		const changed = expectMessage(t.posted.at(-1), 'tasks.changed').tasks;
		assert.deepEqual(changed.rows.map((row) => `${row.id} ${row.status} ${row.owner}${row.notes ? ` ${row.notes}` : ''}`), ['1 completed root', '2 pending root', '3 in_progress root npm test', `4 pending ${A}`]);
		assert.deepEqual([changed.open, changed.current], [3, '3']);
		session.append(tasks('settled', [{ id: '2', title: 'Write the fix', status: 'cancelled', owner: 'root' }, { id: '3', title: 'Test it', status: 'completed', owner: 'root' }, { id: '4', title: 'Look at src', status: 'completed', owner: A }]));
		const closed = expectMessage(t.posted.at(-1), 'tasks.changed').tasks;
		assert.deepEqual([closed.open, closed.current], [0, undefined]);
		assert.equal('current' in closed, false);
		const count = t.posted.length;
		session.append({ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'hi' });
		assert.equal(t.posted.filter((m, i) => i >= count && m.type === 'tasks.changed').length, 0, 'other records change no tasks');
	});

	it('an empty chat has an empty list; another chat made current sends its own in the snapshot', () => {
		const t = testConnection({ features: (sessions) => [new TasksPresenter(sessions)] });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		assert.deepEqual(expectMessage(t.posted[0], 'snapshot').state.tasks, { rows: [], open: 0 });
		t.sessions.current.append(tasks('root', [{ id: '1', title: 'x', status: 'pending', owner: 'root' }]));
		t.sessions.newSession();
		assert.deepEqual(expectMessage(t.posted.at(-1), 'snapshot').state.tasks, { rows: [], open: 0 });
	});
});
