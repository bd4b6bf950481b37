// What the records say the agent last saw: the cases the reopened chat's test does not reach —
// a change set over several files (one deleted), a diff too large to show, a failed call, a
// restore, a PDF's pages, and a call cut off by Stop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combinedDiff } from '../tools/changes';
import { DIFF_TOO_LARGE } from '../tools/diff';
import type { AgentRecord } from '../transcript/records';
import type { ToolResultRecord } from '../transcript/toolResultRecord';
import { recordedTexts } from './recordedTexts';

const ROOTS = ['/w'];
let n = 0;
function result(name: string, content: string, detail: unknown, extra: Partial<ToolResultRecord> = {}): AgentRecord {
	n++;
	return { kind: 'tool-result', id: `t${n}`, turnId: 't1', callId: `c${n}`, name, at: 0, content, isError: false, detail, ...extra };
}
const read = (path: string, lines: readonly string[]): AgentRecord => result('Read', lines.map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n'), { kind: 'file', path, lines: lines.length, truncated: false });
const change = (changes: { shown: string; before: string | null; after: string | null }[], extra: Partial<ToolResultRecord> = {}): AgentRecord =>
	result('ApplyPatch', 'Applied.', { kind: 'diff', path: changes.length === 1 ? changes[0]?.shown : `${changes.length} files`, diff: combinedDiff(changes.map((one) => ({ ...one, path: `/w/${one.shown}` }))) }, extra);

describe('recordedTexts', () => {
	it('carries a Read through a change set of several files; a deleted file, a failed call and a cut-off call are handled', () => {
		const texts = recordedTexts(
			[
				read('a.ts', ['one', 'two']),
				read('b.ts', ['gone soon']),
				read('d.ts', ['d']),
				change([
					{ shown: 'a.ts', before: 'one\ntwo\n', after: 'one\n2\n' },
					{ shown: 'b.ts', before: 'gone soon\n', after: null },
					{ shown: 'new.ts', before: null, after: 'fresh\n' },
				]),
				result('Edit', 'a.ts changed since you last read it', { kind: 'diff', path: 'a.ts', diff: '' }, { isError: true }),
				change([{ shown: 'd.ts', before: 'd\n', after: 'D\n' }], { cutOff: true }),
			],
			ROOTS,
		);
		assert.deepEqual([...texts.keys()].sort(), ['/w/a.ts', '/w/new.ts']);
		assert.ok(texts.get('/w/a.ts')?.includes('one\n2\n'));
		assert.deepEqual(texts.get('/w/new.ts'), ['fresh\n']);
	});

	it('forgets what a diff too large to show, a restore or a partial Read leaves unknown, and takes nothing from a PDF', () => {
		const texts = recordedTexts(
			[
				read('a.ts', ['a']),
				read('b.ts', ['b']),
				read('c.ts', ['c']),
				read('e.ts', ['e']),
				result('Edit', 'Edited a.ts.', { kind: 'diff', path: 'a.ts', diff: DIFF_TOO_LARGE }),
				{ kind: 'restore', id: 'r1', at: 0, to: 'u1', scope: 'files', turns: ['t1'], files: [{ path: '/w/b.ts', shown: 'b.ts', action: 'change', done: true }] },
				result('Read', '     2\tsecond', { kind: 'file', path: 'c.ts', lines: 1, truncated: true }),
				result('Read', '--- page 1 ---\nText of the page.', { kind: 'file', path: 'doc.pdf', lines: 2, truncated: false }),
			],
			ROOTS,
		);
		assert.deepEqual([...texts.keys()], ['/w/e.ts']);
	});
});
