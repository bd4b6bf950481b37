// Reviewing a change in VS Code's own diff editor, end to end: the agent on the scripted model
// server (OpenAI-compatible, loopback) in ask mode proposes an Edit; it opens in the diff editor,
// the test changes the proposed side there as the person typing would (a WorkspaceEdit on that
// document), allows it from the title-bar command, and the person's text is on disk and the next
// request carries patch.user-revised once. The diff editor's tab and sides are named by the
// file's own name and workspace-relative path, never by a folder of the extension's storage. An ApplyPatch over two files is reviewed in the
// multi-diff editor and applied as one decision; a review whose diff editor is closed stays
// pending until Stop rejects it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, until, useScriptedServer, workspaceFile } from './support';

interface OpenAIMessage {
	readonly role: string;
	readonly content?: string | null;
}

const folder = () => workspaceFile('review-scratch').fsPath;
const rel = (name: string) => `review-scratch/${name}`;
const BLOCK = '<system-reminder key="patch.user-revised">';

function lastMessage(request: ReceivedRequest | undefined): string {
	const messages = ((request?.body ?? {}) as { messages?: OpenAIMessage[] }).messages ?? [];
	return messages.at(-1)?.content ?? '';
}

/** The diff editors open now, by their proposed (right) side. */
function diffTabs(): vscode.TabInputTextDiff[] {
	return vscode.window.tabGroups.all.flatMap((group) => group.tabs.flatMap((tab) => (tab.input instanceof vscode.TabInputTextDiff ? [tab.input] : [])));
}

const read = (id: string, path: string) => ({ id, name: 'Read', input: { path } });

describe('reviewing a change in the diff editor', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		mkdirSync(folder(), { recursive: true });
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.files.saveAll');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(folder(), { recursive: true, force: true });
		await restore();
		await server.close();
	});

	it('an Edit changed in the diff editor and accepted from its title bar leaves the changed text on disk, and the next request carries patch.user-revised once', async () => {
		const { api, hooks } = await activeAside();
		const file = join(folder(), 'revise.ts');
		writeFileSync(file, 'export const answer = 1;\n');
		server.script(
			{ toolCalls: [read('call_read', rel('revise.ts'))] },
			{ toolCalls: [{ id: 'call_edit', name: 'Edit', input: { path: rel('revise.ts'), old_string: 'answer = 1', new_string: 'answer = 2' } }] },
			{ text: 'Changed.' },
			{ text: 'Noted.' },
		);
		const before = chatRequests(server).length;
		const sent = api.sendMessage('Change the answer.');
		await until(() => hooks.pendingApproval(), (id) => id === 'call_edit', 'the review card');
		const review = await until(() => hooks.openReview(), (open) => open?.callId === 'call_edit', 'the review in the diff editor');
		const [proposed] = review?.proposed ?? [];
		assert.ok(proposed, 'the proposed side is a document');
		assert.equal(proposed.getText(), 'export const answer = 2;\n');
		assert.notEqual(proposed.uri.fsPath, file, 'the proposed side is never the workspace file');
		assert.equal(proposed.uri.scheme, 'aside-review', 'Aside\'s own scheme, not a file in its storage');
		assert.equal(proposed.uri.path, '/review-scratch/revise.ts', 'named by the workspace-relative path: the breadcrumb shows review-scratch › revise.ts');
		assert.equal(proposed.languageId, 'typescript', 'the file\'s own name keeps its language');
		const tab = await until(diffTabs, (tabs) => tabs.some((input) => input.modified.toString() === proposed.uri.toString()), 'the diff editor');
		const opened = tab.find((input) => input.modified.toString() === proposed.uri.toString());
		assert.equal(opened?.original.fsPath, file, 'the left side is the file as it is now');
		const label = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find(
			(candidate) => candidate.input instanceof vscode.TabInputTextDiff && candidate.input.modified.toString() === proposed.uri.toString(),
		)?.label;
		assert.equal(label, 'revise.ts ↔ revise.ts (proposed by Edit)', 'the tab names the file');
		assert.doesNotMatch(JSON.stringify(vscode.workspace.textDocuments.map((document) => document.uri.toString())), /\/reviews\//, 'no document of the review lives in the storage folder');

		// The person types their own version on the proposed side.
		const edit = new vscode.WorkspaceEdit();
		edit.replace(proposed.uri, new vscode.Range(0, 0, proposed.lineCount, 0), 'export const answer = 42; // the person\'s\n');
		assert.ok(await vscode.workspace.applyEdit(edit));
		if (hasDriver) {
			// The README's picture: the card in the chat, the diff editor beside it with the person's text.
			await vscode.commands.executeCommand('workbench.action.closePanel');
			await driver('readChat', { waitForText: 'Change the answer.' });
			await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/review-diff.png` });
			// The person clicks Allow in the diff editor's title bar.
			await driver('clickEditorAction', { label: 'Allow Change' });
		} else {
			await vscode.commands.executeCommand('aside.review.allow');
		}
		const result = await sent;
		assert.equal(result.outcome, 'done', result.error);

		assert.equal(readFileSync(file, 'utf8'), 'export const answer = 42; // the person\'s\n', 'what was applied is the person\'s text');
		assert.equal(hooks.openReview(), undefined, 'the review closed');
		assert.equal(diffTabs().filter((input) => input.modified.toString() === proposed.uri.toString()).length, 0, 'its diff editor closed');
		const turn = chatRequests(server).slice(before);
		assert.equal(turn.length, 3);
		const afterEdit = lastMessage(turn[2]);
		assert.equal(afterEdit.split(BLOCK).length - 1, 1, afterEdit);
		assert.match(afterEdit, /The user revised your proposed Edit of review-scratch\/revise\.ts in the diff editor before accepting it\.\nWhat was applied is the user's text/);
		const toolMessage = (((turn[2]?.body ?? {}) as { messages?: OpenAIMessage[] }).messages ?? []).find((message) => message.role === 'tool' && (message.content ?? '').includes('Edited review-scratch/revise.ts'));
		assert.match(toolMessage?.content ?? '', /The user revised your proposed text of review-scratch\/revise\.ts[^]*-export const answer = 2;\n\+export const answer = 42; \/\/ the person's/);

		const next = await api.sendMessage('Thanks.');
		assert.equal(next.outcome, 'done', next.error);
		assert.doesNotMatch(lastMessage(chatRequests(server).at(-1)), /patch\.user-revised/, 'one-shot: the next turn carries none');
	});

	it('an ApplyPatch over two files is reviewed and applied as one decision', async () => {
		const { api, hooks } = await activeAside();
		writeFileSync(join(folder(), 'one.ts'), 'export const one = 1;\n');
		writeFileSync(join(folder(), 'two.ts'), 'export const two = 2;\n');
		const patch = [
			'*** Begin Patch',
			`*** Update File: ${rel('one.ts')}`,
			'@@',
			'-export const one = 1;',
			'+export const one = 11;',
			`*** Add File: ${rel('three.ts')}`,
			'+export const three = 3;',
			`*** Update File: ${rel('two.ts')}`,
			'@@',
			'-export const two = 2;',
			'+export const two = 22;',
			'*** End Patch',
		].join('\n');
		server.script({ toolCalls: [read('call_r1', rel('one.ts')), read('call_r2', rel('two.ts'))] }, { toolCalls: [{ id: 'call_patch', name: 'ApplyPatch', input: { patch } }] }, { text: 'Patched.' });
		const sent = api.sendMessage('Patch both.');
		const review = await until(() => hooks.openReview(), (open) => open?.callId === 'call_patch', 'the review of the patch');
		assert.deepEqual(review?.proposed.map((document) => document?.getText()), ['export const one = 11;\n', 'export const three = 3;\n', 'export const two = 22;\n'], 'every file before the one decision');
		const labels = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => `${tab.label} [${tab.input?.constructor.name ?? 'none'}]`));
		await until(labels, (now) => now.some((label) => label.startsWith('Review: Apply a patch to 3 files')), 'the multi-diff editor with every file').catch((error: unknown) => {
			hooks.stop();
			throw new Error(`${String(error)}; tabs: ${JSON.stringify(labels())}`);
		});
		assert.equal(readFileSync(join(folder(), 'one.ts'), 'utf8'), 'export const one = 1;\n', 'nothing is written before the decision');
		if (hasDriver) {
			await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/review-patch.png` });
		}
		// The command's id from when it said Accept still decides, for keyboard shortcuts bound to it.
		await vscode.commands.executeCommand('aside.review.accept');
		const result = await sent;
		assert.equal(result.outcome, 'done', result.error);
		assert.deepEqual(
			['one.ts', 'two.ts', 'three.ts'].map((name) => readFileSync(join(folder(), name), 'utf8')),
			['export const one = 11;\n', 'export const two = 22;\n', 'export const three = 3;\n'],
		);
		assert.equal(hooks.openReview(), undefined);
		assert.deepEqual(labels().filter((label) => label.startsWith('Review: ')), [], 'the multi-diff editor closed');
	});

	it('a file changed on disk while its review is open is never written over: Allow is refused with a clear message in the chat', async () => {
		const { api, hooks } = await activeAside();
		const file = join(folder(), 'stale.ts');
		writeFileSync(file, 'export const stale = 1;\n');
		server.script(
			{ toolCalls: [read('call_read_stale', rel('stale.ts'))] },
			{ toolCalls: [{ id: 'call_stale', name: 'Edit', input: { path: rel('stale.ts'), old_string: 'stale = 1', new_string: 'stale = 2' } }] },
			{ text: 'I will read it again.' },
		);
		const sent = api.sendMessage('Change stale.ts.');
		await until(() => hooks.openReview(), (open) => open?.callId === 'call_stale', 'the review of the Edit');
		// Someone else saves a newer version while the person looks at the diff.
		await vscode.workspace.fs.writeFile(vscode.Uri.file(file), new TextEncoder().encode('export const stale = 99;\n'));
		await until(() => vscode.workspace.textDocuments.find((document) => document.uri.fsPath === file)?.getText(), (text) => text === undefined || text.includes('99'), 'the editor to see the newer text');
		hooks.approve('call_stale', true);
		const result = await sent;
		assert.equal(result.outcome, 'done', result.error);
		assert.equal(readFileSync(file, 'utf8'), 'export const stale = 99;\n', 'the newer text is kept');
		const items = hooks.currentSessionItems();
		assert.ok(JSON.stringify(items).includes('stale.ts changed since you last read it (in the editor or on disk), so the edit was not made and nothing was written. Read it again, then make the edit against its current text. It changed while the review of this change was open'), 'the chat says why nothing was written');
	});

	it('closing the diff editor decides nothing: the review stays pending until Stop rejects it, and nothing is written', async () => {
		const { api, hooks } = await activeAside();
		server.script({ toolCalls: [{ id: 'call_write', name: 'Write', input: { path: rel('never.ts'), content: 'export const never = true;\n' } }] }, { text: 'unused' });
		const sent = api.sendMessage('Write never.ts.');
		await until(() => hooks.openReview(), (open) => open?.callId === 'call_write', 'the review of the Write');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		assert.equal(hooks.pendingApproval(), 'call_write', 'still waiting for the person');
		assert.equal(hooks.openReview()?.callId, 'call_write');
		hooks.stop();
		const result = await sent;
		assert.equal(result.outcome, 'interrupted');
		assert.equal(existsSync(join(folder(), 'never.ts')), false);
		assert.equal(hooks.openReview(), undefined, 'Stop closed the review');
	});
});
