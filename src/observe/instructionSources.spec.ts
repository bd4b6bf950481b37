import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { tempWorkspace } from '../testing/nodeWorkspace';
import { INSTRUCTION_KINDS, type InstructionScope, kindOf, MalformedInstructions, rootInstructionPaths, scopedBody, scopeOf } from './instructionSources';

function scoped(yaml: string, body = 'Use strict TypeScript.'): string {
	return `---\n${yaml}\n---\n${body}\n`;
}

function paths(text: string): Extract<InstructionScope, { kind: 'paths' }> {
	const scope = scopeOf(text);
	if (scope.kind !== 'paths') {
		assert.fail(`not path-scoped: ${JSON.stringify(scope)}`);
	}
	return scope;
}

describe('scopeOf: the applyTo of an .instructions.md', () => {
	it('a single glob matches the paths it names, relative to the workspace folder, and no others', () => {
		const scope = paths(scoped('applyTo: "**/*.ts"'));
		assert.deepEqual(scope.patterns, ['**/*.ts']);
		assert.equal(scope.matches('src/a.ts'), true);
		assert.equal(scope.matches('a.ts'), true);
		assert.equal(scope.matches('.config/b.ts'), true, 'dot folders included');
		assert.equal(scope.matches('README.md'), false);
		assert.equal(scope.matches('src/a.tsx'), false);
	});

	it('a list of globs, or Copilot\'s comma-separated string (commas inside {…} kept), matches any of them', () => {
		const list = paths(scoped('applyTo:\n  - "src/**"\n  - "**/*.md"'));
		assert.equal(list.matches('src/deep/x.py'), true);
		assert.equal(list.matches('docs/a.md'), true);
		assert.equal(list.matches('test/a.ts'), false);
		const commas = paths(scoped('applyTo: "**/*.{ts,tsx}, docs/**"'));
		assert.deepEqual(commas.patterns, ['**/*.{ts,tsx}', 'docs/**']);
		assert.equal(commas.matches('a/b.tsx'), true);
		assert.equal(commas.matches('docs/x.txt'), true);
		assert.equal(commas.matches('a/b.js'), false);
	});

	it('no frontmatter, no applyTo, an empty frontmatter, or ** among the globs: the whole workspace (root instructions)', () => {
		for (const text of ['Just rules.', scoped('description: rules for all'), scoped(''), scoped('applyTo: "**"'), scoped('applyTo: ["src/**", "**"]')]) {
			assert.equal(scopeOf(text).kind, 'root', text);
		}
	});

	it('malformed frontmatter is refused with the reason: bad YAML, applyTo not text, an invalid glob, an absolute path, no closing line', () => {
		const reasons = [
			[scoped('applyTo: [unclosed'), /not valid YAML \(line \d+\)/],
			[scoped('applyTo: 42'), /applyTo must be a glob or a list of globs/],
			[scoped('applyTo: [1, 2]'), /applyTo must be a glob or a list of globs/],
			[scoped('applyTo: "src/[a-"'), /applyTo "src\/\[a-" is not a valid glob/],
			[scoped('applyTo: "/etc/**"'), /not a glob relative to the workspace folder/],
			[scoped('applyTo: "../other/**"'), /not a glob relative to the workspace folder/],
			[scoped('applyTo: ""'), /applyTo names no glob/],
			[scoped('- a\n- b'), /must be a set of fields/],
			['---\napplyTo: "**/*.ts"\nno closing line', /no closing "---" line/],
		] as const;
		for (const [text, reason] of reasons) {
			const scope = scopeOf(text);
			if (scope.kind !== 'malformed') {
				assert.fail(`not refused: ${text}`);
			}
			assert.match(scope.reason, reason, text);
		}
	});

	it('the body given is the text below the frontmatter', () => {
		assert.equal(scopedBody(scoped('applyTo: "**/*.ts"', 'Rule one.')), 'Rule one.\n');
		assert.equal(scopedBody('No frontmatter.'), 'No frontmatter.');
	});
});

describe('rootInstructionPaths: the root files of each kind', () => {
	function workspace(t: TestContext) {
		const folder = tempWorkspace('aside-instruction-sources-');
		t.after(() => {
			folder.dispose();
		});
		const write = (name: string, text = 'rules') => {
			mkdirSync(dirname(join(folder.root, name)), { recursive: true });
			writeFileSync(join(folder.root, name), text);
		};
		const listed = (kinds: readonly (typeof INSTRUCTION_KINDS)[number][] = INSTRUCTION_KINDS) => rootInstructionPaths(folder.root, kinds).map((path) => relative(folder.root, path).split('\\').join('/'));
		return { root: folder.root, write, listed };
	}

	it('lists every kind that exists, broad (AGENTS.md) to specific, rules folders in name order', (t) => {
		const { write, listed } = workspace(t);
		write('.roo/rules/b.md');
		write('.roo/rules/a.md');
		write('.roo/rules/image.png');
		write('.cursorrules');
		write('.clinerules/20-style.md');
		write('.clinerules/10-setup.md');
		write('.github/instructions/ts.instructions.md');
		write('.github/instructions/all.instructions.md');
		write('.github/instructions/notes.md');
		write('.github/copilot-instructions.md');
		write('CLAUDE.local.md');
		write('CLAUDE.md');
		write('AGENTS.local.md');
		write('AGENTS.md');
		assert.deepEqual(listed(), [
			'AGENTS.md',
			'AGENTS.local.md',
			'CLAUDE.md',
			'CLAUDE.local.md',
			'.github/copilot-instructions.md',
			'.github/instructions/all.instructions.md',
			'.github/instructions/ts.instructions.md',
			'.clinerules/10-setup.md',
			'.clinerules/20-style.md',
			'.cursorrules',
			'.roo/rules/a.md',
			'.roo/rules/b.md',
		]);
	});

	it('takes .clinerules as a file too, and only the kinds asked for', (t) => {
		const { write, listed } = workspace(t);
		write('.clinerules');
		write('CLAUDE.md');
		write('AGENTS.md');
		write('.cursorrules');
		assert.deepEqual(listed(), ['AGENTS.md', 'CLAUDE.md', '.clinerules', '.cursorrules']);
		assert.deepEqual(listed(['CLAUDE.md', '.cursorrules']), ['CLAUDE.md', '.cursorrules']);
		assert.deepEqual(listed([]), []);
	});

	it('knows the kind of a path: folder files anywhere, .instructions.md only in the folder\'s .github/instructions', (t) => {
		const { root } = workspace(t);
		assert.equal(kindOf(join(root, 'pkg', 'CLAUDE.local.md'), root), 'CLAUDE.md');
		assert.equal(kindOf(join(root, 'AGENTS.md'), root), 'AGENTS.md');
		assert.equal(kindOf(join(root, '.github', 'instructions', 'ts.instructions.md'), root), '.instructions.md');
		assert.equal(kindOf(join(root, 'pkg', '.github', 'instructions', 'ts.instructions.md'), root), undefined);
		assert.equal(kindOf(join(root, 'README.md'), root), undefined);
	});
});

describe('MalformedInstructions', () => {
	it('tells of each file and reason once, naming the file', () => {
		const told: string[] = [];
		const malformed = new MalformedInstructions((message) => told.push(message));
		malformed.note('.github/instructions/ts.instructions.md', 'applyTo must be a glob');
		malformed.note('.github/instructions/ts.instructions.md', 'applyTo must be a glob');
		malformed.note('.github/instructions/ts.instructions.md', 'another reason');
		assert.equal(told.length, 2);
		assert.match(told[0] ?? '', /^Aside: \.github\/instructions\/ts\.instructions\.md is skipped: applyTo must be a glob\. Fix its frontmatter/);
	});
});
