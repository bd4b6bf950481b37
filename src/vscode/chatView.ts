// Registers the `aside.chat` webview view and connects each instance of it to the host state
// through a ViewConnection. The webview may be destroyed when hidden; on return it loads again,
// says `ready`, and gets a fresh snapshot.
import * as vscode from 'vscode';
import { ViewConnection, type ViewConnectionOptions } from '../view/connection';
import type { WorkbenchActions } from '../view/controls';
import { DisposableStore } from '../base/lifecycle';
import { openMention } from './openMention';
import { createNonce, webviewHtml } from './webviewHtml';

export const CHAT_VIEW_ID = 'aside.chat';

/** The clipboard, the external-link opener (with VS Code's own confirmation for links), the chips' file opener, and the plan files'. */
export const workbenchActions: WorkbenchActions = {
	copy: (text) => vscode.env.clipboard.writeText(text),
	openLink: (href) => vscode.env.openExternal(vscode.Uri.parse(href, true)),
	openMention,
	openPlan: (file) => vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true }),
	manageTrust: () => vscode.commands.executeCommand('workbench.trust.manage'),
};

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
	private readonly assets: vscode.Uri;
	private readonly connections = new DisposableStore();
	private focusRequested = false;
	private view: vscode.WebviewView | undefined;
	private connection: ViewConnection | undefined;

	constructor(
		extensionUri: vscode.Uri,
		private readonly connectionOptions: Omit<ViewConnectionOptions, 'post' | 'workbench'>,
	) {
		this.assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
	}

	resolveWebviewView(view: vscode.WebviewView): void {
		this.view = view;
		const { webview } = view;
		webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [this.assets] };
		const connection = this.connections.add(
			new ViewConnection({ ...this.connectionOptions, workbench: workbenchActions, post: (message) => webview.postMessage(message) }),
		);
		this.connection = connection;
		if (this.focusRequested) {
			this.focusRequested = false;
			connection.focusComposer();
		}
		const subscriptions = new DisposableStore();
		subscriptions.add(webview.onDidReceiveMessage((data: unknown) => {
			connection.receive(data);
		}));
		// Hidden views lose their page (no retained context); it reloads and says ready.
		subscriptions.add(view.onDidChangeVisibility(() => {
			if (!view.visible) {
				connection.detach();
			}
		}));
		view.onDidDispose(() => {
			subscriptions.dispose();
			this.connections.delete(connection);
			if (this.view === view) {
				this.view = undefined;
				this.connection = undefined;
			}
		});
		webview.html = webviewHtml({
			cspSource: webview.cspSource,
			assetUrl: (name) => webview.asWebviewUri(vscode.Uri.joinPath(this.assets, name)).toString(),
			nonce: createNonce(),
		});
		this.connectionOptions.log.debug('Chat view resolved.');
	}

	/** Reveals the view, creating it if needed, with the keyboard focus in the message box. */
	async reveal(): Promise<void> {
		if (this.view && this.connection) {
			this.view.show(false);
			this.connection.focusComposer();
			return;
		}
		// The view is created by this command; resolveWebviewView passes the request on.
		this.focusRequested = true;
		await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
	}

	dispose(): void {
		this.connections.dispose();
	}
}
