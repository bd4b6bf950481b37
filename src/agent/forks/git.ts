// The git CLI, as a worktree fork needs it (docs/forks.md): real git, never the Git
// extension. Each call runs `git -C <dir> …` without a shell, asks nothing on a terminal, and turns
// a failure into a GitError carrying git's own words (its first lines of stderr).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

export class GitError extends Error {
	override readonly name = 'GitError';
}

const MAX_OUTPUT = 4 * 1024 * 1024;

/** Runs git in `dir`; resolves with its stdout, trimmed at the end. */
export function git(dir: string, args: readonly string[], signal?: AbortSignal): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile(
			'git',
			['-C', dir, ...args],
			{ maxBuffer: MAX_OUTPUT, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' }, windowsHide: true, ...(signal ? { signal } : {}) },
			(error, stdout, stderr) => {
				if (error) {
					const said = stderr.trim().split('\n').slice(0, 4).join(' ').trim();
					const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
					reject(new GitError(missing ? 'git is not installed (or not on the PATH).' : said || error.message));
					return;
				}
				resolve(stdout.replace(/\s+$/, ''));
			},
		);
	});
}

/** The top folder of the repository `folder` is in, or undefined when it is in none (or git is missing). */
export async function repositoryRoot(folder: string): Promise<string | undefined> {
	if (!existsSync(folder)) {
		return undefined;
	}
	try {
		const root = await git(folder, ['rev-parse', '--show-toplevel']);
		return root === '' ? undefined : root;
	} catch {
		return undefined;
	}
}

/** Why `name` cannot be a new branch of the repository at `root`, or undefined when it can. */
export async function branchProblem(root: string, name: string): Promise<string | undefined> {
	if (name.trim() === '') {
		return 'Name the new branch.';
	}
	try {
		await git(root, ['check-ref-format', '--branch', name]);
	} catch {
		return `"${name}" is not a valid branch name (git check-ref-format --branch).`;
	}
	try {
		await git(root, ['show-ref', '--verify', '--quiet', `refs/heads/${name}`]);
		return `A branch "${name}" exists already: choose a new name.`;
	} catch {
		return undefined;
	}
}

/** The commit `revision` names in the repository at `root` (its full hash); throws GitError when it names none. */
export async function commitOf(root: string, revision: string): Promise<string> {
	try {
		return await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`]);
	} catch {
		throw new GitError(`"${revision}" names no commit in ${root}.`);
	}
}

/** A commit or branch to start a worktree from. */
export interface BaseChoice {
	readonly revision: string;
	readonly label: string;
	readonly detail: string;
}

/** HEAD, then the local branches most recently committed to, then the latest commits of HEAD. */
export async function recentBases(root: string, count = 15): Promise<BaseChoice[]> {
	const bases: BaseChoice[] = [];
	const head = await git(root, ['log', '-1', '--format=%h %s']).catch(() => '');
	bases.push({ revision: 'HEAD', label: 'HEAD', detail: head });
	const branches = await git(root, ['for-each-ref', '--sort=-committerdate', `--count=${count}`, '--format=%(refname:short)%09%(objectname:short) %(contents:subject)', 'refs/heads/']).catch(() => '');
	for (const line of branches.split('\n').filter((entry) => entry !== '')) {
		const [name = '', detail = ''] = line.split('\t');
		bases.push({ revision: name, label: name, detail });
	}
	const commits = await git(root, ['log', `-${count}`, '--format=%H%x09%h %s']).catch(() => '');
	for (const line of commits.split('\n').filter((entry) => entry !== '')) {
		const [hash = '', detail = ''] = line.split('\t');
		bases.push({ revision: hash, label: detail.split(' ', 1)[0] ?? hash, detail });
	}
	return bases;
}

/**
 * `git worktree add -b <branch> <folder> <base>`. Refuses a folder that exists. Leaves nothing
 * half made: when git fails, whatever it made (the folder, the branch, the worktree entry) is
 * taken back before the error is thrown.
 */
export async function addWorktree(root: string, branch: string, folder: string, base: string): Promise<void> {
	if (existsSync(folder)) {
		throw new GitError(`The folder ${folder} exists already: choose another one.`);
	}
	const problem = await branchProblem(root, branch);
	if (problem !== undefined) {
		throw new GitError(problem);
	}
	try {
		await git(root, ['worktree', 'add', '-b', branch, '--end-of-options', folder, base]);
	} catch (error) {
		await git(root, ['worktree', 'remove', '--force', '--end-of-options', folder]).catch(() => undefined);
		await git(root, ['worktree', 'prune']).catch(() => undefined);
		if (!existsSync(folder)) {
			// The branch did not exist before this call (checked above): if it does now, git made it.
			await git(root, ['branch', '-D', '--end-of-options', branch]).catch(() => undefined);
		}
		throw error;
	}
}

/** Takes back a worktree this fork made, and its branch (a later step failed); never throws. */
export async function removeWorktree(root: string, folder: string, branch: string): Promise<void> {
	await git(root, ['worktree', 'remove', '--force', '--end-of-options', folder]).catch(() => undefined);
	await git(root, ['worktree', 'prune']).catch(() => undefined);
	await git(root, ['branch', '-D', '--end-of-options', branch]).catch(() => undefined);
}
