import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TurnObservers } from '../agent/observers';
import { observingActivity, TurnActivity } from './activity';

describe('observingActivity', () => {
	it('passes a restore on to the session\'s observers (the stale-write guard and the edited-files cache forget the restored files)', () => {
		const restored: string[][] = [];
		const inner: TurnObservers = {
			beforeTool: () => Promise.resolve(),
			afterTool: () => Promise.resolve(),
			beforeWait: () => Promise.resolve(),
			endOwner: () => undefined,
			restored: (paths) => {
				restored.push([...paths]);
			},
		};
		observingActivity(inner, new TurnActivity()).restored?.(['/ws/a.ts']);
		assert.deepEqual(restored, [['/ws/a.ts']]);
		assert.equal('restored' in observingActivity(undefined, new TurnActivity()), false);
	});
});
