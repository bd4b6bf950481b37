// After the window reload (a fresh extension host over the same storage, see
// test/harness/integration.mjs): the background process processes.test.ts left running in a chat of
// its own ended with the window, or is ended when the chat is opened again (its terminal's shell can
// outlive a window whose close never reached it) — nothing Aside started runs on unseen — and that
// chat's next request says so in session.recovery, naming it, once. Named to run after session.reload.test.ts,
// which needs its own chat to be the one the window reopened.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startModelServer } from '../harness/modelServer.mjs';
import { activeAside, reminderBodies as blocks, chatRequests, driver, hasDriver, messagesOf, PROCESSES_RELOAD_NOTE, PROCESSES_RELOAD_TITLE, until, useScriptedServer } from './support';

describe('after a window reload, the chat whose background process was running', function () {
	this.timeout(120_000);
	const notePath = join(process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp', PROCESSES_RELOAD_NOTE);
	const note = existsSync(notePath) ? (JSON.parse(readFileSync(notePath, 'utf8')) as { sessionId: string; beat: string; command: string }) : undefined;

	it('ends it if it outlived the window, and says in that chat\'s next request that it ended, naming it, once', async function () {
		if (!note || !hasDriver) {
			this.skip();
		}
		const { api, hooks } = await activeAside();
		const server = await startModelServer({ models: ['scripted-model'] });
		const restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model' });
		try {
			// For the log (host-reload.log): whether the window's close reached the terminal, or the reopened chat ends it.
			const before = statSync(note.beat).size;
			await new Promise((resolve) => setTimeout(resolve, 600));
			console.log(`Aside test: the heartbeat ${statSync(note.beat).size > before ? 'outlived the window' : 'ended with the window'}.`);
			await vscode.commands.executeCommand('aside.focusChat');
			await driver('openFromChatList', { title: PROCESSES_RELOAD_TITLE });
			await until(() => hooks.currentSessionId(), (current) => current === note.sessionId, 'the chat opened from the list');
			server.script({ text: 'I will start it again if it is needed.' }, { text: 'Nothing else.' });
			assert.equal((await api.sendMessage('Is the heartbeat still going?')).outcome, 'done');
			assert.equal((await api.sendMessage('And now?')).outcome, 'done');
			const [first, second] = chatRequests(server).map((request) => messagesOf(request).map((message) => message.content ?? '').join('\n'));
			const recovery = blocks(first ?? '', 'session.recovery');
			assert.equal(recovery.length, 1, first);
			// As sent: the envelope escapes the command's `>>`.
			const command = note.command.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
			assert.ok(recovery[0]?.includes(`were still running when VS Code closed or reloaded, and ended with it:\n- p1 \`${command}\` (started `), recovery[0]);
			assert.equal(blocks(second ?? '', 'session.recovery').length, 1, 'once: the second request only replays the first one\'s');
			const size = statSync(note.beat).size;
			await new Promise((resolve) => setTimeout(resolve, 1500));
			assert.equal(statSync(note.beat).size, size, 'the heartbeat stopped: nothing the chat started runs on unseen');
		} finally {
			await restore();
			await server.close();
		}
	});
});
