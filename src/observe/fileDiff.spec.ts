import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundedDiff, decodeText, type DiffLimits, isBinary, sameContent } from './fileDiff';

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const LIMITS: DiffLimits = { maxDiffLines: 200, maxDiffBytes: 256 * 1024, timeoutMs: 500 };
const lines = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix} ${i}`).join('\n') + '\n';

describe('sameContent', () => {
	it('is true for equal bytes and for text that differs only in BOM or line endings', () => {
		assert.equal(sameContent(utf8('a\nb\n'), utf8('a\nb\n')), true);
		assert.equal(sameContent(utf8('a\nb\n'), utf8('\uFEFFa\r\nb\r\n')), true);
		assert.equal(sameContent(utf8('a\nb\n'), utf8('a\rb\r')), true);
	});

	it('is false for a same-size rewrite and for any difference in binary bytes', () => {
		assert.equal(sameContent(utf8('abc'), utf8('abd')), false);
		assert.equal(sameContent(Buffer.from([0, 1, 13, 10]), Buffer.from([0, 1, 10])), false);
	});
});

describe('decodeText and isBinary', () => {
	it('decodes UTF-8 without ever throwing: bad sequences become U+FFFD', () => {
		assert.equal(decodeText(utf8('héllo ✓ 日本\r\n')), 'héllo ✓ 日本\n');
		assert.equal(decodeText(Buffer.from([0x61, 0xff, 0x62])), 'a\uFFFDb');
	});

	it('calls a file binary for a NUL in its first 8 KB only', () => {
		assert.equal(isBinary(Buffer.from([0x61, 0, 0x62])), true);
		assert.equal(isBinary(Buffer.concat([Buffer.alloc(8192, 0x61), Buffer.from([0])])), false);
	});
});

describe('boundedDiff', () => {
	it('gives the hunks of a unified diff, non-ASCII intact, without file headers (the report names the file)', () => {
		const outcome = boundedDiff('src/a.ts', utf8('const a = 1;\nconst b = "ü";\n'), utf8('const a = 1;\nconst b = "日本";\n'), LIMITS);
		assert.deepEqual(outcome, {
			kind: 'diff',
			text: ['@@ -2 +2 @@', '-const b = "ü";', '+const b = "日本";'].join('\n'),
			lines: 3,
		});
	});

	it('shows what changed and where: a replaced or deleted line without the lines around it, an added one with one line each side', () => {
		const before = lines(40, 'same');
		const after = before.replace('same 10\n', 'edited 10\n').replace('same 20\n', '').replace('same 30\n', 'same 30\nadded\n');
		const outcome = boundedDiff('a', utf8(before), utf8(after), LIMITS);
		assert.deepEqual(outcome.kind === 'diff' ? outcome.text.split('\n') : outcome, [
			'@@ -11 +11 @@',
			'-same 10',
			'+edited 10',
			'@@ -21 +20,0 @@',
			'-same 20',
			'@@ -31,2 +30,3 @@',
			' same 30',
			'+added',
			' same 31',
		]);
	});

	it('says when the last line has no line break, as a unified diff does', () => {
		const outcome = boundedDiff('a', utf8('x\ny'), utf8('x\nz'), LIMITS);
		assert.deepEqual(outcome.kind === 'diff' ? outcome.text.split('\n') : outcome, ['@@ -2 +2 @@', '-y', '\\ No newline at end of file', '+z', '\\ No newline at end of file']);
	});

	it('refuses input over maxDiffBytes before diffing', () => {
		const outcome = boundedDiff('a', Buffer.alloc(600, 0x61), Buffer.alloc(500, 0x62), { ...LIMITS, maxDiffBytes: 1000 });
		assert.deepEqual(outcome, { kind: 'too-large', reason: 'bytes' });
	});

	it('stops once the edit length passes maxDiffLines, and refuses a longer diff', () => {
		assert.deepEqual(boundedDiff('a', utf8(lines(300, 'old')), utf8(lines(300, 'new')), LIMITS), { kind: 'too-large', reason: 'lines' });
		// 50 lines replaced far apart: an edit length of 100, but 50 hunks of a header and two lines are 150 lines.
		const before = lines(400, 'same');
		const after = before.replace(/same (\d+)\n/g, (match, n: string) => (Number(n) % 8 === 4 ? `edited ${n}\n` : match));
		const outcome = boundedDiff('a', utf8(before), utf8(after), { ...LIMITS, maxDiffLines: 120 });
		assert.deepEqual(outcome, { kind: 'too-large', reason: 'lines' });
	});

	it('says "slow" when jsdiff gave up after its time limit', () => {
		let now = 0;
		const clock = () => (now += 1000);
		assert.deepEqual(boundedDiff('a', utf8(lines(300, 'old')), utf8(lines(300, 'new')), LIMITS, clock), { kind: 'too-large', reason: 'slow' });
	});
});
