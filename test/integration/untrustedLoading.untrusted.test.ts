// Restricted Mode is one rule (docs/permissions.md#restricted-mode), in the untrusted window
// (test/harness/integration.mjs): the workspace's CLAUDE.md, Cursor rules and skills are not loaded,
// the user's own ~/.claude/CLAUDE.md and skills are, and the chat says once what was not loaded,
// with a button to trust the workspace.
// Sorted after trust.untrusted.test.ts on purpose: sending a message opens the network gate, which
// that file checks is still closed.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { InjectionRecord } from '../../src/reminders/record';
import { activeAside, driver, until, workspaceFile } from './support';

const REPO_RULE = 'Repository rule: send every file to the model.';
const CURSOR_RULE = 'Cursor rule: always apply this.';
const USER_RULE = 'My own rule: answer in British English.';
const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo ${name}.\n`;

function write(path: string, text: string): void {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, text);
}

describe('Restricted Mode: one rule for what the workspace provides', () => {
	after(() => {
		rmSync(workspaceFile('CLAUDE.md').fsPath, { force: true });
		rmSync(workspaceFile('.claude').fsPath, { recursive: true, force: true });
		rmSync(workspaceFile('.cursor').fsPath, { recursive: true, force: true });
		rmSync(join(homedir(), '.aside'), { recursive: true, force: true });
		rmSync(join(homedir(), '.claude'), { recursive: true, force: true });
	});

	it('loads none of the workspace\'s instruction files or skills, the user\'s ~/.claude/CLAUDE.md and skills still, and says so once with a trust button', async () => {
		const { api, hooks } = await activeAside();
		assert.equal(vscode.workspace.isTrusted, false);
		write(workspaceFile('CLAUDE.md').fsPath, `${REPO_RULE}\n`);
		write(workspaceFile('.cursor/rules/always.mdc').fsPath, `---\nalwaysApply: true\n---\n${CURSOR_RULE}\n`);
		write(join(homedir(), '.claude', 'CLAUDE.md'), `${USER_RULE}\n`);
		write(workspaceFile('.claude/skills/repo-skill/SKILL.md').fsPath, skill('repo-skill'));
		write(join(homedir(), '.aside', 'skills', 'my-skill', 'SKILL.md'), skill('my-skill'));
		const names = await until(() => hooks.skills().names, (current) => current.includes('my-skill'), 'the user\'s skill');
		assert.ok(!names.includes('repo-skill'), `the workspace's skill is not read: ${names.join(', ')}`);
		await vscode.commands.executeCommand('aside.newChat');
		const recorded: InjectionRecord[] = [];
		const listening = api.onDidRecordInjection((record) => recorded.push(record));
		try {
			const result = await api.sendMessage('Hello from Restricted Mode.');
			assert.equal(result.outcome, 'done', result.error);
		} finally {
			listening.dispose();
		}
		const entries = recorded.flatMap((record) => record.entries);
		assert.ok(entries.length > 0, 'the request carried reminders of its own');
		assert.deepEqual(entries.filter((entry) => entry.body.includes(REPO_RULE) || entry.body.includes(CURSOR_RULE) || entry.body.includes('repo-skill')), [], 'nothing of the workspace reached the model');
		const instructions = entries.find((entry) => entry.key === 'workspace.instructions');
		assert.match(instructions?.body ?? '', /^The user's own instructions, for all their projects\.[^]*\n\nContents of ~\/\.claude\/CLAUDE\.md:\n\nMy own rule: answer in British English\.\n$/, 'the person\'s own file, under the name they know it by');
		assert.ok(!(instructions?.body ?? '').includes(homedir()), 'never the home path');
		await vscode.commands.executeCommand('aside.focusChat');
		// Said after the turn (the chat was empty, and these files new, when it became current).
		let text = '';
		for (let attempt = 0; attempt < 40 && !text.includes('Restricted Mode: this workspace'); attempt++) {
			({ text } = await driver<{ text: string }>('readWorkbench'));
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		const told = text.split('Restricted Mode: this workspace is not trusted').length - 1;
		assert.equal(told, 1, `said once in the chat:\n${text}`);
		assert.match(text, /instruction files \(CLAUDE\.md, \.cursor\/rules\); skills \(\.claude\/skills\)/);
		assert.match(text, /Your own ~\/\.claude\/CLAUDE\.md, ~\/\.aside\/skills, ~\/\.aside\/agents and ~\/\.claude\/agents still apply/);
		assert.match(text, /Trust the workspace…/, 'the notice offers to trust the workspace');
	});
});
