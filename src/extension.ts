// Aside's entry point: wires the VS Code adapters (src/vscode/) to the pure core.
import * as vscode from 'vscode';
import { ChatSessions } from './agent/session';
import { randomIds, systemClock } from './base/clock';
import type { Event } from './base/event';
import type { AgentStatus, TranscriptItem } from './protocol/messages';
import type { ReminderConfig } from './reminders/config';
import { CHAT_VIEW_ID, ChatViewProvider } from './vscode/chatView';
import { Configuration } from './vscode/configuration';
import { reminderConfigOf, type SettingProblem } from './vscode/settings';

/** What is honest to say about answering, in this version: nothing answers yet. */
const AGENT_STATUS: AgentStatus = {
	state: 'unavailable',
	detail: 'No model is connected in this version of Aside, so nothing will answer yet. Your messages stay in this chat until the window reloads.',
};

/**
 * Exported only when the extension host runs with ASIDE_TEST_HOOKS=1 (the integration tests),
 * so tests can see host state; not a public API.
 */
export interface AsideTestHooks {
	readonly currentSessionItems: () => readonly TranscriptItem[];
	readonly onDidAppend: Event<readonly TranscriptItem[]>;
	/** The reminder configuration the engine reads at every WAIT. */
	readonly reminderConfig: ReminderConfig;
	readonly settingProblems: () => readonly SettingProblem[];
}

export function activate(context: vscode.ExtensionContext): AsideTestHooks | undefined {
	const log = vscode.window.createOutputChannel('Aside', { log: true });
	context.subscriptions.push(log);
	const version = (context.extension.packageJSON as { version?: string }).version ?? 'unknown';
	log.info(`Aside ${version} activating (VS Code ${vscode.version}).`);

	const configuration = new Configuration(log);
	// What each session's reminder engine reads at its WAITs (the agent loop arrives with the providers).
	const reminderConfig = reminderConfigOf(() => configuration.current);
	const sessions = new ChatSessions(systemClock, randomIds);
	const chatView = new ChatViewProvider(context.extensionUri, {
		sessions,
		settings: configuration.view,
		agentStatus: () => AGENT_STATUS,
		log,
	});
	context.subscriptions.push(
		configuration,
		sessions,
		chatView,
		vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chatView),
		vscode.commands.registerCommand('aside.newChat', async () => {
			sessions.newSession();
			await chatView.reveal();
		}),
		vscode.commands.registerCommand('aside.focusChat', () => chatView.reveal()),
		vscode.commands.registerCommand('aside.showLog', () => {
			log.show(true);
		}),
	);

	if (process.env.ASIDE_TEST_HOOKS === '1') {
		return {
			currentSessionItems: () => sessions.current.items,
			onDidAppend: (listener) => {
				// Follows whichever session is current.
				let inner = sessions.current.onDidAppend(listener);
				const outer = sessions.onDidChangeCurrent((session) => {
					inner.dispose();
					inner = session.onDidAppend(listener);
				});
				return { dispose: () => { inner.dispose(); outer.dispose(); } };
			},
			reminderConfig,
			settingProblems: () => configuration.problems,
		};
	}
	return undefined;
}

export function deactivate(): void {
	// Everything is disposed through context.subscriptions.
}
