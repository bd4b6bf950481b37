// The write tools' shared contract: applyChanges checks every file before writing any, writes all
// or none (a failed write puts back the ones already made), and tells the guard and the observers
// what it wrote and deleted.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SeenTexts } from '../observe/seenTexts';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { applyChanges, changeKind, combinedDiff, type FileChange } from './changes';
import type { ToolContext } from './tool';

describe('applyChanges', () => {
	const workspace = tempWorkspace();
	const file = (name: string) => join(workspace.root, name);
	const change = (name: string, before: string | null, after: string | null): FileChange => ({ path: file(name), shown: name, before, after });
	after(() => {
		workspace.dispose();
	});

	it('modifies, creates and deletes, tells the guard the written texts, and lists every file touched', async () => {
		writeFileSync(file('m.txt'), 'm0\n');
		writeFileSync(file('d.txt'), 'd0\n');
		const seen = new SeenTexts();
		const touched = await applyChanges([change('m.txt', 'm0\n', 'm1\n'), change('c.txt', null, 'c1\n'), change('d.txt', 'd0\n', null)], nodeToolContext([workspace.root], undefined, seen), { tool: 'Test' });
		assert.deepEqual(touched, [
			{ path: file('m.txt'), access: 'written', text: 'm1\n' },
			{ path: file('c.txt'), access: 'written', text: 'c1\n' },
			{ path: file('d.txt'), access: 'deleted', text: '' },
		]);
		assert.equal(readFileSync(file('m.txt'), 'utf8'), 'm1\n');
		assert.equal(readFileSync(file('c.txt'), 'utf8'), 'c1\n');
		assert.equal(existsSync(file('d.txt')), false);
		assert.equal(seen.compare(file('m.txt'), 'm1\n'), 'same');
		assert.equal(seen.compare(file('c.txt'), 'c1\n'), 'same');
	});

	it('checks every file first: one that changed, or one that appeared, refuses the whole set before anything is written', async () => {
		writeFileSync(file('a.txt'), 'a0\n');
		writeFileSync(file('b.txt'), 'changed by someone\n');
		const context = nodeToolContext([workspace.root]);
		await assert.rejects(applyChanges([change('a.txt', 'a0\n', 'a1\n'), change('b.txt', 'b0\n', 'b1\n')], context, { tool: 'Test' }), /b\.txt/);
		assert.equal(readFileSync(file('a.txt'), 'utf8'), 'a0\n', 'the first file was not written');
		writeFileSync(file('appeared.txt'), 'someone else\'s\n');
		await assert.rejects(applyChanges([change('a.txt', 'a0\n', 'a1\n'), change('appeared.txt', null, 'mine\n')], context, { tool: 'Test' }), /appeared\.txt appeared while the Test was being made; it was left as it is/);
		assert.equal(readFileSync(file('a.txt'), 'utf8'), 'a0\n');
		assert.equal(readFileSync(file('appeared.txt'), 'utf8'), 'someone else\'s\n');
	});

	it('a write that fails part-way puts back the files already changed, and says nothing was applied', async () => {
		writeFileSync(file('first.txt'), 'f0\n');
		writeFileSync(file('gone.txt'), 'g0\n');
		const base = nodeToolContext([workspace.root]);
		const context: ToolContext = {
			...base,
			writer: {
				readText: (path) => base.writer.readText(path),
				replace: (path, text, expected) => base.writer.replace(path, text, expected),
				delete: (path, expected) => base.writer.delete(path, expected),
				create: (path, text) => (path.endsWith('fails.txt') ? Promise.reject(new Error('disk full')) : base.writer.create(path, text)),
			},
		};
		await assert.rejects(
			applyChanges([change('first.txt', 'f0\n', 'f1\n'), change('gone.txt', 'g0\n', null), change('fails.txt', null, 'x\n')], context, { tool: 'Test' }),
			/^ToolError: Test could not write fails\.txt: disk full\. The 2 files this call had already changed were put back: nothing was applied\.$/,
		);
		assert.equal(readFileSync(file('first.txt'), 'utf8'), 'f0\n');
		assert.equal(readFileSync(file('gone.txt'), 'utf8'), 'g0\n', 'the deleted file is back');
		assert.equal(existsSync(file('fails.txt')), false);
	});

	it('keeps the checkpoint after the stale-write check and before the first write, with every change of the call', async () => {
		writeFileSync(file('k.txt'), 'k0\n');
		const kept: { readonly changes: readonly FileChange[]; readonly onDisk: string | undefined }[] = [];
		const context: ToolContext = {
			...nodeToolContext([workspace.root]),
			checkpoint: {
				keep: (changes) => {
					kept.push({ changes, onDisk: readFileSync(file('k.txt'), 'utf8') });
					return Promise.resolve();
				},
			},
		};
		const changes = [change('k.txt', 'k0\n', 'k1\n'), change('k-new.txt', null, 'n\n')];
		await applyChanges(changes, context, { tool: 'Test' });
		assert.equal(kept.length, 1);
		const [keep] = kept;
		assert.ok(keep);
		assert.deepEqual(keep.changes, changes);
		assert.equal(keep.onDisk, 'k0\n', 'kept before the write');
		assert.equal(readFileSync(file('k.txt'), 'utf8'), 'k1\n');
		// A stale call keeps nothing: it writes nothing.
		await assert.rejects(applyChanges([change('k.txt', 'k0\n', 'k2\n')], context, { tool: 'Test' }), /ToolError/);
		assert.equal(kept.length, 1);
	});

	it('a checkpoint that cannot be kept refuses the call: nothing is written, and the model reads why', async () => {
		writeFileSync(file('r.txt'), 'r0\n');
		const context: ToolContext = {
			...nodeToolContext([workspace.root]),
			checkpoint: { keep: () => Promise.reject(new Error('could not keep the content of r.txt: ENOSPC')) },
		};
		await assert.rejects(
			applyChanges([change('r.txt', 'r0\n', 'r1\n'), change('r-new.txt', null, 'x\n')], context, { tool: 'Edit' }),
			/^ToolError: Aside could not keep a checkpoint before the Edit \(could not keep the content of r\.txt: ENOSPC\), so nothing was written/,
		);
		assert.equal(readFileSync(file('r.txt'), 'utf8'), 'r0\n');
		assert.equal(existsSync(file('r-new.txt')), false);
	});

	it('names each kind of change, and diffs each file from or to /dev/null when it does not exist', () => {
		assert.deepEqual([changeKind({ before: null, after: 'x' }), changeKind({ before: 'x', after: null }), changeKind({ before: 'x', after: 'y' })], ['create', 'delete', 'modify']);
		assert.equal(combinedDiff([change('n.txt', null, 'n\n'), change('o.txt', 'o\n', null)]), '--- /dev/null\n+++ n.txt\n@@ -0,0 +1,1 @@\n+n\n--- o.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-o\n');
	});
});
