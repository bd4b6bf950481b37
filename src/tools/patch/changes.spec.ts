import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changesFromPatch, patchPaths } from './changes';
import { parsePatch } from './parse';
import { PatchError } from './patch';

const patch = (...body: string[]) => parsePatch(['*** Begin Patch', ...body, '*** End Patch'].join('\n'));

/** The files' texts as a lookup that records what the engine asked for. */
function files(texts: Record<string, string>) {
	const asked: string[] = [];
	const textOf = (path: string) => {
		asked.push(path);
		return Object.hasOwn(texts, path) ? texts[path] : undefined;
	};
	return { textOf, asked };
}

function refuses(run: () => unknown, where: { path: string; line: number; hunk?: number }, message: RegExp) {
	assert.throws(run, (error: unknown) => {
		assert.ok(error instanceof PatchError, `a PatchError, not ${String(error)}`);
		assert.deepEqual(error.where, where);
		assert.match(error.message, message);
		return true;
	});
}

describe('changesFromPatch', () => {
	it('turns a multi-file patch into one change per file, in the order the patch names them', () => {
		const { textOf } = files({ 'src/app.py': 'def greet():\n    print("Hi")\n', 'old.txt': 'gone\n', 'keep.md': '# a\n' });
		const changes = changesFromPatch(
			patch('*** Add File: hello.txt', '+Hello', '*** Update File: src/app.py', '@@ def greet():', '-    print("Hi")', '+    print("Hello")', '*** Delete File: old.txt'),
			textOf,
		);
		assert.deepEqual(changes, [
			{ path: 'hello.txt', before: undefined, after: 'Hello\n' },
			{ path: 'src/app.py', before: 'def greet():\n    print("Hi")\n', after: 'def greet():\n    print("Hello")\n' },
			{ path: 'old.txt', before: 'gone\n', after: undefined },
		]);
	});

	it('moves a file: the target gets the updated text and says where it came from, the source is deleted', () => {
		const { textOf } = files({ 'a.ts': 'x\ny\n' });
		assert.deepEqual(changesFromPatch(patch('*** Update File: a.ts', '*** Move to: lib/b.ts', '@@', ' x', '-y', '+z'), textOf), [
			{ path: 'a.ts', before: 'x\ny\n', after: undefined },
			{ path: 'lib/b.ts', before: undefined, after: 'x\nz\n', movedFrom: 'a.ts' },
		]);
		assert.deepEqual(changesFromPatch(patch('*** Update File: a.ts', '*** Move to: b.ts'), textOf), [
			{ path: 'a.ts', before: 'x\ny\n', after: undefined },
			{ path: 'b.ts', before: undefined, after: 'x\ny\n', movedFrom: 'a.ts' },
		]);
	});

	it('a move onto its own path is an update', () => {
		const { textOf } = files({ 'a.ts': 'x\n' });
		assert.deepEqual(changesFromPatch(patch('*** Update File: a.ts', '*** Move to: ./a.ts', '@@', '-x', '+y'), textOf), [{ path: 'a.ts', before: 'x\n', after: 'y\n' }]);
	});

	it('applies operations in order: a file deleted and added in one patch is replaced', () => {
		const { textOf } = files({ 'a.txt': 'old\n' });
		assert.deepEqual(changesFromPatch(patch('*** Delete File: a.txt', '*** Add File: a.txt', '+new'), textOf), [{ path: 'a.txt', before: 'old\n', after: 'new\n' }]);
	});

	it('a file added then deleted, or moved away and back unchanged, is no change', () => {
		const { textOf } = files({ 'a.txt': 'a\n' });
		assert.deepEqual(changesFromPatch(patch('*** Add File: n.txt', '+n', '*** Delete File: n.txt'), textOf), []);
		assert.deepEqual(changesFromPatch(patch('*** Update File: a.txt', '*** Move to: b.txt', '*** Update File: b.txt', '*** Move to: a.txt'), textOf), []);
	});

	it('a move is reported only from a file that existed and ends deleted', () => {
		const { textOf } = files({ 'a.txt': 'a\n' });
		assert.deepEqual(changesFromPatch(patch('*** Add File: n.txt', '+n', '*** Update File: n.txt', '*** Move to: m.txt'), textOf), [{ path: 'm.txt', before: undefined, after: 'n\n' }]);
		assert.deepEqual(changesFromPatch(patch('*** Update File: a.txt', '*** Move to: b.txt', '*** Add File: a.txt', '+again'), textOf), [
			{ path: 'a.txt', before: 'a\n', after: 'again\n' },
			{ path: 'b.txt', before: undefined, after: 'a\n' },
		]);
	});

	it('a file updated twice gets the second update on the first one\'s text', () => {
		const { textOf } = files({ 'a.txt': 'one\ntwo\n' });
		assert.deepEqual(changesFromPatch(patch('*** Update File: a.txt', '@@', '-one', '+ONE', '*** Update File: a.txt', '@@', ' ONE', '-two', '+TWO'), textOf), [
			{ path: 'a.txt', before: 'one\ntwo\n', after: 'ONE\nTWO\n' },
		]);
	});

	it('a file added then updated, and one moved then updated at its new path', () => {
		const { textOf } = files({ 'a.txt': 'a\n' });
		assert.deepEqual(changesFromPatch(patch('*** Add File: n.txt', '+n', '*** Update File: n.txt', '@@', ' n', '+m'), textOf), [{ path: 'n.txt', before: undefined, after: 'n\nm\n' }]);
		assert.deepEqual(changesFromPatch(patch('*** Update File: a.txt', '*** Move to: b.txt', '*** Update File: b.txt', '@@', '-a', '+b'), textOf), [
			{ path: 'a.txt', before: 'a\n', after: undefined },
			{ path: 'b.txt', before: undefined, after: 'b\n', movedFrom: 'a.txt' },
		]);
	});

	it('reads each file once, only the files the patch names', () => {
		const { textOf, asked } = files({ 'a.txt': 'a\n', 'other.txt': 'o\n' });
		changesFromPatch(patch('*** Update File: a.txt', '@@', '-a', '+b', '*** Update File: a.txt', '@@', '-b', '+c', '*** Add File: n.txt', '+n'), textOf);
		assert.deepEqual(asked, ['a.txt', 'n.txt']);
	});
});

describe('changesFromPatch refuses the whole patch at the first operation that cannot apply', () => {
	it('adding a file that exists, before or by this patch', () => {
		refuses(() => changesFromPatch(patch('*** Add File: a.txt', '+x'), files({ 'a.txt': '' }).textOf), { path: 'a.txt', line: 2 }, /^a\.txt \(patch line 2\): "\*\*\* Add File" creates a file, and this one exists: change it with "\*\*\* Update File"/);
		refuses(() => changesFromPatch(patch('*** Add File: a.txt', '+x', '*** Add File: a.txt', '+y'), files({}).textOf), { path: 'a.txt', line: 4 }, /this one exists \(added by this patch at line 2\)/);
	});

	it('updating or deleting a file that does not exist, or no longer does', () => {
		refuses(() => changesFromPatch(patch('*** Update File: a.txt', '@@', '-x'), files({}).textOf), { path: 'a.txt', line: 2 }, /"\*\*\* Update File": there is no such file; create a file with "\*\*\* Add File"/);
		refuses(() => changesFromPatch(patch('*** Delete File: a.txt'), files({}).textOf), { path: 'a.txt', line: 2 }, /"\*\*\* Delete File": there is no such file\./);
		refuses(() => changesFromPatch(patch('*** Delete File: a.txt', '*** Delete File: a.txt'), files({ 'a.txt': '' }).textOf), { path: 'a.txt', line: 3 }, /no such file \(deleted by this patch at line 2\)/);
		refuses(() => changesFromPatch(patch('*** Update File: a.txt', '*** Move to: b.txt', '*** Update File: a.txt', '@@', '-x'), files({ 'a.txt': 'x\n' }).textOf), { path: 'a.txt', line: 4 }, /no such file \(moved by this patch at line 2\)/);
	});

	it('moving onto a file that exists', () => {
		refuses(() => changesFromPatch(patch('*** Update File: a.txt', '*** Move to: b.txt'), files({ 'a.txt': 'a\n', 'b.txt': 'b\n' }).textOf), { path: 'a.txt', line: 2 }, /"\*\*\* Move to: b\.txt": that file exists, and a move does not overwrite one/);
	});

	it('a hunk that does not match, in any file: the error names that file and hunk, and no change is returned', () => {
		const { textOf } = files({ 'a.txt': 'a\n', 'b.txt': 'b1\nb2\n' });
		const mismatched = patch('*** Update File: a.txt', '@@', '-a', '+A', '*** Add File: c.txt', '+c', '*** Update File: b.txt', '@@', '-b1', '+B1', '@@', '-b3', '+B3');
		refuses(() => changesFromPatch(mismatched, textOf), { path: 'b.txt', line: 12, hunk: 2 }, /^b\.txt, hunk 2 of 2 \(patch line 12\): its first context or removed line "b3" is not in the file below line 1/);
	});
});

describe('patchPaths', () => {
	it('lists every path a patch names, move targets included, once each, in order', () => {
		assert.deepEqual(patchPaths(patch('*** Update File: a', '*** Move to: b', '*** Delete File: c', '*** Add File: a', '+x', '*** Update File: b', '@@', '-x')), ['a', 'b', 'c']);
	});
});
