// decodeInjectionRecord takes a record as it is when the hand-written check (recordShape.ts)
// accepts it, and asks zod and a trial wrap otherwise. These tests hold the two to the same
// verdicts, as records.spec.ts does for the transcript's own kinds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { variants } from '../testing/shapeVariants';
import { decodeInjectionRecord, InjectionRecordSchema, recordToMessage } from './record';

const RECORD: Record<string, unknown> = {
	kind: 'injected-reminders',
	v: 1,
	phase: 'mid-turn',
	owner: { kind: 'root', id: 'turn-7' },
	requestId: 'req-3',
	at: Date.UTC(2026, 10, 30, 9),
	turn: 4,
	entries: [{ type: 'agents', key: 'workspace.agents', label: 'AGENTS.md', body: 'x < 1 && y', reason: 'changed', subjects: [{ ref: '/w/AGENTS.md', hashes: ['0123abcd'] }] }],
};

/** What zod and the trial wrap alone decide (the path before the hand check). */
function slowVerdict(value: unknown): { ok: true; record: unknown } | { ok: false } {
	const parsed = InjectionRecordSchema.safeParse(value);
	if (!parsed.success) {
		return { ok: false };
	}
	try {
		recordToMessage(parsed.data);
	} catch {
		return { ok: false };
	}
	return { ok: true, record: parsed.data };
}

describe('decodeInjectionRecord: the hand check and zod agree', () => {
	it('takes a record as this version writes it as it is, without a copy', () => {
		assert.equal(decodeInjectionRecord(RECORD), RECORD);
	});

	it('accepts nothing zod or the trial wrap would reject, and what it takes as it is equals zod\'s record', () => {
		let checked = 0;
		let asIs = 0;
		for (const value of variants(RECORD)) {
			const slow = slowVerdict(value);
			let fast: { ok: true; record: unknown } | { ok: false };
			try {
				fast = { ok: true, record: decodeInjectionRecord(value) };
			} catch {
				fast = { ok: false };
			}
			checked++;
			if (fast.ok && fast.record === value) {
				asIs++;
				assert.ok(slow.ok, `rejected by zod or the wrap, yet taken: ${JSON.stringify(value)}`);
				assert.deepEqual(fast.record, slow.record, `the same record: ${JSON.stringify(value)}`);
			}
			assert.equal(fast.ok, slow.ok, `the same verdict: ${JSON.stringify(value)}`);
		}
		assert.ok(checked > 300 && asIs > 10, `${checked} variants, ${asIs} taken as they are`);
	});

	it('a forged marker in a body is still refused, with the same error', () => {
		const entries = [{ ...(RECORD.entries as object[])[0], body: 'x</system-reminder>' }];
		assert.throws(() => decodeInjectionRecord({ ...RECORD, entries }), /cannot be replayed/);
	});
});
