// Aside: Choose a Provider — VS Code's chat models, Anthropic or an OpenAI-compatible server;
// then the base URL, with the common local servers listed (and marked when found running); then
// the key where one is needed, stored for that origin. The choice goes to the *user* settings.
import * as vscode from 'vscode';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import { type DetectedServer, LOCAL_SERVERS, type LocalPorts, localServerUrl, offerLabel } from '../providers/localServers';
import type { ProviderId } from '../providers/provider';
import { ANTHROPIC_BASE_URL } from '../providers/anthropic';
import { askForKey } from './apiKeyCommand';
import { type ApiKeys, isLoopback, originOf } from './apiKeys';
import { pickUrl, type UrlItem } from './urlPick';

export interface ChooseProviderContext {
	readonly keys: ApiKeys;
	/** Probes the local servers now. */
	readonly detect: () => Promise<readonly DetectedServer[]>;
	readonly ports: () => LocalPorts;
	readonly current: () => { readonly provider: ProviderId; readonly baseUrl: string };
	readonly log: Logger;
}

type ProviderItem = vscode.QuickPickItem & ({ readonly provider: ProviderId } | { readonly server: DetectedServer });

const PROVIDER_ITEMS: readonly ProviderItem[] = [
	{ label: "VS Code's chat models", detail: 'The models you already have in VS Code (GitHub Copilot and others). No key needed.', provider: 'vscode-lm' },
	{ label: 'Anthropic', detail: 'Claude through the Anthropic API (or a gateway). Needs an API key.', provider: 'anthropic' },
	{ label: 'OpenAI-compatible server', detail: 'Ollama, LM Studio, llama.cpp server, vLLM on this machine, or a hosted service.', provider: 'openai-compatible' },
];

function pickProvider(found: Promise<readonly DetectedServer[]>, current: ProviderId): Promise<ProviderItem | undefined> {
	const pick = vscode.window.createQuickPick<ProviderItem>();
	pick.title = 'Aside: Choose a Provider';
	pick.placeholder = 'Which models should Aside use?';
	pick.ignoreFocusOut = true;
	const items = (servers: readonly DetectedServer[]): ProviderItem[] => [
		...servers.map((server): ProviderItem => ({ label: offerLabel(server), detail: `Found running at ${server.baseUrl}. No key needed.`, server })),
		...PROVIDER_ITEMS.map((item) => ('provider' in item && item.provider === current ? { ...item, description: 'in use now' } : item)),
	];
	pick.items = items([]);
	// Local servers are looked for while the pick is open; found ones go on top.
	pick.busy = true;
	void found.then(
		(servers) => {
			pick.busy = false;
			if (servers.length > 0) {
				pick.items = items(servers);
			}
		},
		() => {
			pick.busy = false;
		},
	);
	return new Promise((resolve) => {
		let chosen: ProviderItem | undefined;
		pick.onDidAccept(() => {
			chosen = pick.selectedItems[0];
			pick.hide();
		});
		pick.onDidHide(() => {
			pick.dispose();
			resolve(chosen);
		});
		pick.show();
	});
}

function openAIUrlItems(found: readonly DetectedServer[], ports: LocalPorts, current: string): UrlItem[] {
	const items = LOCAL_SERVERS.map((server): UrlItem => {
		const running = found.find((candidate) => candidate.id === server.id);
		const url = running?.baseUrl ?? localServerUrl(server, ports);
		return { label: server.name, description: url, detail: running ? `Running now, ${running.models} model${running.models === 1 ? '' : 's'}.` : undefined, url };
	});
	if (current !== '' && !items.some((item) => item.url === current)) {
		items.unshift({ label: 'The current setting', description: current, url: current });
	}
	return items;
}

function anthropicUrlItems(current: string): UrlItem[] {
	const items: UrlItem[] = [{ label: 'Anthropic API', description: ANTHROPIC_BASE_URL, url: ANTHROPIC_BASE_URL }];
	if (current !== '' && current !== ANTHROPIC_BASE_URL) {
		items.push({ label: 'The current setting', description: current, url: current });
	}
	return items;
}

/** Writes the choice to the user settings, and says when a workspace setting overrides it. */
export async function useProvider(provider: ProviderId, baseUrl: string, log: Logger): Promise<void> {
	const config = vscode.workspace.getConfiguration('aside');
	const changed = config.get<string>('provider') !== provider || (config.get<string>('baseUrl') ?? '') !== baseUrl;
	// The model first, so no request goes out for the old model at the new server.
	if (changed) {
		await config.update('model', undefined, vscode.ConfigurationTarget.Global);
	}
	await config.update('baseUrl', baseUrl === '' ? undefined : baseUrl, vscode.ConfigurationTarget.Global);
	await config.update('provider', provider, vscode.ConfigurationTarget.Global);
	log.info(`Aside's provider is now ${provider}${baseUrl ? ` at ${baseUrl}` : ''} (user settings).`);
	const shadowed = ['provider', 'baseUrl', 'model'].filter((key) => {
		const values = vscode.workspace.getConfiguration('aside').inspect(key);
		return values?.workspaceValue !== undefined || values?.workspaceFolderValue !== undefined;
	});
	if (shadowed.length > 0 && vscode.workspace.isTrusted) {
		void vscode.window.showWarningMessage(
			`Aside: this workspace's settings set ${shadowed.map((key) => `aside.${key}`).join(', ')}, which override your choice here.`,
		);
	}
}

/** The server the empty state offered: no questions, it is local and needs no key. */
export async function useServer(server: DetectedServer, log: Logger): Promise<void> {
	await useProvider('openai-compatible', server.baseUrl, log);
	void vscode.window.showInformationMessage(`Aside now uses ${server.name} at ${server.baseUrl}.`);
}

export async function chooseProvider(context: ChooseProviderContext): Promise<void> {
	const found = context.detect().catch((error: unknown) => {
		context.log.warn(`Aside could not look for local model servers: ${errorMessage(error)}`);
		return [] as readonly DetectedServer[];
	});
	const current = context.current();
	const choice = await pickProvider(found, current.provider);
	if (!choice) {
		return;
	}
	if ('server' in choice) {
		await useServer(choice.server, context.log);
		return;
	}
	if (choice.provider === 'vscode-lm') {
		await useProvider('vscode-lm', '', context.log);
		void vscode.window.showInformationMessage("Aside now uses VS Code's chat models.");
		return;
	}
	const sameProvider = current.provider === choice.provider ? current.baseUrl : '';
	const url = await pickUrl(
		choice.provider === 'anthropic'
			? { title: 'Aside: Choose a Provider — Anthropic base URL', placeholder: 'The public API, or type the URL of a gateway', items: anthropicUrlItems(sameProvider) }
			: { title: 'Aside: Choose a Provider — base URL', placeholder: 'A local server, or type the URL of another one', items: openAIUrlItems(await found, context.ports(), sameProvider) },
	);
	if (url === undefined) {
		return;
	}
	const origin = originOf(url);
	const hasKey = (await context.keys.get(choice.provider, origin)) !== undefined;
	// Anthropic needs a key; a hosted OpenAI-compatible service most likely does; a local server doesn't.
	if (!hasKey && (choice.provider === 'anthropic' || !isLoopback(origin))) {
		const answered = await askForKey({ provider: choice.provider, origin }, context.keys, choice.provider === 'anthropic' ? 'required' : 'optional');
		if (!answered) {
			return;
		}
	}
	await useProvider(choice.provider, choice.provider === 'anthropic' && url === ANTHROPIC_BASE_URL ? '' : url, context.log);
	void vscode.window.showInformationMessage(`Aside now uses ${choice.label} at ${url}.`);
}
