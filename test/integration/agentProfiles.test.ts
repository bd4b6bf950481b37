// Agent profiles in the real extension host: a new chat's first request lists the built-in
// profiles (agents.listing); a profile file written into the workspace's `.aside/agents/` is
// picked up by VS Code's watcher and the next request carries only the delta naming it, while a
// malformed file beside it is reported in the Aside log, naming the file and the field; then one
// written into the user's `~/.claude/agents/` (HOME is the harness's scratch folder), which did
// not exist when Aside started, is picked up by the user folder's own watcher, the same way.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseReminders } from '../../src/reminders/envelope';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, type ChatReading, driver, hasDriver, lastUserText, until, useScriptedServer, workspaceFile } from './support';

function chatRequests(server: ModelServer): ReceivedRequest[] {
	return server.requests.filter((request) => request.path === '/v1/messages');
}

/** The agents.listing bodies a request added (its last user message). */
function listings(request: ReceivedRequest | undefined): string[] {
	return parseReminders(lastUserText(request))
		.filter((block) => block.key === 'agents.listing')
		.map((block) => block.body);
}

const REVIEWER = `---
name: reviewer
description: Reviews a change for bugs; read-only.
tools: Read, Grep, Glob
color: blue
---
You review code and report findings with paths and lines.
`;

const USER_PROFILE = `---
name: release-notes
description: Writes release notes from the git log.
tools: Bash, Read
model: sonnet
---
You write release notes.
`;

const BROKEN = `---
name: Broken Profile
description: [unclosed
---
Never loads.
`;

describe('agent profiles in VS Code', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;
	const agentsDir = () => workspaceFile('.aside/agents').fsPath;
	const userDir = join(homedir(), '.claude', 'agents');

	before(async () => {
		server = await startModelServer({ models: ['claude-scripted'] });
		restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', apiKey: 'sk-test-profiles' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		rmSync(workspaceFile('.aside').fsPath, { recursive: true, force: true });
		rmSync(join(homedir(), '.claude'), { recursive: true, force: true });
		await restore();
		await server.close();
	});

	it('the first request lists the built-ins; files written later come as the next request\'s delta; a malformed one is logged and skipped', async () => {
		const { api, hooks } = await activeAside();
		server.script({ text: 'Noted.' }, { text: 'Noted again.' }, { text: 'Noted once more.' }, { text: 'Still noted.' });
		const start = chatRequests(server).length;
		assert.equal((await api.sendMessage('Which agents can you start?')).outcome, 'done');
		const [full] = listings(chatRequests(server)[start]);
		assert.match(full ?? '', /^The agent profiles you can start:\n- explore: .+\n- general: .+\n- verify: .+\n\nStart one with the Agent tool/);

		mkdirSync(agentsDir(), { recursive: true });
		writeFileSync(join(agentsDir(), 'reviewer.md'), REVIEWER);
		writeFileSync(join(agentsDir(), 'broken.md'), BROKEN);
		const brokenPath = join(agentsDir(), 'broken.md');
		await until(
			() => hooks.agentProfiles(),
			({ names, problems }) => names.includes('reviewer') && problems.some((problem) => problem.path === brokenPath),
			'the workspace watcher to pick up the new profile files',
		);
		const next = chatRequests(server).length;
		assert.equal((await api.sendMessage('And now?')).outcome, 'done');
		assert.deepEqual(listings(chatRequests(server)[next]), [
			'The agent profiles changed since you were last told; the others are as they were.\n\n' +
				`Added:\n- reviewer: Reviews a change for bugs; read-only. (workspace profile ${join(agentsDir(), 'reviewer.md')})`,
		]);
		assert.deepEqual(hooks.agentProfiles().names, ['explore', 'general', 'verify', 'reviewer'], 'the others still load');

		// The user's folder did not exist when Aside started: its watcher waits for it above.
		mkdirSync(userDir, { recursive: true });
		writeFileSync(join(userDir, 'release-notes.md'), USER_PROFILE);
		await until(() => hooks.agentProfiles().names, (names) => names.includes('release-notes'), 'the user folder\'s watcher to pick up the new profile file');
		const then = chatRequests(server).length;
		assert.equal((await api.sendMessage('And now?')).outcome, 'done');
		assert.deepEqual(listings(chatRequests(server)[then]), [
			'The agent profiles changed since you were last told; the others are as they were.\n\n' +
				`Added:\n- release-notes: Writes release notes from the git log. (user profile ${join(userDir, 'release-notes.md')})`,
		]);

		const after = chatRequests(server).length;
		assert.equal((await api.sendMessage('Anything new?')).outcome, 'done');
		assert.deepEqual(listings(chatRequests(server)[after]), [], 'unchanged: no listing');

		// The log names the file and the field.
		await vscode.commands.executeCommand('aside.showLog');
		const log = await until(
			() => vscode.window.visibleTextEditors.find((editor) => editor.document.uri.scheme === 'output' && /Aside\.log$/.test(editor.document.uri.path))?.document.getText() ?? '',
			(text) => text.includes(`Agent profile ${brokenPath}: `),
			'the problem in the Aside log',
		);
		assert.match(log, new RegExp(`\\[warning\\] Agent profile ${brokenPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: the frontmatter is not valid YAML \\(line 3\\): .+ \\(the profile is skipped\\)`));
		await vscode.commands.executeCommand('workbench.action.closePanel');

		// And the chat says it, naming the file (it was raised while the view may not have been open).
		if (hasDriver) {
			await vscode.commands.executeCommand('aside.focusChat');
			const chat = await driver<ChatReading>('readChat');
			assert.ok(chat.notices.some((text) => text.includes(brokenPath) && text.includes('the profile is skipped')), `the chat's notices: ${JSON.stringify(chat.notices)}`);
		}
	});
});
