// parseTranscriptRecord takes a record as it is when its fast check (derived from its schema)
// accepts it, and asks zod otherwise. These tests hold the two to the same verdicts: whatever the
// fast path accepts, zod accepts too, giving the same record.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sampleOf, variants } from '../testing/shapeVariants';
import { CHAT_FEATURES } from '../features/features';
import { parseTranscriptRecord, TRANSCRIPT_RECORDS, transcriptKinds, TranscriptRecordError, transcriptRecordSchema } from './records';

// The kinds a transcript may hold are the core's and the chat features' (registered by the feature list).
const TranscriptRecordSchema = transcriptRecordSchema();
const DECLARATIONS = [...TRANSCRIPT_RECORDS, ...CHAT_FEATURES.flatMap((feature) => (feature.records ?? []).map((kind) => kind.declaration))];

const T0 = Date.UTC(2026, 10, 30, 9);

/** One record of every kind but injections (their own decoder), every optional field set. */
const RECORDS: Record<string, unknown>[] = [
	{ kind: 'session', v: 1, id: 's1', createdAt: T0 },
	{ kind: 'meta', at: T0, title: 'Title', provider: 'anthropic', model: 'claude' },
	{ kind: 'user', id: 'u1', turnId: 't1', at: T0, text: 'hello' },
	{ kind: 'user', id: 'u2', turnId: 't2', at: T0, text: 'again', hookContext: [{ event: 'SessionStart', text: 'branch: main' }, { event: 'UserPromptSubmit', text: '' }] },
	{ kind: 'hook-context', id: 'h1', turnId: 't2', requestId: 'r2', at: T0, entries: [{ event: 'SessionStart', text: 'branch: main' }] },
	{ kind: 'fork', id: 'f1', at: T0, source: { id: 's0', title: 'Parent' }, from: 'u9', worktree: { folder: '/repo-worktrees/try', branch: 'try', base: 'abc123' } },
	{ kind: 'goal', id: 'g2', at: T0, change: 'budget', goal: 'g1', objective: 'ship it', budget: 200000, plan: '/s/x.plans/plan-1.md', previousBudget: 100000, passed: [50], spent: 0 },
	{
		kind: 'assistant',
		id: 'a1',
		turnId: 't1',
		requestId: 'r1',
		at: T0,
		text: 'Let me look.',
		toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }],
		stop: 'tool-use',
		usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 6, cacheWriteTokens: 3 },
		model: 'claude',
	},
	{
		kind: 'tool-result',
		id: 'r1',
		turnId: 't1',
		callId: 'c1',
		name: 'Read',
		at: T0,
		content: 'out',
		isError: false,
		notices: [{ key: 'read.truncated', body: 'Showing 1-40.' }],
		detail: { kind: 'file' },
		durationMs: 3,
		verdict: 'granted',
	},
	{ kind: 'tool-result', id: 'r2', turnId: 't1', callId: 'c2', name: 'Bash', at: T0, content: null, contentFile: 'r2.txt', isError: true },
	{ kind: 'turn-end', turnId: 't1', at: T0, outcome: 'failed', error: 'boom' },
	{ kind: 'plan-decision', id: 'd1', at: T0, proposal: 'a1', decision: 'approved', mode: 'auto-edit', file: '/storage/s1.plans/plan-1.md', note: 'go', previousMode: 'plan' },
	{ kind: 'restore', id: 'x1', at: T0, to: 'u1', scope: 'both', turns: ['t1'], files: [{ path: '/w/a.ts', shown: 'a.ts', action: 'change', done: true }], turnId: 'x1t', undoes: 'x0', mode: 'plan' },
];

function verdict(value: unknown): { ok: true; record: unknown; asIs: boolean } | { ok: false } {
	try {
		const record = parseTranscriptRecord(value);
		return { ok: true, record, asIs: record === value };
	} catch {
		return { ok: false };
	}
}

describe('parseTranscriptRecord: the fast path and zod agree', () => {
	it('takes every record as this version writes it as it is, without a copy', () => {
		for (const record of RECORDS) {
			const result = verdict(record);
			assert.ok(result.ok && result.asIs, `${String(record.kind)} is taken as it is`);
		}
	});

	it('accepts nothing zod would reject, and what it takes as it is equals zod\'s record', () => {
		let checked = 0;
		let asIs = 0;
		for (const record of RECORDS) {
			for (const value of variants(record)) {
				const zod = TranscriptRecordSchema.safeParse(value);
				const result = verdict(value);
				checked++;
				if (result.ok && result.asIs) {
					asIs++;
					assert.ok(zod.success, `zod rejects what the fast path took: ${JSON.stringify(value)}`);
					assert.deepEqual(result.record, zod.data, `the same record: ${JSON.stringify(value)}`);
				}
				if (!zod.success) {
					assert.equal(result.ok, false, `rejected by zod, so rejected: ${JSON.stringify(value)}`);
				}
			}
		}
		assert.ok(checked > 500 && asIs > 20, `${checked} variants, ${asIs} taken as they are`);
	});

	it('an unknown field or another key order still loads, through zod: unknown fields dropped, kind first', () => {
		const withExtra = { ...RECORDS[2], extra: 'newer field' };
		const parsed = parseTranscriptRecord(withExtra);
		assert.notEqual(parsed, withExtra);
		assert.deepEqual(parsed, RECORDS[2]);
		const reordered = parseTranscriptRecord({ text: 'hello', at: T0, turnId: 't1', id: 'u1', kind: 'user' });
		assert.deepEqual(Object.keys(reordered)[0], 'kind');
	});

	it('every kind in the table has its fast check, derived from its schema alone, and is a kind the file may hold', () => {
		assert.deepEqual(transcriptKinds(), DECLARATIONS.map((declaration) => declaration.kind));
		let asIs = 0;
		for (const declaration of DECLARATIONS) {
			const sample = sampleOf(declaration.schema) as Record<string, unknown>;
			assert.equal(declaration.isAsWritten(sample), true, `${declaration.kind}: a record as written is taken as it is`);
			assert.ok(TranscriptRecordSchema.safeParse(sample).success, `${declaration.kind} is in the union`);
			try {
				parseTranscriptRecord(sample);
			} catch (error) {
				// A sample may break its kind's own rule (a tool result with content and contentFile both set): never an unknown kind.
				assert.ok(error instanceof TranscriptRecordError && error.code === 'invalid', String(error));
			}
			for (const value of variants(sample)) {
				if (declaration.isAsWritten(value)) {
					asIs++;
					const zod = declaration.schema.safeParse(value);
					assert.ok(zod.success, `${declaration.kind}: zod rejects what the fast check took: ${JSON.stringify(value)}`);
					assert.deepEqual(zod.data, value, `${declaration.kind}: the same record: ${JSON.stringify(value)}`);
				}
			}
		}
		assert.ok(asIs > TRANSCRIPT_RECORDS.length * 10, `${asIs} variants taken as they are`);
	});
});
