// session.recovery in the real extension host: a Stop while a real Run command is running (a
// shell process in the workspace) leads to exactly one session.recovery on the next request,
// naming the command; the request after that carries no second one.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, until, useScriptedServer } from './support';

const BLOCK = /<system-reminder key="session\.recovery">\n([\s\S]*?)\n<\/system-reminder>/g;
const recoveriesIn = (contents: readonly string[]): string[] => contents.flatMap((content) => [...content.matchAll(BLOCK)].map((match) => match[1] ?? ''));

describe('session.recovery after a Stop', function () {
	it('a Stop during a Run: the next request carries exactly one session.recovery naming the command, the one after none more', async () => {
		const { api, hooks } = await activeAside();
		const server = await startModelServer({ models: ['scripted-model'] });
		// Full access: the command runs without a card, so the Stop catches it running.
		const restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'full-access' });
		try {
			await vscode.commands.executeCommand('aside.newChat');
			server.script({ toolCalls: [{ id: 'call_sleep', name: 'Run', input: { command: 'sleep 30' } }] }, { text: 'I will check what the command left.' }, { text: 'Nothing else.' });
			const sent = api.sendMessage('Wait for the build.');
			await until(() => hooks.agentStatus().detail, (detail) => detail === 'Running Run…', 'the command running');
			hooks.stop();
			assert.equal((await sent).outcome, 'interrupted');

			const before = chatRequests(server).length;
			assert.equal((await api.sendMessage('What state is it in?')).outcome, 'done');
			const next = messagesOf(chatRequests(server)[before]).map((message) => message.content ?? '');
			const found = recoveriesIn(next);
			assert.equal(found.length, 1, `exactly one session.recovery: ${JSON.stringify(found)}`);
			assert.match(found[0] ?? '', /^The user stopped the previous turn while work was still running\.\nThese tool calls were running and may have partial effects:\n- Run: sleep 30\nProcesses a command started may still be running\./);

			assert.equal((await api.sendMessage('And now?')).outcome, 'done');
			const after = messagesOf(chatRequests(server).at(-1)).map((message) => message.content ?? '');
			assert.equal(recoveriesIn(after).length, 1, 'the one delivered stays in history; no second one');
		} finally {
			await restore();
			await server.close();
		}
	});
});
