// The sample workspace `npm start` opens: a copy of test/fixtures/workspace outside the clone and
// a git repository of its own, so nothing in it (Git, "Fork in a new git worktree", a tsconfig
// lookup) finds Aside's own repository above it. Made once and kept between runs, edits and all.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the sample lives: `$XDG_DATA_HOME/aside/sample-workspace` (`~/.local/share/…` by default). */
export function sampleWorkspaceFolder(env = process.env) {
	const dataHome = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(env.HOME || homedir(), '.local', 'share');
	return join(dataHome, 'aside', 'sample-workspace');
}

function git(folder, args) {
	// A fixed author: the person's git may have none configured, and the sample's history is not theirs.
	return spawnSync('git', ['-c', 'user.name=Aside sample', '-c', 'user.email=sample@aside.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: folder, encoding: 'utf8' });
}

/**
 * Copies `fixture` to the sample folder unless it is there, and makes it a repository with one
 * commit (without git installed it stays a plain folder). Returns the folder.
 */
export function ensureSampleWorkspace(fixture, { folder = sampleWorkspaceFolder(), log = (line) => console.log(line) } = {}) {
	if (!existsSync(folder)) {
		mkdirSync(folder, { recursive: true });
		cpSync(fixture, folder, { recursive: true });
		log(`Made the sample workspace ${folder}.`);
	}
	if (!existsSync(join(folder, '.git'))) {
		const steps = [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', 'The sample workspace']];
		for (const args of steps) {
			const result = git(folder, args);
			if (result.error || result.status !== 0) {
				log(`The sample workspace is not a git repository (git ${args[0]}: ${result.error?.message ?? result.stderr.trim()}).`);
				break;
			}
		}
	}
	return folder;
}
