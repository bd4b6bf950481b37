// The README's first picture, taken from a realistic chat in the real workbench: a small change to
// a TypeScript project asked in Ask mode — the agent searches, reads, proposes two edits that the
// person allows on their cards — with a local model's name in the toolbar and the context line
// counting realistic usage against its window. The picture must show none of the tests' leftovers:
// no scripted model's name, no Output panel. `ASIDE_ARTIFACTS_DIR` receives it as chat-view.png
// (copied into docs/images/ when it is retaken).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, until, useScriptedServer, workspaceFile } from './support';

const MODEL = 'qwen2.5-coder:7b';
const folder = () => workspaceFile('shop').fsPath;
const PRICE = `export function formatPrice(cents: number): string {\n\treturn \`€\${(cents / 100).toFixed(2)}\`;\n}\n`;
const CART = `import { formatPrice } from './price';\n\nexport function cartTotal(items: { cents: number }[]): string {\n\treturn formatPrice(items.reduce((sum, item) => sum + item.cents, 0));\n}\n`;

describe('the README picture', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	beforeEach(function () {
		// The webview is driven from the browser: not under test-electron.
		if (!hasDriver) {
			this.skip();
		}
	});

	before(async () => {
		mkdirSync(folder(), { recursive: true });
		writeFileSync(join(folder(), 'price.ts'), PRICE);
		writeFileSync(join(folder(), 'cart.ts'), CART);
		server = await startModelServer({ models: [MODEL] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: MODEL, mode: 'ask' });
		await vscode.workspace.getConfiguration('aside').update('contextWindow', 32_768, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await vscode.commands.executeCommand('workbench.action.closePanel');
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.files.saveAll');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(folder(), { recursive: true, force: true });
		await vscode.workspace.getConfiguration('aside').update('contextWindow', undefined, vscode.ConfigurationTarget.Global);
		await restore();
		await server.close();
	});

	it('a realistic chat: two allowed edits, a local model, realistic context use, no test leftovers on screen', async () => {
		const { hooks } = await activeAside();
		server.script(
			{ text: 'Let me find where prices are formatted.', toolCalls: [{ id: 'call_grep', name: 'Grep', input: { pattern: 'formatPrice' } }], usage: { input: 3_412, output: 38 } },
			{ toolCalls: [{ id: 'call_read', name: 'Read', input: { path: 'shop/price.ts' } }, { id: 'call_read_cart', name: 'Read', input: { path: 'shop/cart.ts' } }], usage: { input: 3_690, output: 41 } },
			{ toolCalls: [{ id: 'call_edit', name: 'Edit', input: { path: 'shop/price.ts', old_string: 'export function formatPrice(cents: number): string {\n\treturn `€${(cents / 100).toFixed(2)}`;', new_string: "export function formatPrice(cents: number, currency = 'EUR'): string {\n\tconst format = new Intl.NumberFormat('en', { style: 'currency', currency });\n\treturn format.format(cents / 100);" } }], usage: { input: 3_905, output: 96 } },
			{ toolCalls: [{ id: 'call_cart', name: 'Edit', input: { path: 'shop/cart.ts', old_string: 'export function cartTotal(items: { cents: number }[]): string {\n\treturn formatPrice(items.reduce((sum, item) => sum + item.cents, 0));', new_string: "export function cartTotal(items: { cents: number }[], currency = 'EUR'): string {\n\treturn formatPrice(items.reduce((sum, item) => sum + item.cents, 0), currency);" } }], usage: { input: 4_260, output: 88 } },
			{
				text: "Done. `formatPrice` now takes a `currency` (default `'EUR'`) and formats with `Intl.NumberFormat`, so `formatPrice(1999, 'USD')` gives `$19.99`. `cartTotal` passes its own `currency` through; the one existing call keeps working unchanged.",
				usage: { input: 4_618, output: 71 },
			},
		);
		await driver('typeInChat', { text: 'Let formatPrice take a currency, and pass it through cartTotal.' });
		for (const callId of ['call_edit', 'call_cart']) {
			await until(() => hooks.pendingApproval(), (id) => id === callId, `the card of ${callId}`, 60_000);
			await driver('decideAndReadStatus', { which: 'allow' });
		}
		await until(() => hooks.agentBusy(), (busy) => !busy, 'the turn to end', 60_000);
		assert.match(readFileSync(join(folder(), 'price.ts'), 'utf8'), /currency = 'EUR'/);
		const document = await vscode.workspace.openTextDocument(join(folder(), 'price.ts'));
		await vscode.window.showTextDocument(document, { preview: false });
		await vscode.commands.executeCommand('workbench.action.closePanel');
		await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
		await vscode.commands.executeCommand('aside.focusChat');
		const chat = await driver<{ userTexts: string[] }>('readChat', { waitForText: 'Let formatPrice take a currency' });
		assert.deepEqual(chat.userTexts, ['Let formatPrice take a currency, and pass it through cartTotal.']);
		const seen = await driver<{ text: string; panel: boolean }>('readWorkbench', {});
		assert.doesNotMatch(seen.text, /scripted|test-model|Fixture/i, 'no test leftovers in the chat or the toolbar');
		assert.match(seen.text, new RegExp(MODEL.replace(/[.:]/g, '\\$&')), 'the model picker shows the local model');
		assert.equal(seen.panel, false, 'no Output panel under the editor');
		// Below the window's title bar, which names the extension development host.
		await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/chat-view.png`, clip: { x: 0, y: 36, width: 1100, height: 864 } });
	});
});
