// Aside's commands: new chat, focus, log, API keys, sending a message from a script, and
// reopening a past session.
import * as vscode from 'vscode';
import type { Agent } from '../agent/agent';
import type { FileSessionLibrary } from '../agent/library';
import type { ChatSessions } from '../agent/session';
import type { LastOutcome } from '../transcript/summary';
import type { LogOutputChannel } from 'vscode';
import { DisposableStore } from '../base/lifecycle';
import type { ChatViewProvider } from './chatView';
import { API_KEY_PROVIDERS, type KeyedProvider, secretKeyFor } from './models';

export interface CommandServices {
	readonly sessions: ChatSessions;
	readonly library: FileSessionLibrary;
	readonly agent: Agent;
	readonly chatView: ChatViewProvider;
	readonly log: LogOutputChannel;
	readonly secrets: vscode.SecretStorage;
}

const PROVIDER_LABELS: Readonly<Record<KeyedProvider, string>> = {
	anthropic: 'Anthropic',
	'openai-compatible': 'OpenAI-compatible server',
};

async function setApiKey(secrets: vscode.SecretStorage): Promise<void> {
	const picked = await vscode.window.showQuickPick(
		API_KEY_PROVIDERS.map((provider) => ({ label: PROVIDER_LABELS[provider], provider })),
		{ title: 'Aside: Set API Key', placeHolder: 'Which provider is the key for?' },
	);
	if (!picked) {
		return;
	}
	const key = await vscode.window.showInputBox({
		title: `API key for ${picked.label}`,
		prompt: 'Stored in VS Code\'s secret storage, never in settings or transcripts. Leave empty to remove the key.',
		password: true,
		ignoreFocusOut: true,
	});
	if (key === undefined) {
		return;
	}
	if (key.trim() === '') {
		await secrets.delete(secretKeyFor(picked.provider));
		void vscode.window.showInformationMessage(`Aside: the ${picked.label} API key was removed.`);
	} else {
		await secrets.store(secretKeyFor(picked.provider), key.trim());
		void vscode.window.showInformationMessage(`Aside: the ${picked.label} API key was saved.`);
	}
}

/** How the chat's last turn ended, as the Open Chat list says it ('done' goes without saying). */
const LAST_OUTCOME: Readonly<Record<LastOutcome, string>> = {
	done: '',
	interrupted: 'last turn stopped',
	failed: 'last turn failed',
	'step-limit': 'last turn hit the step limit',
	unfinished: 'last turn unfinished',
};

async function openSession(services: CommandServices): Promise<void> {
	const summaries = services.library.list();
	if (summaries.length === 0) {
		void vscode.window.showInformationMessage('Aside: there are no saved chats in this workspace yet.');
		return;
	}
	const picked = await vscode.window.showQuickPick(
		summaries.map((summary) => ({
			label: summary.title ?? 'New chat',
			description: [`${summary.turns} message${summary.turns === 1 ? '' : 's'}`, summary.lastOutcome ? LAST_OUTCOME[summary.lastOutcome] : ''].filter((part) => part !== '').join(' · '),
			detail: new Date(summary.updatedAt).toLocaleString(),
			id: summary.id,
		})),
		{ title: 'Aside: Open Chat', placeHolder: 'Reopen a chat of this workspace', matchOnDetail: true },
	);
	if (!picked) {
		return;
	}
	services.sessions.open(picked.id);
	await services.chatView.reveal();
}

export function registerCommands(services: CommandServices): DisposableStore {
	const store = new DisposableStore();
	const { sessions, agent, chatView, log } = services;
	store.add(vscode.commands.registerCommand('aside.newChat', async () => {
		sessions.newSession();
		await chatView.reveal();
	}));
	store.add(vscode.commands.registerCommand('aside.focusChat', () => chatView.reveal()));
	store.add(vscode.commands.registerCommand('aside.showLog', () => {
		log.show(true);
	}));
	store.add(vscode.commands.registerCommand('aside.setApiKey', () => setApiKey(services.secrets)));
	store.add(vscode.commands.registerCommand('aside.openChat', () => openSession(services)));
	store.add(vscode.commands.registerCommand('aside.stop', () => {
		agent.stop();
	}));
	store.add(vscode.commands.registerCommand('aside.sendMessage', async (text: unknown) => {
		if (typeof text !== 'string' || text.trim() === '') {
			throw new Error('aside.sendMessage takes the text of the message as its argument.');
		}
		const outcome = await agent.startTurn(text);
		return { sessionId: sessions.current.id, ...outcome };
	}));
	return store;
}
