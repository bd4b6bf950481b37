import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { LIST_MAX_ENTRIES, listTool } from './list';
import { invokeTool } from './registry';

describe('List', () => {
	const workspace = tempWorkspace();
	const context = nodeToolContext([workspace.root]);
	const list = (input: unknown) => invokeTool(listTool, input, context);

	before(() => {
		mkdirSync(join(workspace.root, 'src'));
		mkdirSync(join(workspace.root, '.github'));
		mkdirSync(join(workspace.root, 'empty'));
		mkdirSync(join(workspace.root, 'many'));
		writeFileSync(join(workspace.root, 'b.txt'), '');
		writeFileSync(join(workspace.root, 'A.md'), '');
		writeFileSync(join(workspace.root, '.env'), '');
		symlinkSync(join(workspace.root, 'b.txt'), join(workspace.root, 'link'));
		for (let i = 0; i < LIST_MAX_ENTRIES + 5; i++) {
			writeFileSync(join(workspace.root, 'many', `f${String(i).padStart(4, '0')}`), '');
		}
	});
	after(() => {
		workspace.dispose();
	});

	it('lists the workspace folder by default, sorted, folders with a trailing slash, hidden entries included', async () => {
		const result = await list({});
		assert.equal(result.content, ['.env', '.github/', 'A.md', 'b.txt', 'empty/', 'link', 'many/', 'src/'].join('\n'));
	});

	it('says when a folder is empty', async () => {
		assert.equal((await list({ path: 'empty' })).content, 'empty is empty.');
	});

	it('caps the entries and counts the rest', async () => {
		const lines = (await list({ path: 'many' })).content.split('\n');
		assert.equal(lines.length, LIST_MAX_ENTRIES + 1);
		assert.equal(lines.at(-1), '… and 5 more entries not shown; use Glob to narrow down.');
	});

	it('refuses a file, a missing folder, and a path outside', async () => {
		assert.deepEqual(await list({ path: 'b.txt' }), { isError: true, content: 'b.txt is a file, not a directory; use Read to see its contents.' });
		assert.deepEqual(await list({ path: 'nope' }), { isError: true, content: 'Directory not found: nope.' });
		assert.match((await list({ path: '..' })).content, /^Access denied: \.\. is outside the workspace folders/);
	});
});
