import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { GLOB_MAX_RESULTS, globTool } from './glob';
import { invokeTool } from './registry';

describe('Glob', () => {
	const workspace = tempWorkspace();
	const outside = tempWorkspace('aside-outside-');
	const context = nodeToolContext([workspace.root]);
	const glob = async (input: unknown) => (await invokeTool(globTool, input, context)).content;

	before(() => {
		const files = [
			'package.json',
			'tsconfig.json',
			'src/a.ts',
			'src/b.tsx',
			'src/deep/c.ts',
			'src/deep/c.spec.ts',
			'test/d.ts',
			'.github/workflows/ci.yml',
			'node_modules/pkg/index.ts',
			'.git/HEAD',
		];
		for (const file of files) {
			mkdirSync(join(workspace.root, dirname(file)), { recursive: true });
			writeFileSync(join(workspace.root, file), '');
		}
		mkdirSync(join(workspace.root, 'many'));
		for (let i = 0; i < GLOB_MAX_RESULTS + 20; i++) {
			writeFileSync(join(workspace.root, 'many', `m${String(i).padStart(3, '0')}.txt`), '');
		}
		writeFileSync(join(outside.root, 'outside.ts'), '');
		symlinkSync(outside.root, join(workspace.root, 'src', 'linked'));
	});
	after(() => {
		workspace.dispose();
		outside.dispose();
	});

	it('matches across folders with **, sorted by path, skipping node_modules, .git and symlinked folders', async () => {
		assert.equal(await glob({ pattern: '**/*.ts' }), 'src/a.ts\nsrc/deep/c.spec.ts\nsrc/deep/c.ts\ntest/d.ts');
	});

	it('keeps * within one folder', async () => {
		assert.equal(await glob({ pattern: '*.json' }), 'package.json\ntsconfig.json');
		assert.equal(await glob({ pattern: 'src/*.ts' }), 'src/a.ts');
	});

	it('supports braces, and patterns relative to path', async () => {
		assert.equal(await glob({ pattern: '**/*.{ts,tsx}', path: 'src' }), 'src/a.ts\nsrc/b.tsx\nsrc/deep/c.spec.ts\nsrc/deep/c.ts');
		assert.equal(await glob({ pattern: './deep/*.spec.ts', path: 'src' }), 'src/deep/c.spec.ts');
	});

	it('includes hidden files, and node_modules or .git when the pattern names them', async () => {
		assert.equal(await glob({ pattern: '**/*.yml' }), '.github/workflows/ci.yml');
		assert.equal(await glob({ pattern: 'node_modules/**/*.ts' }), 'node_modules/pkg/index.ts');
		assert.equal(await glob({ pattern: '.git/*' }), '.git/HEAD');
	});

	it('matches a literal path', async () => {
		assert.equal(await glob({ pattern: 'src/deep/c.ts' }), 'src/deep/c.ts');
	});

	it('caps the list and counts the rest', async () => {
		const lines = (await glob({ pattern: 'many/*.txt' })).split('\n');
		assert.equal(lines.length, GLOB_MAX_RESULTS + 1);
		assert.equal(lines[0], 'many/m000.txt');
		assert.equal(lines.at(-1), '… and 20 more files; narrow the pattern or path.');
	});

	it('says when nothing matches', async () => {
		assert.equal(await glob({ pattern: '**/*.rs' }), 'No files match **/*.rs.');
	});

	it('refuses patterns that leave path, and paths outside the workspace', async () => {
		assert.match(await glob({ pattern: '../*.ts' }), /contains "\.\."/);
		assert.match(await glob({ pattern: '/etc/*' }), /is absolute/);
		assert.match(await glob({ pattern: '*', path: outside.root }), /outside the workspace folders/);
		assert.match(await glob({ pattern: 'src/linked/*.ts' }), /outside the workspace folders/);
	});
});
