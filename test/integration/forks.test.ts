// Forks in the real extension host, with the scripted model and real git: Fork
// from here makes a chat whose first request carries the history up to the forked message's turn
// and session.fork; a worktree fork makes the worktree with real git (`git worktree list`), the
// chat's file in it, and its first request carries the restore report and session.fork.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, useScriptedServer } from './support';

const FORK_BLOCK = /<system-reminder key="session\.fork">\n([\s\S]*?)\n<\/system-reminder>/g;
const forkBlocksIn = (contents: readonly string[]): string[] => contents.flatMap((content) => [...content.matchAll(FORK_BLOCK)].map((match) => match[1] ?? ''));

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'Aside tests', GIT_AUTHOR_EMAIL: 'tests@example.invalid', GIT_COMMITTER_NAME: 'Aside tests', GIT_COMMITTER_EMAIL: 'tests@example.invalid' } }).trim();
}

function userRowIds(hooks: Awaited<ReturnType<typeof activeAside>>['hooks']): string[] {
	return hooks.currentSessionItems().filter((item) => item.kind === 'user' && item.agent === undefined).map((item) => item.id);
}

describe('forks', function () {
	it('Fork from here: a new chat whose first request carries the prefix history and session.fork; the source stays', async () => {
		const { api, hooks } = await activeAside();
		const server = await startModelServer({ models: ['scripted-model'] });
		const restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model' });
		try {
			await vscode.commands.executeCommand('aside.newChat');
			server.script({ text: 'The first answer.' }, { text: 'The second answer.' }, { text: 'Answered in the fork.' });
			assert.equal((await api.sendMessage('Plan the <b>first</b> step')).outcome, 'done');
			assert.equal((await api.sendMessage('Now the second step')).outcome, 'done');
			const source = hooks.currentSessionId();
			const [first] = userRowIds(hooks);
			assert.ok(first);

			assert.equal(await hooks.fork(first, false), undefined);
			assert.notEqual(hooks.currentSessionId(), source, 'the fork is current');
			const row = hooks.currentSessionItems()[0];
			assert.ok(row?.kind === 'fork', 'its first row says it is a fork');
			assert.deepEqual(row.source, { id: source, title: 'Plan the <b>first</b> step' });

			assert.equal((await api.sendMessage('Try it another way')).outcome, 'done');
			const contents = messagesOf(chatRequests(server).at(-1)).map((message) => message.content ?? '');
			const history = contents.join('\n');
			assert.match(history, /Plan the <b>first<\/b> step/);
			assert.match(history, /The first answer\./);
			assert.doesNotMatch(history, /second step|The second answer/, 'nothing after the forked turn');
			const blocks = forkBlocksIn(contents);
			assert.equal(blocks.length, 1, `one session.fork: ${JSON.stringify(blocks)}`);
			assert.match(blocks[0] ?? '', /This chat is a fork of the chat "Plan the &lt;b&gt;first&lt;\/b&gt; step"/);
		} finally {
			await restore();
			await server.close();
		}
	});

	it('a worktree fork makes the worktree with the chat\'s file, and its first request carries the restore report and session.fork', async () => {
		const { api, hooks } = await activeAside();
		const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
		assert.ok(workspace);
		// A repository of its own inside the workspace (removed after), so the agent's file is in it.
		const repo = join(workspace, 'fork-repo');
		const outside = realpathSync(mkdtempSync(join(tmpdir(), 'aside-fork-worktrees-')));
		const folder = join(outside, 'try-it');
		mkdirSync(repo, { recursive: true });
		writeFileSync(join(repo, 'base.txt'), 'in the base commit\n');
		git(repo, 'init', '-q', '-b', 'main');
		git(repo, 'add', '.');
		git(repo, 'commit', '-q', '-m', 'base');
		const base = git(repo, 'rev-parse', 'HEAD');
		const server = await startModelServer({ models: ['scripted-model'] });
		const restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'full-access' });
		try {
			await vscode.commands.executeCommand('aside.newChat');
			server.script({ toolCalls: [{ id: 'call_write', name: 'Write', input: { path: 'fork-repo/made.txt', content: 'made by the agent\n' } }] }, { text: 'Made it.' }, { text: 'Working in the worktree.' });
			assert.equal((await api.sendMessage('Make a file in the repository')).outcome, 'done');
			const [message] = userRowIds(hooks);
			assert.ok(message);

			assert.equal(await hooks.forkInWorktree(message, { root: repo, branch: 'aside/try-it', base: 'HEAD', folder }), undefined);
			assert.match(git(repo, 'worktree', 'list'), new RegExp(`${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +[0-9a-f]+ \\[aside/try-it\\]`), 'git knows the worktree');
			assert.equal(readFileSync(join(folder, 'base.txt'), 'utf8'), 'in the base commit\n');
			const kept = hooks.checkpointsKept();
			if (kept) {
				assert.equal(readFileSync(join(folder, 'made.txt'), 'utf8'), 'made by the agent\n', 'the chat\'s file, restored from the checkpoints');
				// The fork's own checkpoints, handed over with it: the worktree's file, so Restore there undoes the worktree's copy.
				const store = hooks.checkpoints();
				assert.ok(store);
				const entries = await store.entries(hooks.currentSessionId());
				assert.deepEqual(
					entries.map((entry) => [entry.path, entry.shown, entry.before]),
					[[join(folder, 'made.txt'), 'made.txt', null]],
				);
				assert.equal(await store.text(entries[0]?.after ?? ''), 'made by the agent\n');
			} else {
				assert.equal(existsSync(join(folder, 'made.txt')), false, 'without a checkpoint store, nothing to restore');
			}
			const items = hooks.currentSessionItems();
			assert.deepEqual(items[0]?.kind === 'fork' ? items[0].worktree : undefined, { folder, branch: 'aside/try-it', base });

			assert.equal((await api.sendMessage('Carry on in the worktree')).outcome, 'done');
			const contents = messagesOf(chatRequests(server).at(-1)).map((content) => content.content ?? '');
			const blocks = forkBlocksIn(contents).join('\n---\n');
			assert.match(blocks, new RegExp(`on the new branch aside/try-it, started from commit ${base}`), 'the provenance');
			assert.match(blocks, kept ? /1 file was restored:\n- made\.txt/ : /nothing was restored into it/, 'the restore report');

			assert.equal((await api.sendMessage('And then?')).outcome, 'done');
			const later = forkBlocksIn(messagesOf(chatRequests(server).at(-1)).map((content) => content.content ?? ''));
			assert.equal(later.length, 2, 'the report and the provenance stay in history; none is sent again');
		} finally {
			await restore();
			await server.close();
			try {
				git(repo, 'worktree', 'remove', '--force', folder);
			} catch {
				// Not made: nothing to remove.
			}
			rmSync(repo, { recursive: true, force: true });
			rmSync(outside, { recursive: true, force: true });
		}
	});
});
