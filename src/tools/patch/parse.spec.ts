import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePatch } from './parse';
import { PatchError } from './patch';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

/** Asserts that parsing throws a PatchError for patch line `line` whose message matches. */
function refuses(text: string, line: number, message: RegExp) {
	assert.throws(
		() => parsePatch(text),
		(error: unknown) => {
			assert.ok(error instanceof PatchError, `a PatchError, not ${String(error)}`);
			assert.equal(error.where.line, line, error.message);
			assert.match(error.message, new RegExp(`^Invalid patch at line ${line}: `));
			assert.match(error.message, message);
			return true;
		},
	);
}

describe('parsePatch', () => {
	it('parses the format\'s own example: add, update with a move and an @@ line, delete', () => {
		const parsed = parsePatch(
			patch('*** Add File: hello.txt', '+Hello world', '*** Update File: src/app.py', '*** Move to: src/main.py', '@@ def greet():', '-print("Hi")', '+print("Hello, world!")', '*** Delete File: obsolete.txt'),
		);
		assert.deepEqual(parsed, {
			operations: [
				{ kind: 'add', path: 'hello.txt', line: 2, text: 'Hello world\n' },
				{
					kind: 'update',
					path: 'src/app.py',
					line: 4,
					moveTo: 'src/main.py',
					hunks: [
						{
							anchors: ['def greet():'],
							lines: [
								{ kind: 'remove', text: 'print("Hi")' },
								{ kind: 'add', text: 'print("Hello, world!")' },
							],
							endOfFile: false,
							line: 6,
						},
					],
				},
				{ kind: 'delete', path: 'obsolete.txt', line: 9 },
			],
		});
	});

	it('keeps every hunk of an update in order, with context, removed and added lines and *** End of File', () => {
		const parsed = parsePatch(patch('*** Update File: a.txt', '@@', ' one', '-two', '+TWO', '@@ class B', '@@   def m():', ' x', '+y', '@@', ' last', '+after', '*** End of File'));
		const [update] = parsed.operations;
		assert.ok(update?.kind === 'update');
		assert.equal(update.moveTo, undefined);
		assert.deepEqual(update.hunks, [
			{
				anchors: [],
				lines: [
					{ kind: 'context', text: 'one' },
					{ kind: 'remove', text: 'two' },
					{ kind: 'add', text: 'TWO' },
				],
				endOfFile: false,
				line: 3,
			},
			{
				anchors: ['class B', 'def m():'],
				lines: [
					{ kind: 'context', text: 'x' },
					{ kind: 'add', text: 'y' },
				],
				endOfFile: false,
				line: 7,
			},
			{
				anchors: [],
				lines: [
					{ kind: 'context', text: 'last' },
					{ kind: 'add', text: 'after' },
				],
				endOfFile: true,
				line: 11,
			},
		]);
	});

	it('keeps the text of hunk lines exactly: whitespace, marker-like text, a lone "-" or "+"', () => {
		const parsed = parsePatch(patch('*** Update File: a', '@@', '  indented  ', '-\tremoved\t', '+*** End Patch', '+', '-', '+@@ not a header'));
		const [update] = parsed.operations;
		assert.ok(update?.kind === 'update');
		assert.deepEqual(update.hunks[0]?.lines, [
			{ kind: 'context', text: ' indented  ' },
			{ kind: 'remove', text: '\tremoved\t' },
			{ kind: 'add', text: '*** End Patch' },
			{ kind: 'add', text: '' },
			{ kind: 'remove', text: '' },
			{ kind: 'add', text: '@@ not a header' },
		]);
	});

	it('adds a file\'s lines with a final line break each; an added file may be empty', () => {
		const parsed = parsePatch(patch('*** Add File: a.txt', '+one', '+', '+  three', '*** Add File: empty.py', '*** Add File: b.txt', '+b'));
		assert.deepEqual(
			parsed.operations.map((operation) => (operation.kind === 'add' ? operation.text : undefined)),
			['one\n\n  three\n', '', 'b\n'],
		);
	});

	it('reads a patch with CRLF (or CR) line breaks as the same patch', () => {
		const lf = patch('*** Update File: a', '@@ f()', ' x', '-y', '+z', '*** Add File: b', '+b');
		assert.deepEqual(parsePatch(lf.replaceAll('\n', '\r\n')), parsePatch(lf));
		assert.deepEqual(parsePatch(lf.replaceAll('\n', '\r')), parsePatch(lf));
	});

	it('ignores blank lines around the patch and between operations, and trailing whitespace on its markers', () => {
		const parsed = parsePatch(['', '  ', '  *** Begin Patch  ', '', '*** Delete File: a  ', '', '*** Update File: b ', '', '@@ ', '-x', '+y', '*** End of File  ', '', '*** End Patch \t', '', ''].join('\n'));
		assert.deepEqual(parsed.operations, [
			{ kind: 'delete', path: 'a', line: 5 },
			{ kind: 'update', path: 'b', line: 7, hunks: [{ anchors: [], lines: [{ kind: 'remove', text: 'x' }, { kind: 'add', text: 'y' }], endOfFile: true, line: 9 }] },
		]);
	});

	it('lets the first hunk leave out its "@@" (it cannot be anything else), but no later one', () => {
		const parsed = parsePatch(patch('*** Update File: a', ' keep', '-x', '+y'));
		const [update] = parsed.operations;
		assert.ok(update?.kind === 'update');
		assert.deepEqual(update.hunks, [{ anchors: [], lines: [{ kind: 'context', text: 'keep' }, { kind: 'remove', text: 'x' }, { kind: 'add', text: 'y' }], endOfFile: false, line: 3 }]);
		refuses(patch('*** Update File: a', '@@', '-x', '+y', '*** End of File', ' z', '+w'), 7, /expected "@@" to start the next hunk of a/);
	});

	it('takes an empty line in a hunk as an empty context line, but not at the end of a hunk, where it separates hunks', () => {
		const parsed = parsePatch(patch('*** Update File: a', '@@', ' x', '', '-y', '+z', '', '', '@@', '-w', '+v', '', '*** Update File: b', '@@', '-1', '+2', ''));
		const [a, b] = parsed.operations;
		assert.ok(a?.kind === 'update' && b?.kind === 'update');
		assert.deepEqual(
			a.hunks.map((hunk) => hunk.lines),
			[
				[
					{ kind: 'context', text: 'x' },
					{ kind: 'context', text: '' },
					{ kind: 'remove', text: 'y' },
					{ kind: 'add', text: 'z' },
				],
				[
					{ kind: 'remove', text: 'w' },
					{ kind: 'add', text: 'v' },
				],
			],
		);
		assert.deepEqual(b.hunks[0]?.lines, [
			{ kind: 'remove', text: '1' },
			{ kind: 'add', text: '2' },
		]);
	});

	it('keeps empty lines right before "*** End of File" as empty context lines: the file\'s last lines', () => {
		const [update] = parsePatch(patch('*** Update File: a', '@@', ' x', '+y', '', '*** End of File')).operations;
		assert.ok(update?.kind === 'update');
		assert.deepEqual(update.hunks[0]?.lines, [
			{ kind: 'context', text: 'x' },
			{ kind: 'add', text: 'y' },
			{ kind: 'context', text: '' },
		]);
	});

	it('takes an update with a move and no hunks as a rename', () => {
		assert.deepEqual(parsePatch(patch('*** Update File: old.ts', '*** Move to: new/name.ts')).operations, [{ kind: 'update', path: 'old.ts', line: 2, moveTo: 'new/name.ts', hunks: [] }]);
	});

	it('normalises paths: "/" separators (a "\\" is one), no "." segments or repeated separators', () => {
		const parsed = parsePatch(patch('*** Delete File: ./src//a.ts', '*** Delete File: src\\win\\b.ts', '*** Delete File: .hidden/./c', '*** Update File:d.txt', '*** Move to:   e.txt'));
		assert.deepEqual(
			parsed.operations.map((operation) => [operation.path, operation.kind === 'update' ? operation.moveTo : undefined]),
			[
				['src/a.ts', undefined],
				['src/win/b.ts', undefined],
				['.hidden/c', undefined],
				['d.txt', 'e.txt'],
			],
		);
	});
});

describe('parsePatch refuses, naming the line and what was expected', () => {
	it('an empty patch, one without "*** Begin Patch", one wrapped in a heredoc or a code fence', () => {
		refuses('', 1, /the patch is empty: expected "\*\*\* Begin Patch"/);
		refuses('\n  \n', 1, /the patch is empty/);
		refuses('\n--- a/x\n+++ b/x\n', 2, /expected "\*\*\* Begin Patch" as the first line, found "--- a\/x"/);
		refuses("<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF", 1, /first line \(without a heredoc around it\)/);
		refuses('```\n*** Begin Patch\n*** Delete File: a\n*** End Patch\n```', 1, /first line \(without a code fence around it\)/);
	});

	it('a patch cut off before "*** End Patch", or with text after it', () => {
		refuses('*** Begin Patch\n*** Add File: a\n+x', 3, /expected "\*\*\* End Patch" as the last line, found "\+x": the patch may have been cut off/);
		refuses('*** Begin Patch', 1, /found nothing after the first/);
		refuses(patch('*** Delete File: a', '*** End Patch', '*** Delete File: b'), 3, /"\*\*\* End Patch" must be the last line, but more follows/);
	});

	it('a patch with no file operations', () => {
		refuses(patch(), 2, /no file operations/);
		refuses(patch('', ''), 4, /no file operations/);
	});

	it('a line that is no file operation', () => {
		refuses(patch('*** Rename File: a'), 2, /expected a file operation \("\*\*\* Add File: <path>", "\*\*\* Update File: <path>" or "\*\*\* Delete File: <path>"\), found "\*\*\* Rename File: a"/);
		refuses(patch('Update File: a'), 2, /expected a file operation/);
		refuses(patch('*** update file: a', '@@', '+x'), 2, /expected a file operation/);
	});

	it('an added file\'s line without its "+", an empty one included', () => {
		refuses(patch('*** Add File: a.txt', '+one', 'two'), 4, /every line of the added file a\.txt starts with "\+"; found "two"/);
		refuses(patch('*** Add File: a.txt', '+one', '', '+three'), 4, /write an empty line as "\+"/);
	});

	it('lines after a delete', () => {
		refuses(patch('*** Delete File: a', '-gone'), 3, /"\*\*\* Delete File: a" takes no lines after it/);
	});

	it('an update without hunks, a misplaced "*** Move to:", a hunk with no lines or no change', () => {
		refuses(patch('*** Update File: a', '*** Delete File: b'), 2, /"\*\*\* Update File: a" has no hunks/);
		refuses(patch('*** Update File: a', '@@', '-x', '+y', '*** Move to: b'), 6, /"\*\*\* Move to:" goes right after "\*\*\* Update File: a"/);
		refuses(patch('*** Update File: a', '@@', '@@ f()', '*** Delete File: b'), 3, /a hunk of a has no lines/);
		refuses(patch('*** Update File: a', '@@', '', ''), 3, /a hunk of a has no lines/);
		refuses(patch('*** Update File: a', '@@', ' x', ' y'), 3, /a hunk of a changes nothing/);
	});

	it('a unified diff\'s line-number header, and "@@" glued to text', () => {
		refuses(patch('*** Update File: a', '@@ -1,3 +1,4 @@', '-x', '+y'), 3, /unified diff's line-number header; this format has none/);
		refuses(patch('*** Update File: a', '@@ -7 +7 @@ def f():', '-x', '+y'), 3, /line-number header/);
		refuses(patch('*** Update File: a', '@@def f():', '-x', '+y'), 3, /expected "@@" alone or "@@ " followed by a line of the file, found "@@def f\(\):"/);
	});

	it('a hunk line that does not start with " ", "-" or "+", or an unknown "***" line', () => {
		refuses(patch('*** Update File: a', '@@', ' x', 'y', '+z'), 5, /expected a hunk line of a \(starting with " " to keep, "-" to remove or "\+" to add\).*found "y"/);
		refuses(patch('*** Update File: a', '@@', '\tx', '+z'), 4, /found "\\tx"/);
		refuses(patch('*** Update File: a', '@@', '-x', '+y', '*** End Of File'), 6, /found an unknown "\*\*\*" line/);
	});
});

describe('parsePatch refuses paths that could leave the workspace or name no file', () => {
	const cases: [path: string, message: RegExp][] = [
		['', /\*\*\* Delete File: has no path/],
		['   ', /has no path/],
		['/etc/passwd', /path "\/etc\/passwd" is absolute/],
		['\\\\server\\share\\x', /is absolute/],
		['C:\\Windows\\x', /is absolute/],
		['c:relative', /is absolute/],
		['../escape.txt', /has a "\.\." segment/],
		['src/../../escape', /has a "\.\." segment/],
		['src/../inside', /has a "\.\." segment/],
		['..\\escape', /has a "\.\." segment/],
		['a/..', /has a "\.\." segment/],
		['a\0b', /path "a\\u0000b" contains a NUL character/],
		['a\u001bb', /contains a control character/],
		['~/.ssh/id_rsa', /starts with "~"/],
		['src/', /ends with a separator: it names a folder/],
		['.', /names the workspace folder itself/],
		['./', /ends with a separator/],
	];
	for (const [path, message] of cases) {
		it(JSON.stringify(path), () => {
			refuses(patch(`*** Delete File: ${path}`), 2, message);
		});
	}

	it('in every place a path is written: add, update, move target', () => {
		refuses(patch('*** Add File: ../x', '+x'), 2, /\*\*\* Add File: path "\.\.\/x" has a "\.\." segment/);
		refuses(patch('*** Update File: /abs', '@@', '-x', '+y'), 2, /\*\*\* Update File: path "\/abs" is absolute/);
		refuses(patch('*** Update File: a', '*** Move to: ../../b', '@@', '-x', '+y'), 3, /\*\*\* Move to: path "\.\.\/\.\.\/b" has a "\.\." segment/);
	});

	it('keeps names that only look like dots', () => {
		const parsed = parsePatch(patch('*** Delete File: ..foo', '*** Delete File: a/...', '*** Delete File: .env'));
		assert.deepEqual(
			parsed.operations.map((operation) => operation.path),
			['..foo', 'a/...', '.env'],
		);
	});
});
