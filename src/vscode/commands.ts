// Aside's commands: new chat, focus, log, choosing a provider, API keys, compacting the chat,
// sending a message from a script, and reopening a past session.
import * as vscode from 'vscode';
import type { Agent } from '../agent/agent';
import type { FileSessionLibrary } from '../agent/library';
import type { NetworkGate } from '../agent/networkGate';
import type { AsideApi } from '../api';
import type { ChatSessions } from '../agent/sessions';
import type { LastOutcome } from '../transcript/summary';
import type { LogOutputChannel } from 'vscode';
import { DisposableStore } from '../base/lifecycle';
import { compactionOf } from '../features/features';
import { setApiKey, type KeyTarget } from './apiKeyCommand';
import { API_KEY_PROVIDERS, type KeyedProvider, originOf } from './apiKeys';
import type { ChatViewProvider } from './chatView';
import { chooseProvider, type ChooseProviderContext } from './chooseProvider';

export interface CommandServices {
	readonly sessions: ChatSessions;
	readonly library: FileSessionLibrary;
	readonly agent: Agent;
	/** The public API: the command sends a message as `sendMessage` does. */
	readonly api: Pick<AsideApi, 'sendMessage'>;
	/** New Chat, Focus Chat and Open Chat reveal it. */
	readonly chatView: Pick<ChatViewProvider, 'reveal'>;
	readonly log: LogOutputChannel;
	/** Keys, local-server detection and the settings in effect, for the provider commands. */
	readonly providers: ChooseProviderContext;
	readonly gate: NetworkGate;
}

/** `aside.setApiKey`'s optional argument (the empty state's button): the provider and origin to store for. */
function keyTargetOf(argument: unknown): KeyTarget | undefined {
	if (typeof argument !== 'object' || argument === null || !('provider' in argument) || !('origin' in argument)) {
		return undefined;
	}
	const { provider, origin } = argument;
	if (!API_KEY_PROVIDERS.includes(provider as KeyedProvider) || typeof origin !== 'string') {
		return undefined;
	}
	try {
		return { provider: provider as KeyedProvider, origin: originOf(origin) };
	} catch {
		// Not an http(s) URL: ask as the command does without an argument.
		return undefined;
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
	store.add(vscode.commands.registerCommand('aside.setApiKey', (target: unknown) => setApiKey(services.providers, keyTargetOf(target))));
	store.add(vscode.commands.registerCommand('aside.chooseProvider', () => {
		// Opening the pick is the person acting: it may look for local servers, even in Restricted Mode.
		services.gate.allow('you chose a provider');
		return chooseProvider(services.providers);
	}));
	store.add(vscode.commands.registerCommand('aside.openChat', () => openSession(services)));
	store.add(vscode.commands.registerCommand('aside.stop', () => {
		agent.stop();
	}));
	// Resolves with why the chat was not compacted (also shown), or undefined once it was.
	store.add(vscode.commands.registerCommand('aside.compactChat', async (instructions: unknown) => {
		const refused = await compactionOf(agent, sessions.current).compact(typeof instructions === 'string' && instructions.trim() !== '' ? instructions : undefined);
		if (refused !== undefined) {
			void vscode.window.showWarningMessage(`Aside: ${refused}`);
		}
		return refused;
	}));
	// The API's own sendMessage: it refuses what is not a message, and answers with the turn's
	// outcome, always (a program that wants to compact runs aside.compactChat, which answers with
	// its own result; `/compact` is the composer's command).
	store.add(vscode.commands.registerCommand('aside.sendMessage', (text: unknown) => services.api.sendMessage(text as string)));
	return store;
}
