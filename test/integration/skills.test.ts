// Skills in the real extension host: skill folders written into the workspace's `.aside/skills/`
// are picked up by VS Code's watcher (a malformed one reported and skipped); the first request of
// a new chat carries skills.catalog; a message with `$release` carries skill.attachment with the
// body of the skill it requires first, then release's own, and the user's text as typed; a Read
// of a file matching a skill's `paths` makes the next request carry skills.activated, once.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseReminders } from '../../src/reminders/envelope';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, until, useScriptedServer, workspaceFile } from './support';

const RELEASE = `---
name: release
description: Cut a release of this project.
---
First follow !$changelog.

Then tag the commit as vX.Y.Z and push the tag.
`;

const CHANGELOG = `---
name: changelog
description: Keep the changelog in order.
---
Every user-facing change gets a line under Unreleased.
`;

const PKG_RULES = `---
name: pkg-rules
description: Rules for the pkg folder.
paths:
  - "pkg/**/*.ts"
---
Code in pkg/ never imports from src/.
`;

const BROKEN = `---
name: Broken Skill
description: [unclosed
---
Never loads.
`;

/** The bodies of the blocks with `key` in a request (any message). */
function blocks(request: ReceivedRequest | undefined, key: string): string[] {
	return messagesOf(request).flatMap((message) => parseReminders(message.content ?? '').filter((block) => block.key === key).map((block) => block.body));
}

describe('skills in VS Code', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;
	const skillsDir = () => workspaceFile('.aside/skills').fsPath;
	const pkgDir = () => workspaceFile('pkg').fsPath;

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
	});

	after(async () => {
		rmSync(workspaceFile('.aside').fsPath, { recursive: true, force: true });
		rmSync(pkgDir(), { recursive: true, force: true });
		rmSync(join(homedir(), '.aside', 'skills'), { recursive: true, force: true });
		await restore();
		await server.close();
	});

	it('catalog at the first request, $release attaches its body after what it requires, a Read matching paths activates a skill once', async () => {
		const { api, hooks } = await activeAside();
		for (const [name, text] of [['release', RELEASE], ['changelog', CHANGELOG], ['pkg-rules', PKG_RULES], ['broken', BROKEN]] as const) {
			mkdirSync(join(skillsDir(), name), { recursive: true });
			writeFileSync(join(skillsDir(), name, 'SKILL.md'), text);
		}
		mkdirSync(pkgDir(), { recursive: true });
		writeFileSync(join(pkgDir(), 'a.ts'), 'export const a = 1;\n');
		const brokenPath = join(skillsDir(), 'broken', 'SKILL.md');
		const found = await until(
			() => hooks.skills(),
			({ names, problems }) => names.length === 3 && problems.some((problem) => problem.path === brokenPath),
			'the workspace watcher to pick up the skill folders',
		);
		assert.deepEqual(found.names, ['changelog', 'pkg-rules', 'release'], 'the malformed one is skipped, the others load');
		assert.match(found.problems.find((problem) => problem.path === brokenPath)?.message ?? '', /the frontmatter is not valid YAML/);

		await vscode.commands.executeCommand('aside.newChat');
		server.script(
			{ text: 'Releasing.' },
			{ toolCalls: [{ id: 'call_r1', name: 'Read', input: { path: 'pkg/a.ts' } }] },
			{ toolCalls: [{ id: 'call_r2', name: 'Read', input: { path: 'pkg/a.ts' } }] },
			{ text: 'Read it.' },
		);
		const start = chatRequests(server).length;
		const typed = 'Please do $release now (costs $5, see $HOME).';
		assert.equal((await api.sendMessage(typed)).outcome, 'done');
		const first = chatRequests(server)[start];
		const [catalog] = blocks(first, 'skills.catalog');
		assert.match(catalog ?? '', /^The skills of this workspace and the user:\n- changelog: Keep the changelog in order\. \(\.aside\/skills\/changelog\/SKILL\.md\)\n- pkg-rules: Rules for the pkg folder\. \(\.aside\/skills\/pkg-rules\/SKILL\.md\)\n- release: Cut a release of this project\. \(\.aside\/skills\/release\/SKILL\.md\)/);
		const attached = blocks(first, 'skill.attachment');
		assert.equal(attached.length, 2, attached.join('\n---\n'));
		assert.match(attached[0] ?? '', /^Skill `changelog` \(\.aside\/skills\/changelog\/SKILL\.md\), attached because `release` requires it\.[^\n]*\n\nEvery user-facing change gets a line under Unreleased\.$/);
		assert.match(attached[1] ?? '', /^Skill `release` \(\.aside\/skills\/release\/SKILL\.md\), attached because the message names `\$release`\.[^\n]*\n\nFirst follow !\$changelog\.\n\nThen tag the commit as vX\.Y\.Z and push the tag\.$/);
		assert.ok(messagesOf(first).some((message) => message.role === 'user' && message.content === typed), 'the user\'s text goes out as typed, untouched');
		const user = hooks.currentSessionItems().find((item) => item.kind === 'user');
		assert.equal(user?.kind === 'user' ? user.text : '', typed);

		const next = chatRequests(server).length;
		assert.equal((await api.sendMessage('Look at pkg/a.ts twice.')).outcome, 'done');
		const [, afterRead, afterSecondRead] = chatRequests(server).slice(next);
		const activated = blocks(afterRead, 'skills.activated');
		assert.equal(activated.length, 1);
		assert.match(activated[0] ?? '', /^Skill `pkg-rules` \(\.aside\/skills\/pkg-rules\/SKILL\.md\), activated because you read pkg\/a\.ts, which its paths cover\.[^\n]*\n\nCode in pkg\/ never imports from src\/\.$/);
		assert.equal(blocks(afterSecondRead, 'skills.activated').length, 1, 'once: only the first delivery, in the history');
		assert.deepEqual(blocks(afterRead, 'skill.attachment').length, 2, 'the attachments stay in the history, not sent again');
	});

	it('a skill written into the user folder ~/.aside/skills/, which did not exist when Aside started, is picked up and listed', async () => {
		const { api, hooks } = await activeAside();
		const userSkill = join(homedir(), '.aside', 'skills', 'commit');
		mkdirSync(userSkill, { recursive: true });
		writeFileSync(join(userSkill, 'SKILL.md'), '---\nname: commit\ndescription: Write the commit message.\n---\nOne line, then why.\n');
		await until(() => hooks.skills().names, (names) => names.includes('commit'), 'the user folder\'s watcher to pick up the new skill');
		server.script({ text: 'Noted.' });
		const start = chatRequests(server).length;
		assert.equal((await api.sendMessage('Anything new?')).outcome, 'done');
		const catalogs = blocks(chatRequests(server)[start], 'skills.catalog');
		assert.equal(catalogs.length, 2, 'the first turn\'s in the history, and the changed one');
		const catalog = catalogs.at(-1);
		assert.match(catalog ?? '', new RegExp(`- commit: Write the commit message\\. \\(${join(userSkill, 'SKILL.md').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)`));
		assert.match(catalog ?? '', /This replaces the earlier version of this section/, 'the whole list again, as a changed section');
	});
});
