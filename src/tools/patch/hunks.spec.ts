import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyHunks } from './hunks';
import { parsePatch } from './parse';
import { type Hunk, PatchError } from './patch';

/** The hunks of `*** Update File: <path>` written as `body` (its lines after the header). */
function hunksOf(...body: string[]): readonly Hunk[] {
	const [operation] = parsePatch(['*** Begin Patch', '*** Update File: f.txt', ...body, '*** End Patch'].join('\n')).operations;
	assert.ok(operation?.kind === 'update');
	return operation.hunks;
}

const file = (...lines: string[]) => lines.map((line) => `${line}\n`).join('');

/** Asserts that applying throws a PatchError for hunk `hunk` of f.txt whose message matches. */
function refuses(before: string, hunks: readonly Hunk[], hunk: number, message: RegExp) {
	assert.throws(
		() => applyHunks('f.txt', before, hunks),
		(error: unknown) => {
			assert.ok(error instanceof PatchError, `a PatchError, not ${String(error)}`);
			assert.equal(error.where.path, 'f.txt');
			assert.equal(error.where.hunk, hunk);
			assert.match(error.message, new RegExp(`^f\\.txt, hunk ${hunk}\\b`));
			assert.match(error.message, message);
			return true;
		},
	);
}

describe('applyHunks', () => {
	it('replaces, removes and adds lines where a hunk\'s context says', () => {
		const before = file('a', 'b', 'c', 'd', 'e');
		assert.equal(applyHunks('f.txt', before, hunksOf('@@', ' b', '-c', '+C', '+C2', ' d')), file('a', 'b', 'C', 'C2', 'd', 'e'));
		assert.equal(applyHunks('f.txt', before, hunksOf('@@', ' a', '-b', '-c')), file('a', 'd', 'e'));
		assert.equal(applyHunks('f.txt', before, hunksOf('@@', ' e', '+f')), file('a', 'b', 'c', 'd', 'e', 'f'));
		assert.equal(applyHunks('f.txt', before, hunksOf('@@', '+first', ' a')), file('first', 'a', 'b', 'c', 'd', 'e'));
	});

	it('applies several hunks in order, each below the one before', () => {
		const before = file('x', '1', 'x', '2', 'x', '3');
		const after = applyHunks('f.txt', before, hunksOf('@@', ' x', '-1', '+one', '@@', ' x', '-2', '+two', '@@', '-3', '+three'));
		assert.equal(after, file('x', 'one', 'x', 'two', 'x', 'three'));
	});

	it('places a hunk below its "@@" lines, the first match there (indentation around an "@@" line is ignored)', () => {
		const before = file('class A', '  def m():', '    return 1', 'class B', '  def m():', '    return 1');
		const after = applyHunks('f.txt', before, hunksOf('@@ class B', '@@ def m():', '-    return 1', '+    return 2'));
		assert.equal(after, file('class A', '  def m():', '    return 1', 'class B', '  def m():', '    return 2'));
	});

	it('"*** End of File": the hunk\'s lines are the last of the file; with no old lines it appends', () => {
		const before = file('a', 'b', 'a', 'b');
		assert.equal(applyHunks('f.txt', before, hunksOf('@@', ' a', '-b', '+B', '*** End of File')), file('a', 'b', 'a', 'B'));
		assert.equal(applyHunks('f.txt', before, hunksOf('@@', '+end', '*** End of File')), file('a', 'b', 'a', 'b', 'end'));
		assert.equal(applyHunks('f.txt', file('x', ''), hunksOf('@@', ' x', '+y', '', '*** End of File')), file('x', 'y', ''));
		refuses(file('a', 'b', 'c'), hunksOf('@@', ' a', '-b', '*** End of File'), 1, /its context and removed lines are at line 1, but "\*\*\* End of File" says they are the last lines of the file \(line 3 is the last\)/);
	});

	it('adds to an empty file, and an "@@" line places an add-only hunk below it', () => {
		assert.equal(applyHunks('f.txt', '', hunksOf('@@', '+a', '+b')), file('a', 'b'));
		assert.equal(applyHunks('f.txt', file('a', 'b'), hunksOf('@@ a', '+between')), file('a', 'between', 'b'));
	});

	it('keeps a CRLF file CRLF, its added lines included', () => {
		const before = 'a\r\nb\r\nc\r\n';
		assert.equal(applyHunks('f.txt', before, hunksOf('@@', ' a', '-b', '+B', '+B2', ' c')), 'a\r\nB\r\nB2\r\nc\r\n');
		assert.equal(applyHunks('f.txt', before, hunksOf('@@', ' c', '+d', '*** End of File')), 'a\r\nb\r\nc\r\nd\r\n');
	});

	it('keeps each kept line\'s own line break in a mixed file; added lines get the most common one', () => {
		assert.equal(applyHunks('f.txt', 'a\r\nb\nc\r\nd\r\n', hunksOf('@@', ' b', '+new', ' c')), 'a\r\nb\nnew\r\nc\r\nd\r\n');
		assert.equal(applyHunks('f.txt', 'a\rb\rc', hunksOf('@@', '-b', '+B')), 'a\rB\rc');
	});

	it('keeps a missing final newline, whether the last line is kept, changed or added after', () => {
		assert.equal(applyHunks('f.txt', 'a\nb\nc', hunksOf('@@', '-a', '+A', ' b')), 'A\nb\nc');
		assert.equal(applyHunks('f.txt', 'a\nb\nc', hunksOf('@@', ' b', '-c', '+C', '*** End of File')), 'a\nb\nC');
		assert.equal(applyHunks('f.txt', 'a\r\nb', hunksOf('@@', ' b', '+c', '*** End of File')), 'a\r\nb\r\nc');
		assert.equal(applyHunks('f.txt', 'a\nb', hunksOf('@@', ' a', '-b')), 'a');
		assert.equal(applyHunks('f.txt', 'a\nb\n', hunksOf('@@', '-a', '-b')), '');
		// A file with no line break at all has no style to keep: added lines get "\n".
		assert.equal(applyHunks('f.txt', 'a', hunksOf('@@', '+first', ' a')), 'first\na');
	});

	it('keeps a byte-order mark, which is not part of the first line', () => {
		assert.equal(applyHunks('f.txt', '\uFEFFa\nb\n', hunksOf('@@', '-a', '+A', ' b')), '\uFEFFA\nb\n');
	});

	it('finds text the model read with "<system-reminder" neutralised as "‹system-reminder", and writes "<" back', () => {
		const before = file('const s = "<system-reminder>";', 'x');
		assert.equal(applyHunks('f.txt', before, hunksOf('@@', '-const s = "‹system-reminder>";', '+const s = "‹system-reminder key=a>";', ' x')), file('const s = "<system-reminder key=a>";', 'x'));
	});
});

describe('applyHunks refuses a hunk that does not match exactly, naming the file and the hunk', () => {
	it('context that is not in the file, with the line where it stops matching', () => {
		const before = file('a', 'b', 'c', 'd');
		refuses(before, hunksOf('@@', ' a', '-b', '@@', ' c', '-x', '+y'), 2, /^f\.txt, hunk 2 of 2 \(patch line 6\): its first line matches at line 3, then line 4 differs: the file has "d", the hunk expects "x"/);
		refuses(before, hunksOf('@@', ' nope', '+y'), 1, /^f\.txt, hunk 1 \(patch line 3\): its first context or removed line "nope" is not in the file/);
		refuses(before, hunksOf('@@', ' c', ' d', '-e'), 1, /then line 5 differs: the file ends there/);
	});

	it('lines that differ only in trailing whitespace or indentation: strict, with the difference named', () => {
		refuses(file('a', 'b  ', 'c'), hunksOf('@@', ' a', '-b', '+B'), 1, /its lines are at line 1 with different trailing whitespace: line 2 of the file is "b {2}", the hunk has "b"\. Context and removed lines must match the file exactly/);
		refuses(file('a', '\tb', 'c'), hunksOf('@@', ' a', '-    b', '+B'), 1, /with different indentation: line 2 of the file is "\\tb", the hunk has " {4}b"/);
	});

	it('a removed line of a CRLF file written with a stray "\\r" never matches by accident', () => {
		refuses('a\r\nb\r\n', [{ anchors: [], lines: [{ kind: 'remove', text: 'a\r' }], endOfFile: false, line: 3 }], 1, /trailing whitespace/);
	});

	it('context that occurs more than once without an "@@" line', () => {
		refuses(file('x', 'y', 'x', 'y'), hunksOf('@@', ' x', '-y'), 1, /occur more than once \(at lines 1 and 3\), so where it goes is ambiguous: add context lines, or an "@@" line/);
	});

	it('hunks out of the file\'s order', () => {
		refuses(file('a', 'b', 'c'), hunksOf('@@', ' b', '-c', '@@', '-a', '+A'), 2, /its context and removed lines are at line 1, above line 4 where this hunk may start: hunks go in the order of the file/);
	});

	it('an "@@" line that is not in the file, or only above', () => {
		refuses(file('a', 'b'), hunksOf('@@ def missing():', '-a'), 1, /its "@@" line "def missing\(\):" is not a line of the file/);
		refuses(file('f()', 'a', 'b'), hunksOf('@@', ' f()', '-a', '@@ f()', '-b'), 2, /its "@@ f\(\)" line is in the file only above line 3/);
	});

	it('an add-only hunk with nothing to place it by', () => {
		refuses(file('a'), hunksOf('@@', '+b'), 1, /it only adds lines and has no context to place them/);
	});

	it('a file of identical lines still answers (the search is linear, not quadratic)', () => {
		const before = 'x\n'.repeat(50_000);
		refuses(before, hunksOf('@@', ...Array.from({ length: 200 }, () => ' x'), '-y'), 1, /its first 200 lines match at line 1, then line 201 differs/);
	});
});
