import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NodeTextSearch, NodeWorkspaceFs, nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { GREP_MAX_RESULTS, grepTool } from './grep';
import { invokeTool } from './registry';
import { findRipgrep, parseRipgrepError, parseRipgrepLine, ripgrepCandidates, RipgrepTextSearch } from './ripgrepSearch';
import type { TextSearch, ToolContext } from './tool';

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

		// Only the Node search can say it skipped bin.dat: ripgrep does not report binary files.
		const binaryNote = name === 'the Node search' ? '\nNot searched: 1 binary or non-UTF-8 file.' : '';

		it('is case-sensitive unless told otherwise', async () => {
			assert.equal(await grep({ pattern: 'parser' }), `No matches for parser in the workspace.${binaryNote}`);
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

/** Writes `files` (path → text) under `root`. */
function writeFiles(root: string, files: Record<string, string>): void {
	for (const [file, text] of Object.entries(files)) {
		mkdirSync(join(root, dirname(file)), { recursive: true });
		writeFileSync(join(root, file), text);
	}
}

describe('Grep without ripgrep: the regex runs off the host thread', { timeout: 120_000 }, () => {
	const workspace = tempWorkspace();
	const fs = new NodeWorkspaceFs();
	// Nested repetition on a line that almost matches: 2^40 ways to fail, on the host thread for ever.
	const EVIL = `${'a'.repeat(40)}!`;
	before(() => {
		writeFiles(workspace.root, { 'a-ok.txt': 'aaa\nparse\n', 'b-evil.txt': `${EVIL}\n`, 'c-after.txt': 'aaa\n' });
	});
	after(() => {
		workspace.dispose();
	});

	it('stops a catastrophic regex when its time budget runs out, keeps what it found, and says so', async () => {
		const context: ToolContext = { ...nodeToolContext([workspace.root]), search: new NodeTextSearch(fs, { timeBudgetMs: 500 }) };
		let ticks = 0;
		const ticking = setInterval(() => ticks++, 1);
		try {
			const result = await invokeTool(grepTool, { pattern: '^(a+)+$' }, context);
			assert.equal(
				result.content,
				'a-ok.txt:1: aaa\n' +
					'The search stopped when its 0.5 s time budget ran out, while it was searching b-evil.txt; the files after it were not searched. ' +
					'Without ripgrep, Grep runs a JavaScript regular expression, and nested repetition such as (a+)+ can make one line take that long: simplify the pattern or narrow the path.',
			);
			assert.ok(ticks > 0, 'the host thread ran its timers while the regex ran');
		} finally {
			clearInterval(ticking);
		}
	});

	it('Stop ends a search that is stuck in a regex', async () => {
		const stop = new AbortController();
		// Stop just after the evil file was read, when it is on its way to the regex.
		const watched: NodeWorkspaceFs = Object.assign(new NodeWorkspaceFs(), {
			readFile: async (path: string) => {
				const bytes = await fs.readFile(path);
				setImmediate(() => {
					stop.abort();
				});
				return bytes;
			},
		});
		const search = new NodeTextSearch(watched, { timeBudgetMs: 600_000 });
		const result = await search.search('^(a+)+$', { roots: [join(workspace.root, 'b-evil.txt')], caseSensitive: true, maxResults: 10, signal: stop.signal });
		assert.deepEqual(result, { matches: [], truncated: false, cutShort: { reason: 'cancelled' } });
	});
});

describe('Grep without ripgrep says what it did not search', () => {
	const workspace = tempWorkspace();
	const denied = (path: string) => Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
	// Root reads any file, so unreadable ones are made so at the WorkspaceFs.
	const fs: NodeWorkspaceFs = Object.assign(new NodeWorkspaceFs(), {
		readFile: (path: string) => (path.endsWith('locked.txt') ? Promise.reject(denied(path)) : new NodeWorkspaceFs().readFile(path)),
		readDirectory: (path: string) => (path.endsWith('locked-dir') ? Promise.reject(denied(path)) : new NodeWorkspaceFs().readDirectory(path)),
	});
	const grep = async (input: unknown, search = new NodeTextSearch(fs)) => (await invokeTool(
		grepTool,
		input,
		{ ...nodeToolContext([workspace.root]), fs, search },
	)).content;
	before(() => {
		writeFiles(workspace.root, { 'ok.txt': 'parse\n', 'locked.txt': 'parse\n', 'locked-dir/x.txt': 'parse\n', 'bin.dat': 'parse\0\0', 'big.txt': '' });
		// Sparse: 51 MB on paper, nothing on disk, and never read.
		truncateSync(join(workspace.root, 'big.txt'), 51 * 1024 * 1024);
	});
	after(() => {
		workspace.dispose();
	});

	it('files over 50 MB, unreadable files and folders after the matches; binary files too when nothing matched', async () => {
		assert.equal(await grep({ pattern: 'parse' }), 'ok.txt:1: parse\nNot searched: 1 file over 50 MB (big.txt); 1 unreadable file (locked.txt); 1 folder that could not be listed.');
		assert.equal(
			await grep({ pattern: 'nothing' }),
			'No matches for nothing in the workspace.\nNot searched: 1 file over 50 MB (big.txt); 1 unreadable file (locked.txt); 1 folder that could not be listed; 1 binary or non-UTF-8 file.',
		);
		assert.equal(await grep({ pattern: 'parse', path: 'ok.txt' }), 'ok.txt:1: parse', 'nothing to say when nothing was skipped');
	});

	it('a walk that reaches its entry limit says it stopped', async () => {
		assert.equal(
			await grep({ pattern: 'nothing' }, new NodeTextSearch(fs, { maxEntries: 2 })),
			'No matches for nothing in the workspace.\nNot searched: 1 file over 50 MB (big.txt); 1 binary or non-UTF-8 file.\nThe search stopped after 2 files and folders, before it had covered every file; narrow the path or glob.',
		);
	});
});

describe('parseRipgrepError', () => {
	it('reads the path of a file ripgrep could not read, and nothing else', () => {
		assert.deepEqual(parseRipgrepError('rg: ./secret.txt: Permission denied (os error 13)'), { path: './secret.txt' });
		assert.deepEqual(parseRipgrepError('rg: /w/a: b.txt: No such file or directory (os error 2)'), { path: '/w/a: b.txt' });
		assert.equal(parseRipgrepError('rg: regex parse error:'), undefined);
		assert.equal(parseRipgrepError(''), undefined);
	});
});

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
