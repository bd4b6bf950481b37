// Other agents' instruction files in the real extension host, on the scripted model server: a
// root CLAUDE.md is in the first request under workspace.instructions with its path; a
// .github/instructions/ts.instructions.md with `applyTo: "**/*.ts"` arrives after a Read of a .ts
// file, and not after a Read of a .md file.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, useScriptedServer, workspaceFile } from './support';

const CLAUDE_RULE = 'Claude rule: answer in haiku when asked for poetry.';
const TS_RULE = 'TypeScript rule: no any, ever.';

function write(relative: string, text: string): void {
	const path = workspaceFile(relative).fsPath;
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, text);
}

/** Every text of a request's messages, joined. */
function textOf(request: Parameters<typeof messagesOf>[0]): string {
	return messagesOf(request).map((message) => message.content ?? '').join('\n');
}

describe('instruction files of other agents', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		write('CLAUDE.md', `${CLAUDE_RULE}\n`);
		write('.github/instructions/ts.instructions.md', `---\napplyTo: "**/*.ts"\n---\n${TS_RULE}\n`);
		write('src/scoped/notes.md', '# Notes\n');
		write('src/scoped/code.ts', 'export const scoped = 1;\n');
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
		rmSync(workspaceFile('CLAUDE.md').fsPath, { force: true });
		rmSync(workspaceFile('.github').fsPath, { recursive: true, force: true });
		rmSync(workspaceFile('src/scoped').fsPath, { recursive: true, force: true });
	});

	it('the first request carries the root CLAUDE.md under workspace.instructions with its path; a .md Read brings no .instructions.md, a .ts Read does, once', async () => {
		const { api } = await activeAside();
		server.script(
			{ toolCalls: [{ id: 'call_md', name: 'Read', input: { path: 'src/scoped/notes.md' } }] },
			{ toolCalls: [{ id: 'call_ts', name: 'Read', input: { path: 'src/scoped/code.ts' } }] },
			{ toolCalls: [{ id: 'call_ts2', name: 'Read', input: { path: 'src/scoped/code.ts' } }] },
			{ text: 'Read them.' },
		);
		const before = chatRequests(server).length;
		assert.equal((await api.sendMessage('Look at src/scoped.')).outcome, 'done');
		const [first, afterMd, afterTs, afterTs2] = chatRequests(server).slice(before);
		assert.ok(first && afterMd && afterTs && afterTs2, 'four requests');

		const root = /<system-reminder key="workspace\.instructions">\n([\s\S]*?)\n<\/system-reminder>/.exec(textOf(first))?.[1] ?? '';
		assert.match(root, /^Project instructions from the workspace root\./);
		assert.ok(root.includes(`Contents of CLAUDE.md:\n\n${CLAUDE_RULE}`), root);
		assert.ok(!root.includes(TS_RULE), 'the path-scoped file is not a root instruction');
		assert.ok(!textOf(first).includes(TS_RULE), 'nor anywhere in the first request');

		assert.ok(!textOf(afterMd).includes(TS_RULE), 'a Read of a .md file does not bring the **/*.ts instructions');

		const lastOfTs = messagesOf(afterTs).at(-1)?.content ?? '';
		assert.match(lastOfTs, /<system-reminder key="workspace\.instructions">/);
		assert.ok(lastOfTs.includes('Contents of .github/instructions/ts.instructions.md (applies to the files matching **/*.ts):'), lastOfTs);
		assert.ok(lastOfTs.includes(TS_RULE), 'right after the Read of the .ts file');
		assert.ok(!lastOfTs.includes('applyTo'), 'without its frontmatter');

		assert.equal(textOf(afterTs2).split(TS_RULE).length - 1, 1, 'once, although the .ts file was read twice');
		assert.equal(textOf(afterTs2).split(CLAUDE_RULE).length - 1, 1, 'the CLAUDE.md once too');
	});

	it('aside.instructions.files without CLAUDE.md and .instructions.md: a new chat gets neither, at the start or after a .ts Read', async () => {
		const { api } = await activeAside();
		const aside = vscode.workspace.getConfiguration('aside');
		await aside.update('instructions.files', ['AGENTS.md'], vscode.ConfigurationTarget.Global);
		try {
			await vscode.commands.executeCommand('aside.newChat');
			server.script({ toolCalls: [{ id: 'call_ts_off', name: 'Read', input: { path: 'src/scoped/code.ts' } }] }, { text: 'Read it.' });
			const before = chatRequests(server).length;
			assert.equal((await api.sendMessage('Look at src/scoped/code.ts.')).outcome, 'done');
			const requests = chatRequests(server).slice(before);
			assert.equal(requests.length, 2);
			for (const request of requests) {
				assert.ok(!textOf(request).includes(CLAUDE_RULE), 'no CLAUDE.md');
				assert.ok(!textOf(request).includes(TS_RULE), 'no .instructions.md');
			}
		} finally {
			await aside.update('instructions.files', undefined, vscode.ConfigurationTarget.Global);
		}
	});
});
