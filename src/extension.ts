// Aside's entry point: wires the VS Code adapters (src/vscode/) to the pure core and returns the
// public API (src/api.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Agent } from './agent/agent';
import { modelDispatch, PROVIDER_RETRIES } from './agent/dispatch';
import { registryToolBox } from './agent/toolBox';
import { FileSessionLibrary } from './agent/library';
import { SessionObservers } from './agent/observers';
import { EditDiagnostics } from './observe/editDiagnostics';
import { SeenTexts } from './observe/seenTexts';
import { displayPath } from './tools/paths';
import type { SessionEnvironment } from './agent/session';
import { ChatSessions } from './agent/sessions';
import { systemPrompt } from './agent/systemPrompt';
import { API_VERSION, type AsideApi, contributedDefinition } from './api';
import { randomIds, systemClock, systemTimers } from './base/clock';
import { Emitter, type Event } from './base/event';
import { DisposableStore, MutableDisposable, toDisposable } from './base/lifecycle';
import type { AgentStatus, TranscriptItem } from './protocol/messages';
import { builtinReminders } from './reminders/builtin/defaults';
import type { ReminderConfig } from './reminders/config';
import type { ReminderDefinition } from './reminders/definition';
import { BUILTIN_KEYS } from './reminders/keys';
import type { InjectionRecord } from './reminders/record';
import { toolsFor } from './tools/registry';
import { CHAT_VIEW_ID, ChatViewProvider } from './vscode/chatView';
import { registerCommands } from './vscode/commands';
import { Configuration } from './vscode/configuration';
import { VsCodeDiagnosticsSource } from './vscode/diagnosticsSource';
import { vscodeDocuments } from './vscode/documents';
import { VsCodeFileEvents } from './vscode/fileEvents';
import { readRootInstructions } from './vscode/instructions';
import { GatedModelSource, NetworkGate } from './agent/networkGate';
import { ProviderSetup } from './agent/providerSetup';
import { detectLocalServers, testLocalPorts } from './providers/localServers';
import { ApiKeys, type KeyedProvider, KEYED_PROVIDER_LABELS } from './vscode/apiKeys';
import { useServer } from './vscode/chooseProvider';
import { VsCodeModelSource } from './vscode/models';
import { workspaceTrust } from './vscode/trust';
import { diagnosticsLimitsOf, editedFilesLimitsOf } from './vscode/observerSettings';
import { reminderConfigOf, type SettingProblem } from './vscode/settings';
import { VsCodeToolHost, workspaceRoots } from './vscode/toolHost';
import { AgentPresenter, agentStatus } from './view/agentView';
import { SessionProjections } from './view/sessionView';
import { SetupPresenter } from './view/setupView';

const CURRENT_SESSION_KEY = 'aside.currentSession';

/**
 * Exported only when the extension host runs with ASIDE_TEST_HOOKS=1 (the integration tests),
 * so tests can see host state; not part of the public API.
 */
export interface AsideTestHooks {
	readonly currentSessionItems: () => readonly TranscriptItem[];
	readonly currentSessionId: () => string;
	readonly onDidAppend: Event<readonly TranscriptItem[]>;
	/** The reminder configuration the engine reads at every WAIT. */
	readonly reminderConfig: ReminderConfig;
	readonly settingProblems: () => readonly SettingProblem[];
	readonly sessionsDir: string;
	readonly agentBusy: () => boolean;
	readonly stop: () => void;
	readonly approve: (callId: string, granted: boolean, note?: string) => void;
	readonly pendingApproval: () => string | undefined;
	/** Stores an API key for one origin as Aside: Set API Key would (the command asks through quick picks). */
	readonly storeApiKey: (provider: KeyedProvider, origin: string, key: string | undefined) => Promise<void>;
	/** Whether Aside may contact model servers yet (Restricted Mode closes it until the person acts). */
	readonly networkAllowed: () => boolean;
	/** What the chat says about whether anything can answer. */
	readonly agentStatus: () => AgentStatus;
	/** Files the agent saw that changed and were not reported yet. */
	readonly pendingEditedFiles: () => number;
	/** The context window the agent uses now (what the context meter shows), if known. */
	readonly contextWindow: () => number | undefined;
}

export type AsideExports = AsideApi & Partial<AsideTestHooks>;

export async function activate(context: vscode.ExtensionContext): Promise<AsideExports> {
	const log = vscode.window.createOutputChannel('Aside', { log: true });
	context.subscriptions.push(log);
	const version = (context.extension.packageJSON as { version?: string }).version ?? 'unknown';
	log.info(`Aside ${version} activating (VS Code ${vscode.version}).`);
	const store = new DisposableStore();
	context.subscriptions.push(store);

	const configuration = store.add(new Configuration(log));
	// What each session's reminder engine reads at its WAITs.
	const reminderConfig = reminderConfigOf(() => configuration.current);
	const reminderKeys = BUILTIN_KEYS.with([]);
	const contributed: ReminderDefinition[] = [];
	const env: SessionEnvironment = {
		clock: systemClock,
		ids: randomIds,
		log,
		reminderConfig,
		reminderDefaults: () => [...builtinReminders(systemClock, readRootInstructions), ...contributed],
		reminderKeys,
	};

	const storage = context.storageUri ?? context.globalStorageUri;
	const sessionsDir = join(storage.fsPath, 'sessions');
	mkdirSync(sessionsDir, { recursive: true });
	const library = new FileSessionLibrary(sessionsDir, () => systemClock.now(), log);
	const sessions = store.add(new ChatSessions(library, env));
	const lastSession = context.workspaceState.get<string>(CURRENT_SESSION_KEY);
	// One stat: activation reads no transcript but the one it reopens (the chat list reads the index).
	if (lastSession && library.exists(lastSession)) {
		try {
			sessions.open(lastSession, 'restart');
			log.info(`Reopened session ${lastSession}.`);
		} catch (error) {
			log.error(`Aside could not reopen session ${lastSession}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
	const rememberCurrent = (): void => {
		void context.workspaceState.update(CURRENT_SESSION_KEY, sessions.current.isEmpty ? undefined : sessions.current.id);
	};
	const recorded = store.add(new Emitter<InjectionRecord>());
	const followSession = store.add(new DisposableStore());
	const fileEvents = store.add(new VsCodeFileEvents());
	const diagnosticsSource = store.add(new VsCodeDiagnosticsSource());
	const tools = await VsCodeToolHost.create(log);
	const observers = store.add(new MutableDisposable<SessionObservers>());
	const follow = (): void => {
		followSession.clear();
		const session = sessions.current;
		const editDiagnostics = new EditDiagnostics(
			diagnosticsSource,
			systemClock,
			systemTimers,
			{
				displayPath: (uri) => displayPath(vscode.Uri.parse(uri).fsPath, workspaceRoots()),
				// Read at every edit: a changed setting applies without New Chat.
				limits: diagnosticsLimitsOf(() => configuration.current),
				log,
			},
			(counts) => {
				// Counts only: never diagnostic text or paths.
				log.info(`Edit diagnostics: ${counts.new} new, ${counts.changed} changed, ${counts.preExisting} pre-existing, ${counts.resolved} resolved; waited ${counts.waitedMs} ms (ended by ${counts.endedBy}).`);
			},
		);
		observers.value = new SessionObservers(
			session.reminders,
			tools.fs,
			fileEvents,
			workspaceRoots,
			{
				limits: editedFilesLimitsOf(() => configuration.current),
				// Aside's own transcripts change every turn; they are never "edited files".
				excludedFolders: [storage.fsPath, context.globalStorageUri.fsPath],
			},
			log,
			{ observer: editDiagnostics, documents: vscodeDocuments, openEditedFiles: () => configuration.current.diagnosticsOpenEditedFiles },
		);
		// A reopened chat was given files and problems already: its records say which.
		observers.value.restore(session.records);
		followSession.add(session.onDidAppend(rememberCurrent));
		followSession.add(session.reminders.onDidRecord((record) => {
			recorded.fire(record);
		}));
	};
	follow();
	store.add(sessions.onDidChangeCurrent(() => {
		follow();
		rememberCurrent();
	}));

	const keys = new ApiKeys(context.secrets, log);
	const gate = store.add(new NetworkGate(workspaceTrust, log));
	if (!gate.isOpen) {
		log.info('Restricted Mode: Aside contacts no model server until you send a message, choose a provider, or trust the workspace.');
	}
	const models = store.add(new VsCodeModelSource(configuration, context.secrets, keys, log));
	const modelSource = store.add(new GatedModelSource(models, gate));
	const agent = store.add(
		new Agent(
			{
				sessions,
				models: modelSource,
				settings: configuration,
				system: () => systemPrompt({ roots: workspaceRoots(), platform: `${process.platform} (${process.arch})` }),
				observers: () => observers.value,
			},
			{
				// The current chat's stale-write guard; without observers, an empty one (it refuses every edit).
				tools: registryToolBox((mode) => toolsFor(mode, vscode.workspace.isTrusted), (signal) => tools.contextFor(signal, observers.value?.seen ?? new SeenTexts())),
				dispatch: modelDispatch(modelSource, { retries: PROVIDER_RETRIES, idleTimeoutMs: () => configuration.current.requestTimeoutSeconds * 1000 }),
				runtime: { clock: systemClock, ids: randomIds, log },
			},
		),
	);

	// Read at each probe: only the integration tests move the ports (ASIDE_TEST_HOOKS=1).
	const localPorts = () => testLocalPorts(process.env);
	const detect = (signal?: AbortSignal) => detectLocalServers({ ports: localPorts(), timeoutMs: 1500, ...(signal ? { signal } : {}) });
	const setup = store.add(
		new ProviderSetup({
			gate,
			agent,
			sessions,
			detect,
			keyNeeded: async () => {
				const need = await models.keyNeed();
				return need && { ...need, label: KEYED_PROVIDER_LABELS[need.provider] };
			},
			actions: {
				chooseProvider: () => vscode.commands.executeCommand('aside.chooseProvider'),
				useServer: (server) => useServer(server, log),
				storeKey: (need) => vscode.commands.executeCommand('aside.setApiKey', { provider: need.provider, origin: need.origin }),
			},
			log,
		}),
	);
	const projections = store.add(new SessionProjections(sessions));
	const chatView = store.add(
		new ChatViewProvider(context.extensionUri, { sessions, projections, settings: configuration.view, agent: new AgentPresenter(agent), setup: new SetupPresenter(setup), log }),
	);
	store.add(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chatView));
	const current = () => ({ provider: configuration.current.provider, baseUrl: configuration.current.baseUrl });
	store.add(registerCommands({ sessions, library, agent, chatView, log, gate, providers: { keys, detect: () => detect(), ports: localPorts, current, log } }));

	const api: AsideApi = {
		apiVersion: API_VERSION,
		sendMessage: async (text) => {
			if (typeof text !== 'string' || text.trim() === '') {
				throw new Error('Aside.sendMessage needs the text of a message.');
			}
			const outcome = await agent.startTurn(text);
			return { sessionId: sessions.current.id, ...outcome };
		},
		registerReminder: (extensionId, reminder) => {
			const { definition, key, declaration } = contributedDefinition(extensionId, reminder, reminderKeys);
			reminderKeys.add(declaration);
			contributed.push(definition);
			sessions.current.reminders.roster.installDefaults([definition]);
			log.info(`Reminder ${key} registered by ${extensionId}.`);
			return toDisposable(() => {
				const index = contributed.indexOf(definition);
				if (index !== -1) {
					contributed.splice(index, 1);
				}
				sessions.current.reminders.roster.unregister(definition.type);
				reminderKeys.remove(key);
			});
		},
		onDidRecordInjection: recorded.event,
	};

	if (process.env.ASIDE_TEST_HOOKS === '1') {
		const hooks: AsideTestHooks = {
			currentSessionItems: () => projections.current.items,
			currentSessionId: () => sessions.current.id,
			// Follows whichever session is current.
			onDidAppend: projections.onDidAppend,
			reminderConfig,
			settingProblems: () => configuration.problems,
			sessionsDir,
			agentBusy: () => agent.isRunning,
			stop: () => {
				agent.stop();
			},
			approve: (callId, granted, note) => {
				agent.approve(callId, granted, note);
			},
			pendingApproval: () => agent.state.approval?.callId,
			pendingEditedFiles: () => observers.value?.pendingCount ?? 0,
			contextWindow: () => agent.state.contextWindow,
			storeApiKey: async (provider, origin, key) => {
				await (key === undefined ? keys.delete(provider, origin) : keys.store(provider, origin, key));
			},
			networkAllowed: () => gate.isOpen,
			agentStatus: () => agentStatus(agent.state),
		};
		return { ...api, ...hooks };
	}
	return api;
}

export function deactivate(): void {
	// Everything is disposed through context.subscriptions.
}
