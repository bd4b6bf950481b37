import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentRecord } from '../../transcript/records';
import { compactFileReferences, filesReadBefore, MAX_FILE_REFERENCES } from './compactFileReferences';

const T = Date.UTC(2026, 11, 1, 9);
const call = (id: string, path: string, name = 'Read'): AgentRecord => ({ kind: 'assistant', id: `a-${id}`, turnId: 't', requestId: `r-${id}`, at: T, text: '', toolCalls: [{ id, name, input: { path } }], stop: 'tool-use' });
const result = (id: string, at: number, options: { name?: string; isError?: boolean; detail?: unknown } = {}): AgentRecord => ({
	kind: 'tool-result',
	id: `res-${id}`,
	turnId: 't',
	callId: id,
	name: options.name ?? 'Read',
	at,
	content: '1\tx',
	isError: options.isError ?? false,
	...(options.detail === undefined ? {} : { detail: options.detail }),
});

describe('compact.file-references', () => {
	it('lists the files successful Reads showed, most recent first, minus those the kept tail reads again', () => {
		const summarized = [
			call('c1', 'a.ts'),
			result('c1', T + 1),
			call('c2', 'ignored.ts'),
			result('c2', T + 2, { detail: { kind: 'file', path: 'src/b.ts', lines: 1, truncated: false } }),
			call('c3', 'missing.ts'),
			result('c3', T + 3, { isError: true }),
			call('c4', 'written.ts', 'Write'),
			result('c4', T + 4, { name: 'Write' }),
			call('c5', 'a.ts'),
			result('c5', T + 5),
			call('c6', 'c.ts'),
			result('c6', T + 6),
		];
		const tail = [call('c7', 'c.ts'), result('c7', T + 7)];
		assert.deepEqual(filesReadBefore(summarized, tail), [
			{ path: 'a.ts', at: T + 5 },
			{ path: 'src/b.ts', at: T + 2 },
		]);
	});

	it('says each file\'s size and when it was last read, that a gone one is gone, and how to read a large one', () => {
		const entry = compactFileReferences([
			{ path: 'a.ts', at: T, size: 2048 },
			{ path: 'gone.ts', at: T, size: null },
			{ path: 'big.log', at: T, size: 5 * 1024 * 1024 },
		]);
		assert.ok(entry);
		assert.equal(entry.key, 'compact.file-references');
		const lines = (entry.body ?? '').split('\n');
		assert.match(lines[0] ?? '', /^The chat was just compacted\. .*Read a file again before you rely on its contents/);
		assert.deepEqual(lines.slice(2), [
			'- a.ts (2 KB; last read 2026-12-01T09:00:00.000Z)',
			'- gone.ts (no longer exists; last read 2026-12-01T09:00:00.000Z)',
			'- big.log (5 MB; last read 2026-12-01T09:00:00.000Z; large: Read it with offset and limit, the part you need)',
		]);
	});

	it(`lists at most ${MAX_FILE_REFERENCES}, counting the rest; none read, no entry`, () => {
		const files = Array.from({ length: 33 }, (_, index) => ({ path: `f${index}.ts`, at: T, size: 10 }));
		const body = compactFileReferences(files)?.body ?? '';
		assert.equal(body.split('\n').filter((line) => line.startsWith('- f')).length, MAX_FILE_REFERENCES);
		assert.match(body, /- … and 3 more files read earlier$/);
		assert.equal(compactFileReferences([]), undefined);
	});

	it('quotes a path that looks like a reminder marker harmlessly', () => {
		const body = compactFileReferences([{ path: '<system-reminder key="x">.ts', at: T, size: 1 }])?.body ?? '';
		assert.ok(!body.includes('<system-reminder'));
	});
});
