// The language client of `.aside/reminders/*.md` (the server: src/reminderServer/, bundled as
// dist/reminderServer.js and run as its own Node process over IPC). Started when such a file is
// first opened, not on every Markdown file. It answers the server's `aside/vocabulary` from the
// window's key registry, tells it what each workspace reminder cost in the current chat, and
// shows "Preview": the block as it would go on the wire, in a read-only virtual document.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type { HasCurrent } from '../base/current';
import { currentEvent } from '../base/current';
import type { Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { ContextUseView } from '../protocol/messages';
import { workspaceReminderStats, previewBlock } from '../workspaceReminders/lenses';
import { reminderDate } from '../workspaceReminders/placeholders';
import { previewVerdict, refusalOf, type PreviewVerdict } from '../workspaceReminders/previewVerdict';
import { PREVIEW_COMMAND, REMINDER_STATS, VOCABULARY_REQUEST } from '../workspaceReminders/serverProtocol';
import type { ReminderVocabulary } from '../workspaceReminders/vocabulary';
import { analyzedReminderFile } from './reminderFolderText';

export const REMINDER_FILE_PATTERN = '**/.aside/reminders/*.md';
const PREVIEW_SCHEME = 'aside-reminder-preview';

/** The chat whose records the code lenses count. */
interface ChatCosts {
	contextView(limitTokens: undefined): ContextUseView;
	readonly onDidChangeContext: Event<void>;
}

export interface ReminderLanguageHost {
	readonly extensionUri: vscode.Uri;
	/** What Aside uses now: reserved keys (built-in and contributed), tools, modes. */
	readonly vocabulary: () => ReminderVocabulary;
	/** The current chat's projection (its context line's per-key costs). */
	readonly chats: HasCurrent<ChatCosts>;
	/** The current chat's permission mode, for `{{mode}}` in a preview. */
	readonly mode: () => string;
	readonly log: Logger;
}

function isReminderFile(document: vscode.TextDocument): boolean {
	return document.uri.scheme === 'file' && vscode.languages.match({ scheme: 'file', pattern: REMINDER_FILE_PATTERN }, document) > 0;
}

export class ReminderLanguage extends Disposable {
	private client: LanguageClient | undefined;
	private readonly previews = new Map<string, string>();
	private readonly _onDidChangePreview = this._register(new vscode.EventEmitter<vscode.Uri>());

	constructor(private readonly host: ReminderLanguageHost) {
		super();
		this._register(vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
			onDidChange: this._onDidChangePreview.event,
			provideTextDocumentContent: (uri) => this.previews.get(uri.toString()) ?? '',
		}));
		this._register(vscode.commands.registerCommand(PREVIEW_COMMAND, (uri: unknown) => this.preview(uri)));
		this._register(vscode.workspace.onDidOpenTextDocument((document) => {
			if (isReminderFile(document)) {
				this.start();
			}
		}));
		if (vscode.workspace.textDocuments.some(isReminderFile)) {
			this.start();
		}
	}

	/** The server process starts once, at the first reminder file opened. */
	private start(): void {
		if (this.client) {
			return;
		}
		const module = vscode.Uri.joinPath(this.host.extensionUri, 'dist', 'reminderServer.js').fsPath;
		const serverOptions: ServerOptions = { run: { module, transport: TransportKind.ipc }, debug: { module, transport: TransportKind.ipc } };
		const watcher = vscode.workspace.createFileSystemWatcher(REMINDER_FILE_PATTERN);
		this._register(watcher);
		const clientOptions: LanguageClientOptions = {
			documentSelector: [{ scheme: 'file', pattern: REMINDER_FILE_PATTERN }],
			synchronize: { fileEvents: watcher },
		};
		const client = new LanguageClient('aside.reminders', 'Aside workspace reminders', serverOptions, clientOptions);
		this.client = client;
		this._register(client.onRequest(VOCABULARY_REQUEST, () => this.host.vocabulary()));
		const sendStats = (): void => {
			if (client.isRunning()) {
				void client.sendNotification(REMINDER_STATS, { stats: workspaceReminderStats(this.host.chats.current.contextView(undefined).reminders) });
			}
		};
		this._register(currentEvent(this.host.chats, (chat) => chat.onDidChangeContext)(sendStats));
		this._register(this.host.chats.onDidChangeCurrent(sendStats));
		this._register({ dispose: () => void client.stop() });
		client.start().then(sendStats, (error: unknown) => {
			this.host.log.error(`The workspace reminder language server did not start: ${error instanceof Error ? error.message : String(error)}`);
		});
	}

	/** Resolves with its verdict (what callers such as the tests read), having shown the preview or said why not. */
	private async preview(argument: unknown): Promise<PreviewVerdict | undefined> {
		const uri = typeof argument === 'string' ? vscode.Uri.parse(argument) : argument instanceof vscode.Uri ? argument : vscode.window.activeTextEditor?.document.uri;
		if (!uri) {
			return undefined;
		}
		const verdict = previewVerdict(await analyzedReminderFile(uri, this.host.vocabulary()));
		if (verdict.kind !== 'previewable') {
			void vscode.window.showErrorMessage(refusalOf(verdict, vscode.workspace.asRelativePath(uri)));
			return verdict;
		}
		const { spec } = verdict;
		const block = previewBlock(spec, { date: reminderDate(new Date()), mode: this.host.mode() });
		const previewUri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/workspace.${spec.key}`, query: uri.toString() });
		this.previews.set(previewUri.toString(), block);
		this._onDidChangePreview.fire(previewUri);
		await vscode.window.showTextDocument(previewUri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
		return verdict;
	}
}
