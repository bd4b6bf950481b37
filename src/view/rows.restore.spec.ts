import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ItemProjector } from './rows';

describe('the restored row', () => {
	it('says what was restored, to which message, how many turns and what became of each file', () => {
		const projector = new ItemProjector();
		projector.project({ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'Fix <script>the</script> parser' });
		const { item } = projector.project({ kind: 'restore', id: 'r1', at: 5, to: 'u1', scope: 'both', turns: ['t1', 't2'], files: [{ path: '/ws/a.ts', shown: 'a.ts', action: 'person-changed', done: false }] });
		assert.deepEqual(item, { kind: 'restore', id: 'r1', at: 5, scope: 'both', to: 'u1', message: 'Fix <script>the</script> parser', turns: 2, files: [{ shown: 'a.ts', action: 'person-changed', done: false }] });
	});
});
