// edits.verify in the real extension host: the agent on the scripted model server (OpenAI-
// compatible, loopback) writes two new source files with the real Write tool in one turn, and
// the request after the second write carries the verification suggestion; the next turn's two
// writes do not get a second one (ten turns apart at most).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, useScriptedServer, workspaceFile } from './support';

const BLOCK = '<system-reminder key="edits.verify">';

/** How many edits.verify blocks the request's messages hold (a delivered one stays in the history). */
function blocks(request: ReceivedRequest): number {
	return messagesOf(request)
		.map((message) => message.content ?? '')
		.join('\n')
		.split(BLOCK).length - 1;
}

const FILES = ['src/verify-a.ts', 'src/verify-b.ts', 'src/verify-c.ts', 'src/verify-d.ts', 'docs-verify.md'];
const write = (id: string, path: string) => ({ toolCalls: [{ id, name: 'Write', input: { path, content: `export const name = '${path}';\n` } }] });

describe('the verification suggestion, in VS Code', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'auto-edit' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.files.saveAll');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		for (const file of FILES) {
			rmSync(workspaceFile(file).fsPath, { force: true });
		}
		await restore();
		await server.close();
	});

	it('two source files written in one turn: the request after the second write carries edits.verify, once; the next turn\'s writes get none', async () => {
		const { api } = await activeAside();
		server.script(write('call_doc', 'docs-verify.md'), write('call_a', 'src/verify-a.ts'), write('call_b', 'src/verify-b.ts'), { text: 'Both files are written.' });
		const before = chatRequests(server).length;
		const first = await api.sendMessage('Add verify-a and verify-b.');
		assert.equal(first.outcome, 'done', first.error);
		const turn = chatRequests(server).slice(before);
		assert.deepEqual(turn.map(blocks), [0, 0, 0, 1], 'a documentation file and one source file are not enough; the second source file is');
		const last = messagesOf(turn[3]).at(-1);
		assert.equal(last?.role, 'user');
		assert.match(last.content ?? '', /^<system-reminder key="edits\.verify">\nYou changed 2 implementation files in this turn: src\/verify-a\.ts, src\/verify-b\.ts\.\n\nBefore you report this work as done, verify it: run the tests/);

		server.script(write('call_c', 'src/verify-c.ts'), write('call_d', 'src/verify-d.ts'), { text: 'Two more.' });
		const next = chatRequests(server).length;
		const second = await api.sendMessage('Add verify-c and verify-d.');
		assert.equal(second.outcome, 'done', second.error);
		assert.deepEqual(chatRequests(server).slice(next).map(blocks), [1, 1, 1], 'the delivered one stays in the history; no second one within ten turns');
	});
});
