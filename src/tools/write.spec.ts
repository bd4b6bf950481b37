import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { invokeTool, prepareTool } from './registry';
import { writeTool } from './write';

describe('Write', () => {
	const workspace = tempWorkspace();
	const context = nodeToolContext([workspace.root]);

	after(() => {
		workspace.dispose();
	});

	it('creates a new file and its missing folders, and returns the diff from nothing', async () => {
		const result = await invokeTool(writeTool, { path: 'src/new/file.ts', content: 'one\ntwo\n' }, context);
		assert.equal(result.content, 'Created src/new/file.ts (2 lines).');
		assert.equal(readFileSync(join(workspace.root, 'src', 'new', 'file.ts'), 'utf8'), 'one\ntwo\n');
		assert.deepEqual(result.detail, { kind: 'diff', path: 'src/new/file.ts', diff: '--- /dev/null\n+++ src/new/file.ts\n@@ -0,0 +1,2 @@\n+one\n+two\n' });
	});

	it('confirm() shows the file to be created, and its plan: nothing before, the content after', async () => {
		const prepared = await prepareTool(writeTool, { path: 'b.ts', content: 'b\n' }, context);
		const changes = [{ path: join(workspace.root, 'b.ts'), shown: 'b.ts', before: null, after: 'b\n' }];
		assert.deepEqual(prepared, {
			ok: true,
			confirmation: { title: 'Create b.ts', target: 'b.ts', diff: '--- /dev/null\n+++ b.ts\n@@ -0,0 +1,1 @@\n+b\n', changes },
			plan: { title: 'Create b.ts', changes, summary: 'Created b.ts (1 line).' },
		});
		assert.equal(existsSync(join(workspace.root, 'b.ts')), false, 'planning writes nothing');
	});

	it('refuses an existing file, pointing at Edit, and leaves it alone', async () => {
		writeFileSync(join(workspace.root, 'exists.ts'), 'keep');
		const result = await invokeTool(writeTool, { path: 'exists.ts', content: 'x' }, context);
		assert.deepEqual(result, { isError: true, content: 'exists.ts already exists. Write only creates new files; use Edit to change an existing file.' });
		assert.equal(readFileSync(join(workspace.root, 'exists.ts'), 'utf8'), 'keep');
		const prepared = await prepareTool(writeTool, { path: 'exists.ts', content: 'x' }, context);
		assert.equal(prepared.ok, false);
	});

	it('refuses a path outside the workspace', async () => {
		assert.match((await invokeTool(writeTool, { path: '../escape.ts', content: 'x' }, context)).content, /Access denied: \.\.\/escape\.ts is outside the workspace folders/);
	});
});
