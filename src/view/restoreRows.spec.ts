// The restored rows from the records: Undo… where the restore kept its writes, and the row a later
// restore undid marked undone, in a live chat's updates and in a reopened chat's rows alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RestoreItem } from '../protocol/messages';
import type { AgentRecord } from '../transcript/records';
import type { RestoreRecord } from '../transcript/restoreRecord';
import { ItemProjector, itemsOf } from './rows';

const user: AgentRecord = { kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'Make it two' };
const restore: RestoreRecord = { kind: 'restore', id: 'r1', at: 2, to: 'u1', scope: 'files', turns: ['t1'], files: [{ path: '/w/a.ts', shown: 'a.ts', action: 'change', done: true }], turnId: 'rt1' };
const undo: RestoreRecord = { ...restore, id: 'r2', at: 3, turns: [], turnId: 'rt2', undoes: 'r1' };
const chatOnly: RestoreRecord = { kind: 'restore', id: 'r0', at: 2, to: 'u1', scope: 'chat', turns: ['t1'], files: [] };

describe('restored rows', () => {
	it('a live undo sends the undone row again, marked', () => {
		const projector = new ItemProjector();
		projector.project(user);
		const first = projector.project(restore).item as RestoreItem;
		assert.equal(first.undoable, true);
		assert.equal(first.undone, undefined);
		const { item, updated } = projector.project(undo);
		assert.equal((item as RestoreItem).undoes, 'r1');
		assert.equal((item as RestoreItem).message, 'Make it two');
		assert.deepEqual(updated.map((row) => [row.id, (row as RestoreItem).undone]), [['r1', true]]);
	});

	it('a reopened chat shows the undone row undone, and no Undo… where nothing was kept', () => {
		const rows = itemsOf([user, chatOnly, restore, undo]).filter((row): row is RestoreItem => row.kind === 'restore');
		assert.deepEqual(rows.map((row) => [row.id, row.undoable ?? false, row.undone ?? false]), [['r0', false, false], ['r1', true, true], ['r2', true, false]]);
	});
});
