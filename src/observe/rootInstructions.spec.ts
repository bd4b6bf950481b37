import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { tempWorkspace } from '../testing/nodeWorkspace';
import { INSTRUCTION_KINDS, type InstructionKind, MalformedInstructions } from './instructionSources';
import { outsideNotice, readRootInstructions, type RootFolder, type RootInstructionsCache, type RootInstructionsOptions } from './rootInstructions';

function readRootInstructionFiles(folders: readonly RootFolder[], kinds: readonly InstructionKind[], malformed: MalformedInstructions, options?: RootInstructionsOptions) {
	return readRootInstructions(folders, kinds, malformed, options).files;
}

function setup(t: TestContext, name = 'aside-root-instructions-') {
	const folder = tempWorkspace(name);
	t.after(() => {
		folder.dispose();
	});
	const write = (path: string, text: string) => {
		mkdirSync(dirname(join(folder.root, path)), { recursive: true });
		writeFileSync(join(folder.root, path), text);
	};
	const told: string[] = [];
	const malformed = new MalformedInstructions((message) => told.push(message));
	return { root: folder.root, write, told, malformed };
}

describe('readRootInstructionFiles', () => {
	it('reads every kind at the root, broad to specific, with its path; root .instructions.md without their frontmatter, path-scoped ones left out', (t) => {
		const { root, write, malformed, told } = setup(t);
		write('AGENTS.md', 'agents rules');
		write('CLAUDE.md', 'claude rules');
		write('CLAUDE.local.md', 'my claude rules');
		write('.github/copilot-instructions.md', 'copilot rules');
		write('.github/instructions/all.instructions.md', '---\napplyTo: "**"\n---\nfor every file');
		write('.github/instructions/plain.instructions.md', 'no frontmatter at all');
		write('.github/instructions/ts.instructions.md', '---\napplyTo: "**/*.ts"\n---\nts only');
		write('.clinerules/b.md', 'cline b');
		write('.clinerules/a.md', 'cline a');
		write('.cursorrules', 'cursor rules');
		write('.roo/rules/01.md', 'roo one');
		write('.roo/rules/02.md', '   \n');
		const files = readRootInstructionFiles([{ path: root, name: 'ws' }], INSTRUCTION_KINDS, malformed);
		assert.deepEqual(
			files.map((file) => [file.path, file.text]),
			[
				['AGENTS.md', 'agents rules'],
				['CLAUDE.md', 'claude rules'],
				['CLAUDE.local.md', 'my claude rules'],
				['.github/copilot-instructions.md', 'copilot rules'],
				['.github/instructions/all.instructions.md', 'for every file'],
				['.github/instructions/plain.instructions.md', 'no frontmatter at all'],
				['.clinerules/a.md', 'cline a'],
				['.clinerules/b.md', 'cline b'],
				['.cursorrules', 'cursor rules'],
				['.roo/rules/01.md', 'roo one'],
			],
		);
		assert.deepEqual(told, []);
	});

	it('reads only the kinds the setting names', (t) => {
		const { root, write, malformed } = setup(t);
		write('AGENTS.md', 'agents rules');
		write('CLAUDE.md', 'claude rules');
		write('.cursorrules', 'cursor rules');
		assert.deepEqual(readRootInstructionFiles([{ path: root, name: 'ws' }], ['CLAUDE.md'], malformed).map((file) => file.path), ['CLAUDE.md']);
		assert.deepEqual(readRootInstructionFiles([{ path: root, name: 'ws' }], [], malformed), []);
	});

	it('skips a malformed .instructions.md and names it once, however many WAITs read it', (t) => {
		const { root, write, malformed, told } = setup(t);
		write('CLAUDE.md', 'claude rules');
		write('.github/instructions/bad.instructions.md', '---\napplyTo: 7\n---\nnever given');
		for (let wait = 0; wait < 3; wait++) {
			assert.deepEqual(readRootInstructionFiles([{ path: root, name: 'ws' }], INSTRUCTION_KINDS, malformed).map((file) => file.path), ['CLAUDE.md']);
		}
		assert.equal(told.length, 1);
		assert.match(told[0] ?? '', /\.github\/instructions\/bad\.instructions\.md is skipped: applyTo must be a glob/);
	});

	it('with a cache kept between WAITs, gives a changed file\'s new text, and a fixed frontmatter has the file read', (t) => {
		const { root, write, malformed, told } = setup(t);
		const cache: RootInstructionsCache = new Map();
		const read = () => readRootInstructionFiles([{ path: root, name: 'ws' }], INSTRUCTION_KINDS, malformed, { cache }).map((file) => file.text);
		write('CLAUDE.md', 'first');
		write('.github/instructions/all.instructions.md', '---\napplyTo: [oops\n---\nfor all');
		assert.deepEqual(read(), ['first']);
		assert.deepEqual(read(), ['first']);
		assert.equal(told.length, 1);
		write('CLAUDE.md', 'second, longer');
		write('.github/instructions/all.instructions.md', '---\napplyTo: "**"\n---\nfor all');
		assert.deepEqual(read(), ['second, longer', 'for all']);
	});

	it('caps each file and says so; prefixes the folder name when there are several folders', (t) => {
		const first = setup(t, 'aside-root-a-');
		const second = setup(t, 'aside-root-b-');
		first.write('CLAUDE.md', 'x'.repeat(100));
		second.write('.cursorrules', 'cursor');
		const files = readRootInstructionFiles(
			[
				{ path: first.root, name: 'one' },
				{ path: second.root, name: 'two' },
			],
			INSTRUCTION_KINDS,
			first.malformed,
			{ maxFileBytes: 10 },
		);
		assert.deepEqual(
			files.map((file) => [file.path, file.text, file.truncated]),
			[
				['one/CLAUDE.md', 'x'.repeat(10), true],
				['two/.cursorrules', 'cursor', false],
			],
		);
	});

	it('skips every kind whose real path leads outside the workspace folders, and names each with where it leads', (t) => {
		const { root, write, malformed } = setup(t);
		const outside = setup(t, 'aside-root-outside-');
		outside.write('secret.md', 'from outside');
		outside.write('rules/a.md', 'outside rules folder');
		const secret = join(outside.root, 'secret.md');
		write('AGENTS.md', 'inside rules');
		mkdirSync(join(root, '.github', 'instructions'), { recursive: true });
		for (const link of ['CLAUDE.md', '.cursorrules', '.github/copilot-instructions.md', '.github/instructions/x.instructions.md', '.roo/rules/01.md']) {
			mkdirSync(dirname(join(root, link)), { recursive: true });
			symlinkSync(secret, join(root, link));
		}
		symlinkSync(join(outside.root, 'rules'), join(root, '.clinerules'));
		// A link that stays inside is a file of the workspace like any other.
		write('docs/shared.md', 'shared inside');
		symlinkSync(join(root, 'docs', 'shared.md'), join(root, 'AGENTS.local.md'));
		const read = readRootInstructions([{ path: root, name: 'ws' }], INSTRUCTION_KINDS, malformed);
		assert.deepEqual(read.files.map((file) => [file.path, file.text]), [['AGENTS.md', 'inside rules'], ['AGENTS.local.md', 'shared inside']]);
		assert.deepEqual(read.outside.map(({ shown }) => shown), ['CLAUDE.md', '.github/copilot-instructions.md', '.github/instructions/x.instructions.md', '.clinerules/a.md', '.cursorrules', '.roo/rules/01.md']);
		assert.equal(read.outside[0]?.real, secret);
		assert.match(outsideNotice(read.outside) ?? '', /^Instruction files not given to the model: CLAUDE\.md \(to .*secret\.md\), .* lead outside the workspace folders/);
		assert.equal(outsideNotice([]), undefined);
	});
});
