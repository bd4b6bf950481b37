import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempWorkspace } from '../testing/nodeWorkspace';
import { INSTRUCTION_KINDS } from './instructionSources';
import { userInstructionsRead, userMemoryFile } from './userInstructions';

describe('userMemoryFile: where Claude Code keeps the person\'s CLAUDE.md', () => {
	const home = join('/', 'home', 'ada');

	it('is ~/.claude/CLAUDE.md without CLAUDE_CONFIG_DIR (or with an empty or relative one)', () => {
		for (const env of [{}, { CLAUDE_CONFIG_DIR: '' }, { CLAUDE_CONFIG_DIR: '  ' }, { CLAUDE_CONFIG_DIR: 'relative/claude' }]) {
			assert.deepEqual(userMemoryFile(home, env), { path: join(home, '.claude', 'CLAUDE.md'), shown: '~/.claude/CLAUDE.md' }, JSON.stringify(env));
		}
	});

	it('is $CLAUDE_CONFIG_DIR/CLAUDE.md when that is set, shown from ~ inside the home folder and by the variable outside it', () => {
		assert.deepEqual(userMemoryFile(home, { CLAUDE_CONFIG_DIR: join(home, '.config', 'claude') }), { path: join(home, '.config', 'claude', 'CLAUDE.md'), shown: '~/.config/claude/CLAUDE.md' });
		assert.deepEqual(userMemoryFile(home, { CLAUDE_CONFIG_DIR: join('/', 'opt', 'claude') }), { path: join('/', 'opt', 'claude', 'CLAUDE.md'), shown: '$CLAUDE_CONFIG_DIR/CLAUDE.md' });
		assert.equal(userMemoryFile(home, { CLAUDE_CONFIG_DIR: join('/', 'home', 'ada-other') }).shown, '$CLAUDE_CONFIG_DIR/CLAUDE.md', 'a sibling folder is not under home');
	});
});

describe('userInstructionsRead: what the Restricted Mode notice names', () => {
	it('names the file when it exists and the CLAUDE.md kind is on', (t) => {
		const folder = tempWorkspace('aside-user-instructions-');
		t.after(() => {
			folder.dispose();
		});
		const file = userMemoryFile(folder.root, {});
		assert.deepEqual(userInstructionsRead(file, INSTRUCTION_KINDS), [], 'missing');
		mkdirSync(join(folder.root, '.claude'));
		writeFileSync(file.path, 'mine');
		assert.deepEqual(userInstructionsRead(file, INSTRUCTION_KINDS), ['~/.claude/CLAUDE.md']);
		assert.deepEqual(userInstructionsRead(file, ['AGENTS.md']), [], 'the kind is off');
	});
});
