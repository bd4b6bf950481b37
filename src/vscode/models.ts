// Where the agent's model comes from: the `aside.provider` / `aside.model` / `aside.baseUrl`
// settings, API keys in SecretStorage (never in settings, logs or transcripts; each sent only to
// the origin it was stored for), and the chat models VS Code offers (vscode.lm). Each failure
// says what to configure.
import * as vscode from 'vscode';
import { errorMessage } from '../base/errors';
import type { ModelSource, ResolvedModel } from '../agent/ports';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import { AnthropicProvider } from '../providers/anthropic';
import { ContextWindows, effectiveContextWindow, windowKey } from '../providers/contextWindow';
import { OpenAICompatibleProvider } from '../providers/openaiCompatible';
import { offerModels, resolveModel, type ModelCatalog } from '../providers/modelResolver';
import { type ChatProvider, type ModelInfo, ProviderError, type ProviderId } from '../providers/provider';
import { API_KEY_PREFIX, type ApiKeys, effectiveBaseUrl, type KeyedProvider, originOf } from './apiKeys';
import type { Configuration } from './configuration';
import { LanguageModelProvider, languageModels } from './lmProvider';

/** The provider asks for a key, and none is stored for the origin it would go to. */
export interface KeyNeed {
	readonly provider: KeyedProvider;
	readonly origin: string;
}

export class VsCodeModelSource extends Disposable implements ModelSource {
	/** The origin whose server refused the last model list for want of a key. */
	private refusedOrigin: string | undefined;
	private readonly _onDidChange = this._register(new Emitter<void>());
	readonly onDidChange: Event<void> = this._onDidChange.event;

	/** What the providers' APIs and servers said about context windows, learned off the request path. */
	private readonly windows: ContextWindows;
	readonly onDidChangeContextWindow: Event<void>;

	constructor(
		private readonly configuration: Configuration,
		secrets: vscode.SecretStorage,
		private readonly keys: ApiKeys,
		log: Logger,
	) {
		super();
		this.windows = this._register(new ContextWindows({ log }));
		const windowChanged = this._register(new Emitter<void>());
		this.onDidChangeContextWindow = windowChanged.event;
		this._register(this.windows.onDidChange(() => {
			windowChanged.fire();
		}));
		let windowSetting = configuration.current.contextWindow;
		this._register(configuration.onDidChange(({ contextWindow }) => {
			if (contextWindow !== windowSetting) {
				windowSetting = contextWindow;
				windowChanged.fire();
			}
		}));
		let last = this.fingerprint();
		this._register(configuration.onDidChange(() => {
			const next = this.fingerprint();
			if (next !== last) {
				last = next;
				this._onDidChange.fire();
			}
		}));
		this._register(secrets.onDidChange((event) => {
			if (event.key.startsWith(API_KEY_PREFIX)) {
				this._onDidChange.fire();
			}
		}));
		this._register(vscode.lm.onDidChangeChatModels(() => {
			if (this.providerId === 'vscode-lm') {
				this._onDidChange.fire();
			}
		}));
	}

	get providerId(): ProviderId {
		return this.configuration.current.provider;
	}

	get configuredModel(): string {
		return this.configuration.current.model;
	}

	async resolve(signal: AbortSignal): Promise<ResolvedModel> {
		const choice = await resolveModel(await this.catalog(), this.configuredModel, signal);
		this.discoverWindow(choice.provider, choice.model);
		return choice;
	}

	contextWindow(model: string): number | undefined {
		return effectiveContextWindow(this.configuration.current.contextWindow, this.windows.known(this.windowKeyOf(model)), model)?.tokens;
	}

	requestFinished({ provider, model }: ResolvedModel): void {
		this.windows.requestFinished(this.windowKeyOf(model), (signal) => provider.contextWindow?.(model, signal) ?? Promise.resolve(undefined));
	}

	async listModels(signal: AbortSignal): Promise<{ readonly models: readonly ModelInfo[]; readonly problem?: string }> {
		this.refusedOrigin = undefined;
		try {
			const catalog = await this.catalog();
			const { models, problem, model } = await offerModels(catalog, this.configuredModel, signal);
			if (model !== undefined) {
				this.discoverWindow(catalog.provider, model);
			}
			return problem === undefined ? { models } : { models, problem };
		} catch (error) {
			const message = errorMessage(error);
			const keyless = await this.keylessOrigin();
			if (error instanceof ProviderError && error.kind === 'auth' && keyless !== undefined) {
				// The server wants a key, and the one place keys come from has none for it.
				this.refusedOrigin = keyless;
				return { models: [], problem: `${message} No API key is stored for ${keyless}: run "Aside: Set API Key" to store one for it.` };
			}
			return { models: [], problem: message };
		}
	}

	/**
	 * Whether the chosen provider needs a key it has not got: Anthropic always needs one; an
	 * OpenAI-compatible server only when it refused the model list for the lack of one.
	 */
	async keyNeed(): Promise<KeyNeed | undefined> {
		const provider = this.providerId;
		if (provider === 'vscode-lm') {
			return undefined;
		}
		const origin = await this.keylessOrigin();
		if (origin === undefined || (provider === 'openai-compatible' && origin !== this.refusedOrigin)) {
			return undefined;
		}
		return { provider, origin };
	}

	/** The origin the chosen provider sends to, when no key is stored for it there. */
	private async keylessOrigin(): Promise<string | undefined> {
		const provider = this.providerId;
		if (provider === 'vscode-lm') {
			return undefined;
		}
		try {
			const origin = originOf(effectiveBaseUrl(provider, this.configuration.current.baseUrl));
			return (await this.keys.get(provider, origin)) === undefined ? origin : undefined;
		} catch {
			// An unreadable URL or key store: the provider's own error says what is wrong.
			return undefined;
		}
	}

	async selectModel(model: string): Promise<void> {
		await vscode.workspace.getConfiguration('aside').update('model', model, vscode.ConfigurationTarget.Global);
	}

	/** The listed models, their windows remembered as the list's word (`source`). */
	private remembered(models: readonly ModelInfo[], source: string): readonly ModelInfo[] {
		for (const model of models) {
			if (model.contextWindow) {
				this.windows.remember(this.windowKeyOf(model.id), model.contextWindow, source);
			}
		}
		return models;
	}

	/** Starts asking the provider about the model's window, once per provider, origin and model; never waits. */
	private discoverWindow(provider: ChatProvider, model: string): void {
		if (provider.contextWindow) {
			this.windows.discover(this.windowKeyOf(model), (signal) => provider.contextWindow?.(model, signal) ?? Promise.resolve(undefined));
		}
	}

	private windowKeyOf(model: string): string {
		const { provider, baseUrl } = this.configuration.current;
		const url = provider === 'vscode-lm' ? 'vscode.lm' : effectiveBaseUrl(provider, baseUrl);
		return windowKey(provider, url, model);
	}

	private async lmProviderFor(id: string): Promise<LanguageModelProvider> {
		const model = (await languageModels()).find((candidate) => candidate.id === id);
		if (!model) {
			throw new Error(`The VS Code chat model "${id}" went away; pick another in the chat view.`);
		}
		return new LanguageModelProvider(model);
	}

	/** The chosen provider's models and how to reach them, from the settings, the stored keys and vscode.lm. */
	private async catalog(): Promise<ModelCatalog> {
		const settings = this.configuration.current;
		const hint = this.hint();
		switch (settings.provider) {
			case 'vscode-lm': {
				const [first] = await languageModels();
				if (!first) {
					throw new Error(`No chat model is available in VS Code. ${hint}`);
				}
				return {
					providerId: 'vscode-lm',
					provider: new LanguageModelProvider(first),
					hint,
					list: async () => this.remembered((await languageModels()).map((model) => ({ id: model.id, name: `${model.name} (${model.vendor})`, contextWindow: model.maxInputTokens })), 'maxInputTokens'),
					providerFor: (id) => this.lmProviderFor(id),
				};
			}
			case 'anthropic': {
				// Only the key stored for this very origin: a URL from any settings level gets no other.
				const baseUrl = effectiveBaseUrl('anthropic', settings.baseUrl);
				const origin = originOf(baseUrl);
				const apiKey = await this.keys.get('anthropic', origin);
				if (!apiKey) {
					throw new Error(`No Anthropic API key is stored for ${origin}: run "Aside: Set API Key" to store one for it.`);
				}
				return this.listing('anthropic', new AnthropicProvider({ apiKey, baseUrl }), hint);
			}
			case 'openai-compatible': {
				const baseUrl = effectiveBaseUrl('openai-compatible', settings.baseUrl);
				const apiKey = await this.keys.get('openai-compatible', originOf(baseUrl));
				return this.listing('openai-compatible', new OpenAICompatibleProvider({ baseUrl, ...(apiKey ? { apiKey } : {}) }), hint);
			}
		}
	}

	/** An HTTP provider's catalog: its own model list, and any model asked for. */
	private listing(providerId: ProviderId, provider: ChatProvider, hint: string): ModelCatalog {
		return { providerId, provider, hint, list: async (signal) => this.remembered(await provider.listModels(signal), 'the model list') };
	}

	private hint(): string {
		switch (this.providerId) {
			case 'vscode-lm':
				return 'Install and sign in to an extension that provides chat models (such as GitHub Copilot), or choose another provider ("Aside: Choose a Provider").';
			case 'anthropic':
				return 'Check the API key ("Aside: Set API Key") and aside.baseUrl.';
			case 'openai-compatible':
				return `Check that the server at ${effectiveBaseUrl('openai-compatible', this.configuration.current.baseUrl)} is running and has a model (for Ollama: "ollama pull <model>").`;
		}
	}

	private fingerprint(): string {
		const { provider, model, baseUrl } = this.configuration.current;
		return JSON.stringify([provider, model, baseUrl]);
	}
}
