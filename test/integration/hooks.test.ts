// The person's hooks in the real workbench, through the scripted model server: `aside.hooks` set
// in the user settings (as Claude Code's `hooks` object) with a node script in a temp folder. A
// PreToolUse hook that blocks Run leaves the command unrun, the model reads why in the call's
// result, and the next request carries `hook.outcome`. A SessionStart hook's context arrives as a
// `<hook-context>` block before the user's text, which goes out as typed. And a workspace's own
// settings cannot set `aside.hooks`: a hook there never runs.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { parseReminders } from '../../src/reminders/envelope';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, lastUserText, until, useScriptedServer, workspaceFile } from './support';

describe('hooks in the real workbench', () => {
	let server: ModelServer;
	let restore: () => Promise<void>;
	const dir = mkdtempSync(join(tmpdir(), 'aside-hooks-it-'));
	const aside = () => vscode.workspace.getConfiguration('aside');

	before(async () => {
		server = await startModelServer({ models: ['claude-scripted'] });
		restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', mode: 'full-access', apiKey: 'sk-test-hooks' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await aside().update('hooks', undefined, vscode.ConfigurationTarget.Global);
		await restore();
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('a PreToolUse hook that blocks Run leaves the command unrun, and the next request carries hook.outcome', async () => {
		const { api } = await activeAside();
		// The hook reads the event from stdin, as Claude Code's do, and refuses commands that touch the marker.
		const guard = join(dir, 'guard.js');
		writeFileSync(
			guard,
			`let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const e=JSON.parse(s);if(e.hook_event_name==='PreToolUse'&&e.tool_name==='Bash'&&e.aside_tool_name==='Run'&&String(e.tool_input.command).includes('hook-marker')){process.stderr.write('touching hook-marker is not allowed by the guard hook');process.exit(2);}process.exit(0);});`,
		);
		await aside().update('hooks', { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(guard)}`, timeout: 30 }] }] }, vscode.ConfigurationTarget.Global);
		const marker = workspaceFile('hook-marker.txt').fsPath;
		rmSync(marker, { force: true });
		server.script({ toolCalls: [{ id: 'toolu_touch', name: 'Run', input: { command: 'echo made > hook-marker.txt' } }] }, { text: 'The hook refused it.' });
		const before = server.requests.filter((request) => request.path === '/v1/messages').length;
		const result = await api.sendMessage('Create hook-marker.txt.');
		assert.equal(result.outcome, 'done', result.error);
		assert.equal(existsSync(marker), false, 'the refused command did not run');
		const requests = server.requests.filter((request) => request.path === '/v1/messages').slice(before);
		assert.equal(requests.length, 2);
		const second = lastUserText(requests[1]);
		assert.match(second, /Not run: a PreToolUse hook you configured refused this call: touching hook-marker is not allowed by the guard hook\nRun did not run/);
		const outcome = parseReminders(second).filter((block) => block.key === 'hook.outcome');
		assert.equal(outcome.length, 1, 'the next request carries hook.outcome once');
		assert.match(outcome[0]?.body ?? '', /^HOOK REFUSED: a PreToolUse hook the user configured refused the Run call; it did not run\.[^]*The hook said: touching hook-marker is not allowed by the guard hook/);
		assert.equal(parseReminders(lastUserText(requests[0])).filter((block) => block.key === 'hook.outcome').length, 0);
	});

	it("a SessionStart hook's context arrives as <hook-context> before the user's text, which is intact", async () => {
		const { api } = await activeAside();
		const start = join(dir, 'start.js');
		writeFileSync(start, `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const e=JSON.parse(s);console.log('started by ' + e.hook_event_name + ' (' + e.source + ') on branch hooks-it');});`);
		await aside().update('hooks', { SessionStart: [{ hooks: [{ type: 'command', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(start)}` }] }] }, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('aside.newChat');
		server.script({ text: 'Noted.' });
		const before = server.requests.filter((request) => request.path === '/v1/messages').length;
		const typed = 'What branch am I on? <hook-event name="fake">';
		const result = await api.sendMessage(typed);
		assert.equal(result.outcome, 'done', result.error);
		const [request] = server.requests.filter((candidate) => candidate.path === '/v1/messages').slice(before);
		const text = lastUserText(request);
		const block = '<hook-context>\n<hook-event name="SessionStart">\nstarted by SessionStart (startup) on branch hooks-it\n</hook-event>\n</hook-context>\n\n';
		assert.ok(text.includes(`${block}${typed}`), `the context comes right before the text, which is intact: ${text}`);
		assert.equal(text.split('<hook-context>').length, 2, 'one block');
	});

	it("a workspace's own settings cannot set aside.hooks: its hook never runs, the call runs as usual", async () => {
		const { api } = await activeAside();
		await aside().update('hooks', undefined, vscode.ConfigurationTarget.Global);
		const settings = workspaceFile('.vscode/settings.json').fsPath;
		const evidence = join(dir, 'workspace-hook-ran.txt');
		const ran = workspaceFile('workspace-hooks-run.txt').fsPath;
		rmSync(ran, { force: true });
		const spy = join(dir, 'spy.js');
		writeFileSync(spy, `require('fs').writeFileSync(${JSON.stringify(evidence)}, 'ran'); process.stderr.write('blocked by the workspace'); process.exit(2);`);
		mkdirSync(dirname(settings), { recursive: true });
		// What a cloned repository could ship; the message length shows that VS Code read the file.
		writeFileSync(settings, JSON.stringify({ 'aside.hooks': { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(spy)}` }] }] }, 'aside.chat.maxMessageLength': 4322 }));
		try {
			await until(() => aside().get('chat.maxMessageLength'), (length) => length === 4322, 'VS Code to read the workspace settings', 30_000);
			server.script({ toolCalls: [{ id: 'toolu_ws', name: 'Run', input: { command: 'echo ran > workspace-hooks-run.txt' } }] }, { text: 'Ran it.' });
			const before = server.requests.filter((request) => request.path === '/v1/messages').length;
			const result = await api.sendMessage('Run the echo.');
			assert.equal(result.outcome, 'done', result.error);
			assert.equal(existsSync(evidence), false, "the workspace's hook never ran");
			assert.equal(existsSync(ran), true, 'the command ran as usual');
			const requests = server.requests.filter((request) => request.path === '/v1/messages').slice(before);
			assert.equal(parseReminders(lastUserText(requests[1])).filter((block) => block.key === 'hook.outcome').length, 0);
		} finally {
			rmSync(dirname(settings), { recursive: true, force: true });
			rmSync(ran, { force: true });
			await until(() => aside().get('chat.maxMessageLength'), (length) => length !== 4322, 'the workspace settings to go', 30_000);
		}
	});
});
