// plan.reference while the chat has a goal: silent only while the goal carries this same plan.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FiringContext } from '../definition';
import { planReference, type ReferencedPlan } from './planReference';

const PLAN: ReferencedPlan = { file: '/store/s1.plans/plan-1.md', text: '# Plan\n\n1. Do it.', approvedAt: Date.UTC(2026, 11, 1, 9) };
const TURN_START: FiringContext = { owner: { kind: 'root', id: 't3' }, phase: 'turn-start', turn: 3, facts: { mode: 'auto-edit' }, delivered: false };

function fires(carriedPlan: string | undefined): boolean {
	const definition = planReference({ referable: () => PLAN, maxChars: () => 4000, carriedPlan: () => carriedPlan });
	if (!definition.trigger(TURN_START)) {
		return false;
	}
	const content = definition.content(TURN_START);
	return (typeof content === 'string' ? content : content.body) !== null;
}

describe('plan.reference and the goal', () => {
	it('is suppressed while the active goal carries the same approved plan', () => {
		assert.equal(fires(PLAN.file), false);
	});

	it('fires when the goal carries no plan', () => {
		assert.equal(fires(undefined), true);
	});

	it('fires when the goal carries another plan', () => {
		assert.equal(fires('/store/s1.plans/plan-2.md'), true);
	});
});
