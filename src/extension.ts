// Aside's entry point: builds the window's core (src/vscode/window/window.ts), runs the
// contributions that wire each feature onto it (src/vscode/window/contributions.ts), and returns
// the public API (src/api.ts), with the test hooks when the integration tests ask for them.
import * as vscode from 'vscode';
import type { AsideApi } from './api';
import { runContributions } from './base/contributions';
import { DisposableStore, type IDisposable, MutableDisposable } from './base/lifecycle';
import type { AsideTestHooks } from './vscode/testHooks';
import { CONTRIBUTIONS } from './vscode/window/contributions';
import { windowExports } from './vscode/window/exports';
import { createWindow } from './vscode/window/window';

export type AsideExports = AsideApi & Partial<AsideTestHooks>;

export async function activate(context: vscode.ExtensionContext): Promise<AsideExports> {
	const log = vscode.window.createOutputChannel('Aside', { log: true });
	context.subscriptions.push(log);
	const version = (context.extension.packageJSON as { version?: string }).version ?? 'unknown';
	log.info(`Aside ${version} activating (VS Code ${vscode.version}).`);
	const store = new DisposableStore();
	context.subscriptions.push(store);
	// Added first so it is disposed first: the contributions before the core they are wired from.
	const contributions = store.add(new MutableDisposable<IDisposable>());
	const window = await createWindow(context, log, store.add(new DisposableStore()));
	contributions.value = runContributions(CONTRIBUTIONS, window, log);
	return windowExports(window);
}

export function deactivate(): void {
	// Everything is disposed through context.subscriptions.
}
