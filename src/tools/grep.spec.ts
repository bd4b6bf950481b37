import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NodeTextSearch, NodeWorkspaceFs, nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { GREP_MAX_RESULTS, grepTool } from './grep';
import { invokeTool } from './registry';
import { findRipgrep, parseRipgrepLine, ripgrepCandidates, RipgrepTextSearch } from './ripgrepSearch';
import type { TextSearch } from './tool';

// The ripgrep that the test tools' code-server ships, when it is installed.
const codeServerApp = join(process.env.ASIDE_TOOLS_DIR ?? join(process.cwd(), '.tools'), 'code-server', 'node_modules', 'code-server', 'lib', 'vscode');
const ripgrep = ripgrepCandidates(codeServerApp).find((candidate) => existsSync(candidate));

const searches: [string, (fs: NodeWorkspaceFs) => TextSearch | undefined][] = [
	['the Node search', (fs) => new NodeTextSearch(fs)],
	['ripgrep', () => (ripgrep === undefined ? undefined : new RipgrepTextSearch(ripgrep))],
];

for (const [name, makeSearch] of searches) {
	const search = makeSearch(new NodeWorkspaceFs());
	describe(`Grep with ${name}`, { skip: search === undefined ? 'ripgrep is not installed (.tools/code-server)' : false }, () => {
		const workspace = tempWorkspace();
		const outside = tempWorkspace('aside-outside-');
		const context = { ...nodeToolContext([workspace.root]), ...(search ? { search } : {}) };
		const grep = async (input: unknown) => (await invokeTool(grepTool, input, context)).content;

		before(() => {
			const files: Record<string, string> = {
				'src/a.ts': 'export function parseConfig() {}\nconst Parser = 1;\n',
				'src/b.js': 'parseConfig();\n',
				'src/deep/c.ts': 'x\ny\nparse here\n',
				'docs/readme.md': 'PARSE the docs\n',
				'node_modules/pkg/index.js': 'parseConfig\n',
				'long.txt': `${'z'.repeat(400)} parse\n`,
				'bin.dat': 'parse\0\0\0',
				'many.txt': Array.from({ length: GREP_MAX_RESULTS + 10 }, (_, i) => `hit ${i}`).join('\n'),
			};
			for (const [file, text] of Object.entries(files)) {
				mkdirSync(join(workspace.root, dirname(file)), { recursive: true });
				writeFileSync(join(workspace.root, file), text);
			}
			writeFileSync(join(outside.root, 'secret.ts'), 'parseConfig(secret)\n');
			symlinkSync(join(outside.root, 'secret.ts'), join(workspace.root, 'src', 'leak.ts'));
			// ripgrep skips what .gitignore lists only inside a git repository.
			mkdirSync(join(workspace.root, '.git'));
			writeFileSync(join(workspace.root, '.gitignore'), 'node_modules/\n');
		});
		after(() => {
			workspace.dispose();
			outside.dispose();
		});

		it('finds a regex as path:line: text, sorted, skipping node_modules, binary files and symlinks', async () => {
			assert.equal(await grep({ pattern: 'parse[A-Z]\\w+\\(' }), 'src/a.ts:1: export function parseConfig() {}\nsrc/b.js:1: parseConfig();');
		});

		it('is case-sensitive unless told otherwise', async () => {
			assert.equal(await grep({ pattern: 'parser' }), 'No matches for parser in the workspace.');
			assert.equal(await grep({ pattern: 'parser', caseSensitive: false }), 'src/a.ts:2: const Parser = 1;');
			assert.equal(await grep({ pattern: '^parse', caseSensitive: false, path: 'docs' }), 'docs/readme.md:1: PARSE the docs');
		});

		it('filters files by a glob on the name or on the path', async () => {
			assert.equal(await grep({ pattern: 'parse', glob: '*.ts' }), 'src/a.ts:1: export function parseConfig() {}\nsrc/deep/c.ts:3: parse here');
			assert.equal(await grep({ pattern: 'parse', glob: 'src/deep/**' }), 'src/deep/c.ts:3: parse here');
			assert.equal(await grep({ pattern: 'parse', glob: 'node_modules/**' }), 'node_modules/pkg/index.js:1: parseConfig');
		});

		it('searches one file when path is a file', async () => {
			assert.equal(await grep({ pattern: 'parse', path: 'src/deep/c.ts' }), 'src/deep/c.ts:3: parse here');
		});

		it('cuts long lines', async () => {
			assert.equal(await grep({ pattern: 'parse', path: 'long.txt' }), `long.txt:1: ${'z'.repeat(300)}…`);
		});

		it('caps the matches and says there are more', async () => {
			const lines = (await grep({ pattern: '^hit \\d+$', path: 'many.txt' })).split('\n');
			assert.equal(lines.length, GREP_MAX_RESULTS + 1);
			assert.equal(lines.at(-1), `… more matches not shown (stopped at ${GREP_MAX_RESULTS} matches); narrow the pattern, path or glob.`);
		});

		it('reports an invalid regex with its error, and a path outside the workspace', async () => {
			const result = await invokeTool(grepTool, { pattern: 'parse(' }, context);
			assert.equal(result.isError, true);
			assert.equal(result.content, 'Invalid regular expression parse(: Unterminated group');
			assert.match(await grep({ pattern: 'x', path: '../' }), /outside the workspace folders/);
			assert.equal(await grep({ pattern: 'x', path: 'nope' }), 'Not found: nope.');
		});
	});
}

describe('findRipgrep', () => {
	it('finds the binary under a VS Code app root, or nothing', async () => {
		assert.equal(await findRipgrep(join(codeServerApp, 'nowhere')), undefined);
		if (ripgrep !== undefined) {
			assert.equal(await findRipgrep(codeServerApp), ripgrep);
		}
	});

	it('looks in both the old and the universal package layouts', () => {
		assert.deepEqual(ripgrepCandidates('/app', 'linux', 'x64'), [
			'/app/node_modules.asar.unpacked/@vscode/ripgrep-universal/bin/linux-x64/rg',
			'/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg',
			'/app/node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg',
			'/app/node_modules/@vscode/ripgrep/bin/rg',
		]);
	});
});

describe('parseRipgrepLine', () => {
	it('reads text and base64 paths and lines, and ignores other messages', () => {
		assert.deepEqual(parseRipgrepLine('{"type":"match","data":{"path":{"text":"/w/a.ts"},"lines":{"text":"hit\\r\\n"},"line_number":4}}'), { path: '/w/a.ts', line: 4, text: 'hit' });
		const bytes = Buffer.from('caf\u00e9\n').toString('base64');
		assert.deepEqual(parseRipgrepLine(`{"type":"match","data":{"path":{"bytes":"${Buffer.from('/w/b').toString('base64')}"},"lines":{"bytes":"${bytes}"},"line_number":1}}`), { path: '/w/b', line: 1, text: 'caf\u00e9' });
		assert.equal(parseRipgrepLine('{"type":"begin","data":{"path":{"text":"/w/a.ts"}}}'), undefined);
		assert.equal(parseRipgrepLine('not json'), undefined);
	});
});
