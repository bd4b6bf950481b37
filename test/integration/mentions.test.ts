// @-mentions end to end in the real extension host: messages sent through the API (as
// aside.sendMessage sends them), expanded by the real adapters — the workspace's files, and
// `@changes` through the built-in Git extension over a real repository — onto the payloads the
// scripted model server received.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import type { TranscriptItem } from '../../src/protocol/messages';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, messagesOf, until, useScriptedServer, workspaceFile } from './support';

/** Everything the model was sent in one request, messages joined. */
function payload(request: ReceivedRequest | undefined): string {
	return messagesOf(request).map((message) => message.content ?? '').join('\n');
}

/** The bodies of the `key` blocks in the request's last message. */
function blocks(request: ReceivedRequest | undefined, key: string): string[] {
	const last = messagesOf(request).at(-1)?.content ?? '';
	const open = `<system-reminder key="${key}">\n`;
	return last.split(open).slice(1).map((part) => part.slice(0, part.indexOf('\n</system-reminder>')));
}

/** The git processes this extension host has running: the Git extension's, spawned from here. */
function gitChildren(): number {
	let running = 0;
	for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		try {
			// `pid (comm) state ppid …`; comm may hold spaces or parentheses, so read from the last ')'.
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
			const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			running += ppid === process.pid && comm === 'git' ? 1 : 0;
		} catch {
			// The process ended while being read.
		}
	}
	return running;
}

describe('@-mentions, with a scripted model server', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
	});

	it('@ in the composer lists the workspace\'s files; the chosen one is sent as typed and attached as mention.file', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
		server.script({ text: 'Picked.' });
		const ended = waitForEvent(hooks.onDidAppend, (items: readonly TranscriptItem[]) => items.some((item) => item.kind === 'turn-end'), 60_000, 'the end of the turn');
		const picked = await driver<{ options: string[]; value: string }>('mentionInChat', { typed: 'Explain @greet', pick: 'src/greeting.ts' });
		await ended;
		assert.ok(picked.options.includes('src/greeting.ts'), picked.options.join(', '));
		assert.equal(picked.value, 'Explain @src/greeting.ts ', 'the chosen mention is inserted as text');
		const request = chatRequests(server).at(-1);
		assert.equal(messagesOf(request).at(-2)?.content, 'Explain @src/greeting.ts ', 'sent as it stands in the box');
		assert.equal(blocks(request, 'mention.file').length, 1);
		assert.match(blocks(request, 'mention.file')[0] ?? '', /^The user mentioned src\/greeting\.ts \(lines 1–/);
		// The user row shows it as a chip, settled from the recorded request; Enter on it opens the file.
		const row = await driver<{ text: string; chips: { label: string; state: string; name: string; tag: string }[] }>('readUserRow', { waitForState: 'attached', press: 'src/greeting.ts' });
		assert.equal(row.text, 'Explain @src/greeting.ts ', 'the text as typed');
		assert.deepEqual(row.chips, [{ label: 'src/greeting.ts', state: 'attached', name: 'File src/greeting.ts: attached', tag: 'button' }]);
		await until(() => vscode.window.activeTextEditor?.document.uri.fsPath, (path) => path === workspaceFile('src/greeting.ts').fsPath, 'the chip to open the file');
		await vscode.commands.executeCommand('aside.newChat');
	});

	it('@file attaches the file once as mention.file, the text as typed; a second mention of the unchanged file says it is already in context', async () => {
		const { api } = await activeAside();
		const content = readFileSync(workspaceFile('src/greeting.ts').fsPath, 'utf8');
		const line = content.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
		server.script({ text: 'I see it.' }, { text: 'Same file.' });
		const before = chatRequests(server).length;
		assert.equal((await api.sendMessage('What does @src/greeting.ts do?')).outcome, 'done');
		const first = chatRequests(server).at(-1);
		const [attached, ...more] = blocks(first, 'mention.file');
		assert.equal(more.length, 0, 'one mention.file entry');
		assert.match(attached ?? '', /^The user mentioned src\/greeting\.ts \(lines 1–\d+ of \d+\)\. Its content, as of this message:/);
		assert.ok((attached ?? '').includes(line), 'with the file\'s content');
		const messages = messagesOf(first);
		assert.equal(messages.at(-2)?.content, 'What does @src/greeting.ts do?', 'the message as typed, before its reminders');
		assert.ok((messages.at(-1)?.content ?? '').startsWith('<system-reminder key="mention.file">'), 'the mention stage comes first');

		assert.equal((await api.sendMessage('And @src/greeting.ts once more?')).outcome, 'done');
		const second = chatRequests(server).at(-1);
		assert.equal(chatRequests(server).length, before + 2);
		assert.deepEqual(blocks(second, 'mention.file'), ['The user mentioned src/greeting.ts again. It is already in context, unchanged, from an earlier message of this chat; it is not attached again.']);
		assert.equal(payload(second).split(line).length - 1, 1, 'the content is in the payload once, from the first message');
	});

	it('@changes says when Git is off or there is no repository, and attaches the uncommitted diff of a real git repository', async () => {
		const { api } = await activeAside();
		const root = workspaceFile('.').fsPath;
		const file = join(root, 'src', 'greeting.ts');
		const original = readFileSync(file, 'utf8');
		server.script({ text: 'Git is off.' }, { text: 'No repo.' }, { text: 'I see the diff.' });
		// The harness's user settings turn the built-in Git extension off (git.enabled: false).
		assert.equal((await api.sendMessage('Review @changes')).outcome, 'done');
		assert.deepEqual(blocks(chatRequests(server).at(-1), 'mention.changes'), ['The user mentioned @changes, but there is no diff to attach: the built-in Git extension is disabled (git.enabled is off).']);
		const gitSettings = vscode.workspace.getConfiguration('git');
		const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Aside Test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'pipe' });
		type GitExports = { readonly enabled: boolean; getAPI(version: 1): { readonly repositories: readonly unknown[] } };
		let exports: GitExports | undefined;
		try {
			await gitSettings.update('enabled', true, vscode.ConfigurationTarget.Global);
			const extension = vscode.extensions.getExtension<GitExports>('vscode.git');
			assert.ok(extension, 'the built-in Git extension is there');
			exports = extension.isActive ? extension.exports : await extension.activate();
			const gitExtension = exports;
			await until(() => gitExtension.enabled, (enabled) => enabled, 'the Git extension to turn on');
			assert.equal((await api.sendMessage('Review @changes again')).outcome, 'done');
			assert.deepEqual(blocks(chatRequests(server).at(-1), 'mention.changes').map((body) => body.replace(/\(.*\)\.$/, '(…).')), ['The user mentioned @changes, but there is no diff to attach: no git repository holds the workspace folders (…).']);
			git('init', '-q');
			git('add', '-A');
			git('commit', '-q', '-m', 'fixture');
			writeFileSync(file, `${original}// a change the model should see\n`);
			writeFileSync(join(root, 'untracked-note.md'), 'new\n');
			assert.equal((await api.sendMessage('Review @changes now')).outcome, 'done');
			const [body, ...rest] = blocks(chatRequests(server).at(-1), 'mention.changes');
			assert.equal(rest.length, 0);
			assert.match(body ?? '', /^The user mentioned @changes\.\n\nUncommitted changes in \. \(staged, then unstaged\):/);
			assert.match(body ?? '', /^\+\/\/ a change the model should see$/m, 'the diff of the modified file');
			assert.match(body ?? '', /Untracked files \(not in the diff\): untracked-note\.md/);
		} finally {
			// Git off first, and its repository closed, before the repository goes: a Git extension
			// still watching it runs `git check-ignore --stdin` on the files put back below, that git
			// exits at once without its .git, and the extension's write to its stdin fails (EPIPE)
			// uncaught in this extension host. Back to the harness's quiet setting (removing the key
			// would leave Git on); turning it off closes the open repositories.
			await gitSettings.update('enabled', false, vscode.ConfigurationTarget.Global);
			if (exports?.enabled) {
				const gitApi = exports.getAPI(1);
				await until(() => gitApi.repositories.length, (open) => open === 0, 'the Git extension to close the repository');
				// A closed repository still runs what was batched for it: the Git extension's file
				// decorations gather paths for 500 ms, then spawn one check-ignore. A timer set now is
				// due later than that batch's, so it fires after the batch spawned its git; then wait
				// for the extension's git processes to end before the repository goes.
				await new Promise((resolve) => setTimeout(resolve, 600));
				await until(gitChildren, (running) => running === 0, 'the Git extension\'s git processes to end');
			}
			writeFileSync(file, original);
			rmSync(join(root, 'untracked-note.md'), { force: true });
			rmSync(join(root, '.git'), { recursive: true, force: true });
		}
	});
});
