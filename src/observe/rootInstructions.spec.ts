import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { tempWorkspace } from '../testing/nodeWorkspace';
import { boundFiles } from './instructionBound';
import { INSTRUCTION_KINDS, type InstructionKind, MalformedInstructions } from './instructionSources';
import { outsideNotice, readRootInstructions, type RootFolder, type RootInstructionsCache, type RootInstructionsOptions } from './rootInstructions';
import { userMemoryFile } from './userInstructions';

function readRootInstructionFiles(
	folders: readonly RootFolder[],
	kinds: readonly InstructionKind[],
	malformed: MalformedInstructions,
	options?: RootInstructionsOptions,
) {
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

describe('readRootInstructions: the person\'s own ~/.claude/CLAUDE.md', () => {
	function withHome(t: TestContext) {
		const workspace = setup(t, 'aside-root-ws-');
		const home = setup(t, 'aside-root-home-');
		return { workspace, home, user: userMemoryFile(home.root, {}) };
	}

	it('is read first, before the workspace\'s files, shown as ~/.claude/CLAUDE.md (never the home path), and marked as the person\'s', (t) => {
		const { workspace, home, user } = withHome(t);
		home.write('.claude/CLAUDE.md', 'Always answer in British English.');
		workspace.write('AGENTS.md', 'agents rules');
		workspace.write('CLAUDE.md', 'project claude');
		const files = readRootInstructionFiles([{ path: workspace.root, name: 'ws' }], INSTRUCTION_KINDS, workspace.malformed, { user });
		assert.deepEqual(files.map((file) => [file.path, file.text, file.personal ?? false]), [
			['~/.claude/CLAUDE.md', 'Always answer in British English.', true],
			['AGENTS.md', 'agents rules', false],
			['CLAUDE.md', 'project claude', false],
		]);
		assert.ok(!JSON.stringify(files).includes(home.root), 'the home path is never shown');
	});

	it('is read with no workspace folders given (an untrusted workspace: none of the workspace\'s files)', (t) => {
		const { workspace, home, user } = withHome(t);
		home.write('.claude/CLAUDE.md', 'mine');
		workspace.write('CLAUDE.md', 'the repository\'s');
		assert.deepEqual(readRootInstructionFiles([], INSTRUCTION_KINDS, workspace.malformed, { user }).map((file) => [file.path, file.text]), [['~/.claude/CLAUDE.md', 'mine']]);
	});

	it('$CLAUDE_CONFIG_DIR/CLAUDE.md instead when that is set, as Claude Code reads it', (t) => {
		const { workspace, home } = withHome(t);
		const config = setup(t, 'aside-root-config-');
		home.write('.claude/CLAUDE.md', 'the default one');
		config.write('CLAUDE.md', 'the configured one');
		const user = userMemoryFile(home.root, { CLAUDE_CONFIG_DIR: config.root });
		assert.deepEqual(readRootInstructionFiles([], INSTRUCTION_KINDS, workspace.malformed, { user }).map((file) => [file.path, file.text]), [['$CLAUDE_CONFIG_DIR/CLAUDE.md', 'the configured one']]);
		const inHome = userMemoryFile(home.root, { CLAUDE_CONFIG_DIR: join(home.root, '.config', 'claude') });
		home.write('.config/claude/CLAUDE.md', 'under home');
		assert.deepEqual(readRootInstructionFiles([], INSTRUCTION_KINDS, workspace.malformed, { user: inHome }).map((file) => [file.path, file.text]), [['~/.config/claude/CLAUDE.md', 'under home']]);
	});

	it('is turned off with the CLAUDE.md kind', (t) => {
		const { workspace, home, user } = withHome(t);
		home.write('.claude/CLAUDE.md', 'mine');
		workspace.write('AGENTS.md', 'agents rules');
		const kinds = INSTRUCTION_KINDS.filter((kind) => kind !== 'CLAUDE.md');
		assert.deepEqual(readRootInstructionFiles([{ path: workspace.root, name: 'ws' }], kinds, workspace.malformed, { user }).map((file) => file.path), ['AGENTS.md']);
	});

	it('counts within the total bound, first, and is capped like the others', (t) => {
		const { workspace, home, user } = withHome(t);
		home.write('.claude/CLAUDE.md', 'm'.repeat(40));
		workspace.write('AGENTS.md', 'agents rules');
		const files = readRootInstructionFiles([{ path: workspace.root, name: 'ws' }], INSTRUCTION_KINDS, workspace.malformed, { user, maxFileBytes: 30 });
		assert.deepEqual(files.map((file) => [file.path, file.text.length, file.truncated]), [['~/.claude/CLAUDE.md', 30, true], ['AGENTS.md', 12, false]]);
		const bounded = boundFiles(files, { maxFiles: 1, maxTotalBytes: 1024 });
		assert.deepEqual([bounded.files.map((file) => file.path), bounded.leftOut], [['~/.claude/CLAUDE.md'], ['AGENTS.md']]);
		assert.deepEqual(boundFiles(files, { maxFiles: 10, maxTotalBytes: 35 }).leftOut, ['AGENTS.md']);
	});

	it('gives a changed file\'s new text with a cache kept between WAITs, and a symlinked one (it is the person\'s)', (t) => {
		const { workspace, home, user } = withHome(t);
		const cache: RootInstructionsCache = new Map();
		const read = () => readRootInstructionFiles([], INSTRUCTION_KINDS, workspace.malformed, { user, cache }).map((file) => file.text);
		const elsewhere = setup(t, 'aside-root-dotfiles-');
		elsewhere.write('claude.md', 'from my dotfiles');
		mkdirSync(join(home.root, '.claude'));
		symlinkSync(join(elsewhere.root, 'claude.md'), user.path);
		assert.deepEqual(read(), ['from my dotfiles']);
		elsewhere.write('claude.md', 'from my dotfiles, changed');
		assert.deepEqual(read(), ['from my dotfiles, changed']);
	});
});

describe('readRootInstructions: Cursor\'s .cursor/rules/*.mdc', () => {
	it('gives alwaysApply rules without their frontmatter, lists description-only ones, leaves globs to the Read observer and manual ones out, names a malformed one once', (t) => {
		const { root, write, malformed, told } = setup(t);
		write('.cursorrules', 'legacy cursor rules');
		write('.cursor/rules/always.mdc', '---\ndescription: Core\nglobs:\nalwaysApply: true\n---\n\nAlways use pnpm.\n');
		write('.cursor/rules/db.mdc', '---\ndescription: Database migrations: how to write one\nglobs:\nalwaysApply: false\n---\nMigration rules.');
		write('.cursor/rules/ts.mdc', '---\nglobs: **/*.ts\nalwaysApply: false\n---\nts rules');
		write('.cursor/rules/manual.mdc', '---\ndescription:\nglobs:\nalwaysApply: false\n---\nmanual rules');
		write('.cursor/rules/bad.mdc', '---\nalwaysApply: sometimes\n---\nnever given');
		write('.roo/rules/01.md', 'roo one');
		for (let wait = 0; wait < 2; wait++) {
			const read = readRootInstructions([{ path: root, name: 'ws' }], INSTRUCTION_KINDS, malformed);
			assert.deepEqual(read.files.map((file) => [file.path, file.text]), [['.cursorrules', 'legacy cursor rules'], ['.cursor/rules/always.mdc', 'Always use pnpm.\n'], ['.roo/rules/01.md', 'roo one']]);
			assert.deepEqual(read.requested, [{ path: '.cursor/rules/db.mdc', description: 'Database migrations: how to write one' }]);
		}
		assert.equal(told.length, 1);
		assert.match(told[0] ?? '', /^Aside: \.cursor\/rules\/bad\.mdc is skipped: alwaysApply must be true or false\./);
		assert.deepEqual(readRootInstructions([{ path: root, name: 'ws' }], INSTRUCTION_KINDS.filter((kind) => kind !== '.cursor/rules'), malformed).requested, [], 'turned off with its kind');
	});

	it('skips a rule whose real path leads outside the workspace folders, and names it', (t) => {
		const { root, write, malformed } = setup(t);
		const outside = setup(t, 'aside-root-cursor-outside-');
		outside.write('secret.mdc', '---\nalwaysApply: true\n---\nfrom outside');
		write('.cursor/rules/inside.mdc', '---\nalwaysApply: true\n---\ninside');
		symlinkSync(join(outside.root, 'secret.mdc'), join(root, '.cursor', 'rules', 'linked.mdc'));
		const read = readRootInstructions([{ path: root, name: 'ws' }], INSTRUCTION_KINDS, malformed);
		assert.deepEqual(read.files.map((file) => file.text), ['inside']);
		assert.deepEqual(read.outside.map(({ shown }) => shown), ['.cursor/rules/linked.mdc']);
	});
});
