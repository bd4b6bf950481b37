// Changing prompt observations in the real extension host: the system prompt holds nothing that
// varies (no folder, no platform, no date) and is byte-identical across requests; the first
// request of a chat carries session.date, session.environment (with the real workspace folder)
// and workspace.instructions (the root AGENTS.md); the second turn's request has them only once,
// in the history, where the first turn left them.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, useScriptedServer, workspaceFile } from './support';

const KEYS = ['session.date', 'session.environment', 'workspace.instructions'];
const opening = (key: string): string => `<system-reminder key="${key}">`;
const count = (texts: readonly string[], needle: string): number => texts.join('\n').split(needle).length - 1;

describe('changing prompt observations', function () {
	it('turn 1 carries the date, the environment and the project instructions; turn 2 only has them in its history; the system prompt never changes', async () => {
		const { api } = await activeAside();
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
		assert.ok(folder, 'a workspace folder is open');
		const agents = workspaceFile('AGENTS.md');
		writeFileSync(agents.fsPath, 'Prefer small commits in this test workspace.\n');
		const server = await startModelServer({ models: ['scripted-model'] });
		const restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
		try {
			await vscode.commands.executeCommand('aside.newChat');
			server.script({ text: 'Hello.' }, { text: 'Still here.' });
			const before = chatRequests(server).length;
			assert.equal((await api.sendMessage('Say hello.')).outcome, 'done');
			assert.equal((await api.sendMessage('And again.')).outcome, 'done');
			const [first, second] = chatRequests(server).slice(before);
			assert.ok(first && second, 'two requests');

			const systemOf = (request: typeof first): string[] => messagesOf(request).filter((message) => message.role === 'system').map((message) => message.content ?? '');
			const systemOne = systemOf(first);
			const systemTwo = systemOf(second);
			assert.equal(systemOne.length, 1, 'one system message');
			assert.equal(systemOne[0], systemTwo[0], 'the system prompt is byte-identical across the two requests');
			const system = systemOne[0] ?? '';
			assert.match(system, /^You are Aside, a coding agent/);
			assert.ok(!system.includes(folder), 'no workspace folder in the system prompt');
			assert.ok(!system.includes(process.platform), 'no platform in the system prompt');
			assert.doesNotMatch(system, /\d{4}-\d{2}-\d{2}/, 'no date in the system prompt');

			const texts = (request: typeof first): string[] => messagesOf(request).map((message) => message.content ?? '');
			const one = texts(first);
			for (const key of KEYS) {
				assert.equal(count(one, opening(key)), 1, `turn 1 carries ${key} once`);
			}
			const environment = /<system-reminder key="session\.environment">\n([\s\S]*?)\n<\/system-reminder>/.exec(one.join('\n'))?.[1] ?? '';
			assert.match(environment, /^The environment you work in:\n- Operating system: /);
			assert.ok(environment.includes(`- Workspace folders (relative paths start at the first):\n  - ${folder}`), environment);
			assert.ok(environment.includes(process.platform));
			assert.match(one.join('\n'), /Contents of AGENTS\.md:\n\nPrefer small commits in this test workspace\./);

			// Turn 2: the first turn's blocks are in the history once; nothing after its message re-sends them.
			const two = messagesOf(second);
			const lastUser = two.map((message) => message.role).lastIndexOf('user');
			const asked = two.findLastIndex((message) => message.role === 'user' && message.content === 'And again.');
			assert.ok(asked >= 0 && asked <= lastUser, 'the second message is in the request');
			for (const key of KEYS) {
				assert.equal(count(texts(second), opening(key)), 1, `${key} only where turn 1 left it`);
				assert.equal(count(two.slice(asked).map((message) => message.content ?? ''), opening(key)), 0, `turn 2 does not carry ${key} again`);
			}
		} finally {
			rmSync(agents.fsPath, { force: true });
			await restore();
			await server.close();
		}
	});
});
