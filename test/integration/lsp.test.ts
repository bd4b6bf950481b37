// The LSP tool in real VS Code with the built-in TypeScript extension, on the fixture workspace's
// src/lsp/ (three files that use one function, and an Ini file no extension serves): every read
// operation through the agent on the scripted model server, the answers as the model reads them;
// a rename across the three files reviewed in the diff editor as one decision, rejected (nothing
// changes) and accepted (all three change, a checkpoint keeps their old text, and the observers
// know the files as Aside's writes).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { diagnosticCodeText } from '../../src/observe/diagnostics';
import type { AsideTestHooks } from '../../src/vscode/testHooks';
import { vscodeLanguageFeatures } from '../../src/vscode/languageFeatures';
import { activeAside, chatRequests, messagesOf, toolResult, until, useScriptedServer, workspaceFile } from './support';

const FILES = ['shapes.ts', 'measure.ts', 'report.ts'] as const;
const file = (name: string) => workspaceFile(`src/lsp/${name}`).fsPath;
const lsp = (id: string, input: Record<string, unknown>) => ({ id, name: 'LSP', input });

/** Polls an async condition (TypeScript's server loads the project first); never a fixed sleep. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 100_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value)) {
			return value;
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** The review of call `id`, or a failure with what the call answered when the turn ended without one. */
async function reviewOf(hooks: AsideTestHooks, sent: Promise<unknown>, id: string) {
	let ended: unknown;
	void sent.then((value) => {
		ended = value ?? 'ended';
	});
	const review = await until(() => (ended !== undefined ? 'ended' : hooks.openReview()), (open) => open === 'ended' || open?.callId === id, 'the review of the rename');
	if (review === 'ended') {
		const call = JSON.stringify(hooks.currentSessionItems().filter((item) => 'callId' in item && item.callId === id));
		assert.fail(`the turn ended without a review (${JSON.stringify(ended)}); the call: ${call}`);
	}
	return review;
}

describe('the LSP tool (built-in TypeScript extension)', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;
	const originals = new Map<string, string>();

	before(async function () {
		this.timeout(240_000);
		for (const name of FILES) {
			originals.set(name, readFileSync(file(name), 'utf8'));
		}
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
		await vscode.commands.executeCommand('aside.newChat');
		// TypeScript answers once it has loaded the project: wait until it finds area's definition.
		const features = vscodeLanguageFeatures();
		await vscode.window.showTextDocument(vscode.Uri.file(file('measure.ts')));
		await eventually(() => features.definition(file('measure.ts'), { line: 3, character: 8 }), (found) => found.length > 0, 'TypeScript to load the project');
		// And has checked src/broken.ts (TypeScript reports the files shown in the editor).
		const broken = workspaceFile('src/broken.ts');
		await vscode.window.showTextDocument(broken);
		await eventually(() => Promise.resolve(vscode.languages.getDiagnostics(broken)), (found) => found.some((d) => diagnosticCodeText(d.code) === '2322'), 'TS2322 in src/broken.ts');
	});

	afterEach(async () => {
		await vscode.commands.executeCommand('workbench.action.files.saveAll');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		for (const [name, text] of originals) {
			if (readFileSync(file(name), 'utf8') !== text) {
				writeFileSync(file(name), text);
			}
		}
	});

	after(async () => {
		await restore();
		await server.close();
	});

	it('answers every read operation with workspace-relative places and their lines, without asking', async () => {
		const { api } = await activeAside();
		server.script(
			{
				toolCalls: [
					lsp('c_def', { operation: 'definition', path: 'src/lsp/measure.ts', line: 4, symbol: 'area' }),
					lsp('c_refs', { operation: 'references', symbol: 'area' }),
					lsp('c_impl', { operation: 'implementation', path: 'src/lsp/shapes.ts', symbol: 'Shape' }),
					lsp('c_hover', { operation: 'hover', path: 'src/lsp/shapes.ts', line: 12, column: 17 }),
					lsp('c_doc', { operation: 'documentSymbols', path: 'src/lsp/shapes.ts' }),
					lsp('c_ws', { operation: 'workspaceSymbols', query: 'Square' }),
					lsp('c_in', { operation: 'incomingCalls', path: 'src/lsp/shapes.ts', symbol: 'area' }),
					lsp('c_out', { operation: 'outgoingCalls', path: 'src/lsp/report.ts', symbol: 'report' }),
					lsp('c_diag', { operation: 'diagnostics', path: 'src/broken.ts' }),
					lsp('c_diag_all', { operation: 'diagnostics' }),
					lsp('c_lib', { operation: 'definition', path: 'src/lsp/report.ts', line: 5, symbol: 'toFixed' }),
					lsp('c_ini', { operation: 'documentSymbols', path: 'src/lsp/settings.ini' }),
					lsp('c_ini_at', { operation: 'hover', path: 'src/lsp/settings.ini', line: 3, column: 1 }),
				],
			},
			{ text: 'Looked.' },
		);
		const result = await api.sendMessage('Look at area.');
		assert.equal(result.outcome, 'done', result.error);
		const answer = (id: string) => toolResult(server, id);

		assert.match(answer('c_def'), /^1 definition of src\/lsp\/measure\.ts:4:9: return area\(new Square\(size\)\);\nsrc\/lsp\/shapes\.ts:12:17: export function area\(shape: Square\): number \{$/);
		const refs = answer('c_refs');
		for (const place of ['src/lsp/shapes.ts:12:17', 'src/lsp/measure.ts:1:10', 'src/lsp/measure.ts:4:9', 'src/lsp/report.ts:2:10', 'src/lsp/report.ts:5:12']) {
			assert.ok(refs.includes(place), `${place} in ${refs}`);
		}
		assert.match(refs, /^5 references of src\/lsp\/shapes\.ts:12:17/);
		assert.match(answer('c_impl'), /src\/lsp\/shapes\.ts:7:14: export class Square implements Shape \{/);
		assert.match(answer('c_hover'), /function area\(shape: Square\): number/);
		const outline = answer('c_doc');
		for (const line of [/Interface Shape — src\/lsp\/shapes\.ts:3:18/, /\n {2}Property sides \(in Shape\) — /, /Class Square — src\/lsp\/shapes\.ts:7:14/, /Function area — src\/lsp\/shapes\.ts:12:17/]) {
			assert.match(outline, line);
		}
		assert.match(answer('c_ws'), /Class Square — src\/lsp\/shapes\.ts:7:14: export class Square implements Shape \{/);
		const callers = answer('c_in');
		assert.match(callers, /^2 callers of src\/lsp\/shapes\.ts:12:17/);
		assert.match(callers, /Function measure — src\/lsp\/measure\.ts:3:17[^\n]*\n {4}called at src\/lsp\/measure\.ts:4:9: return area/);
		assert.match(callers, /Function report — src\/lsp\/report\.ts:4:17[^\n]*\n {4}called at src\/lsp\/report\.ts:5:12/);
		const callees = answer('c_out');
		assert.match(callees, /Function area — src\/lsp\/shapes\.ts:12:17/);
		assert.match(callees, /Function measure — src\/lsp\/measure\.ts:3:17/);
		// agent.test.ts's outside change may have run before: the line's text is either.
		assert.match(answer('c_diag'), /^1 problem in src\/broken\.ts\nsrc\/broken\.ts:4:8: const label: number = '(?:still )?not a number';\n {4}error \[ts 2322\]: Type 'string' is not assignable to type 'number'\./);
		assert.match(answer('c_diag_all'), /src\/broken\.ts:4:8/);
		// Number's toFixed is declared in TypeScript's own lib, outside the workspace: marked so.
		assert.match(answer('c_lib'), /\n\(outside the workspace\) \/[^\n]*\/lib\.es5\.d\.ts:\d+:\d+: toFixed\(/);
		for (const id of ['c_ini', 'c_ini_at']) {
			assert.match(answer(id), /^No extension here provides language features for Ini files: src\/lsp\/settings\.ini is Ini \(language id "ini"\)/, id);
		}
		const asked = chatRequests(server).at(-1);
		assert.ok(asked, 'the answers went back to the model');
	});

	it('a rename across three files is one review; rejected, nothing changes', async () => {
		const { api, hooks } = await activeAside();
		server.script({ toolCalls: [lsp('c_rename_no', { operation: 'rename', path: 'src/lsp/shapes.ts', symbol: 'area', new_name: 'surface' })] }, { text: 'Left it.' });
		const sent = api.sendMessage('Rename area to surface.');
		const review = await reviewOf(hooks, sent, 'c_rename_no');
		const proposed = review?.proposed.map((document) => document?.getText() ?? '') ?? [];
		assert.equal(proposed.length, 3, 'one review for the three files');
		assert.ok(proposed.every((text) => text.includes('surface(') && !/\barea\b/.test(text)), proposed.join('\n---\n'));
		hooks.approve('c_rename_no', false);
		const result = await sent;
		assert.equal(result.outcome, 'done', result.error);
		for (const name of FILES) {
			assert.equal(readFileSync(file(name), 'utf8'), originals.get(name), `${name} is as it was`);
		}
		assert.match(toolResult(server, 'c_rename_no'), /denied|did not allow|rejected/i);
	});

	it('a rename across three files, accepted in the diff editor, changes all three, keeps a checkpoint, and the observers know the files', async () => {
		const { api, hooks } = await activeAside();
		server.script({ toolCalls: [lsp('c_rename', { operation: 'rename', symbol: 'area', new_name: 'surface' })] }, { text: 'Renamed.' }, { text: 'Seen.' });
		const sent = api.sendMessage('Rename area to surface, please.');
		await reviewOf(hooks, sent, 'c_rename');
		await vscode.commands.executeCommand('aside.review.allow');
		const result = await sent;
		assert.equal(result.outcome, 'done', result.error);
		assert.match(toolResult(server, 'c_rename'), /^Renamed area to surface: 5 edits in 3 files \(src\/lsp\/shapes\.ts, src\/lsp\/measure\.ts, src\/lsp\/report\.ts\)\./);
		assert.match(readFileSync(file('shapes.ts'), 'utf8'), /export function surface\(shape: Square\)/);
		assert.match(readFileSync(file('measure.ts'), 'utf8'), /import \{ surface, Square \} from '\.\/shapes';[^]*return surface\(new Square\(size\)\);/);
		assert.match(readFileSync(file('report.ts'), 'utf8'), /\$\{surface\(new Square\(2\)\)\.toFixed\(1\)\}/);
		const store = hooks.checkpoints();
		assert.ok(store);
		const kept = await store.entries(result.sessionId);
		assert.deepEqual(kept.map((entry) => entry.shown).sort(), FILES.map((name) => `src/lsp/${name}`).sort(), 'a checkpoint of each file');
		for (const entry of kept) {
			assert.equal(await store.text(entry.before ?? ''), originals.get(entry.shown.replace('src/lsp/', '')), `${entry.shown}'s old text is kept`);
		}
		// The observers cache what the rename wrote: a change made after it, outside Aside, is reported.
		writeFileSync(file('report.ts'), `${readFileSync(file('report.ts'), 'utf8')}// changed by someone else\n`);
		await until(() => hooks.pendingEditedFiles(), (count) => count > 0, 'the file watcher to see the change');
		const next = await api.sendMessage('Anything new?');
		assert.equal(next.outcome, 'done', next.error);
		assert.match(messagesOf(chatRequests(server).at(-1)).map((message) => message.content ?? '').join('\n'), /<system-reminder key="files\.edited">[^]*src\/lsp\/report\.ts/);
	});
});
