import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { tempWorkspace } from '../testing/nodeWorkspace';
import { INSTRUCTION_KINDS, kindOf, MalformedInstructions, rootInstructionPaths } from './instructionSources';

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
		write('.cursor/rules/b.mdc');
		write('.cursor/rules/a.mdc');
		write('.cursor/rules/notes.md');
		write('.cursor/rules/.mdc');
		write('.cursor/rules/nested/c.mdc');
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
			'.cursor/rules/a.mdc',
			'.cursor/rules/b.mdc',
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

	it('knows the kind of a path: folder files anywhere, .instructions.md and .mdc only in the folder\'s .github/instructions and .cursor/rules', (t) => {
		const { root } = workspace(t);
		assert.equal(kindOf(join(root, 'pkg', 'CLAUDE.local.md'), root), 'CLAUDE.md');
		assert.equal(kindOf(join(root, 'AGENTS.md'), root), 'AGENTS.md');
		assert.equal(kindOf(join(root, '.github', 'instructions', 'ts.instructions.md'), root), '.instructions.md');
		assert.equal(kindOf(join(root, 'pkg', '.github', 'instructions', 'ts.instructions.md'), root), undefined);
		assert.equal(kindOf(join(root, '.cursor', 'rules', 'ts.mdc'), root), '.cursor/rules');
		assert.equal(kindOf(join(root, 'pkg', '.cursor', 'rules', 'ts.mdc'), root), undefined);
		assert.equal(kindOf(join(root, '.cursor', 'rules', 'ts.md'), root), undefined);
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
