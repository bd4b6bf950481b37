// Which model a turn uses and what the model picker offers, decided once for every provider: the
// configured model (`aside.model`), else the first one offered. VS Code's chat models are reached
// only through their list, each with a provider of its own; an HTTP provider serves whatever
// model it is asked for. Pure: src/vscode/models.ts builds the catalog from the settings, the
// stored keys and vscode.lm, and keeps the context windows it hears of.
import type { ChatProvider, ModelInfo, ProviderId } from './provider';

/** One provider's models, as the settings and keys make it now. */
export interface ModelCatalog {
	readonly providerId: ProviderId;
	/** The provider the settings make (vscode.lm: the first chat model's). */
	readonly provider: ChatProvider;
	/** What to check when it offers nothing: the key and base URL, the server, a chat model extension. */
	readonly hint: string;
	/** The models on offer, for the picker and for choosing one when none is configured. */
	list(signal: AbortSignal): Promise<readonly ModelInfo[]>;
	/** Set when each model has a provider of its own (VS Code's chat models): a model is then always one from the list. */
	readonly providerFor?: (model: string) => Promise<ChatProvider>;
}

/** The provider and model a request goes to (the agent's ResolvedModel). */
export interface ModelChoice {
	readonly provider: ChatProvider;
	readonly model: string;
	/** What the list said of the chosen model's window, when it was listed. */
	readonly contextWindow?: number;
}

export function noModelsOffered(catalog: Pick<ModelCatalog, 'providerId' | 'hint'>): string {
	return `The ${catalog.providerId} provider offers no models. ${catalog.hint}`;
}

/**
 * The model to use: the configured one, else the first offered. A configured model is asked of
 * an HTTP provider as it is (a server may serve models it does not list); for VS Code's chat
 * models it must be one listed. Throws an Error saying what to change when there is none.
 */
export async function resolveModel(catalog: ModelCatalog, configured: string, signal: AbortSignal): Promise<ModelChoice> {
	if (!catalog.providerFor && configured !== '') {
		return { provider: catalog.provider, model: configured };
	}
	const models = await catalog.list(signal);
	const chosen = configured === '' ? models[0] : models.find((model) => model.id === configured);
	if (!chosen) {
		throw new Error(
			configured === ''
				? noModelsOffered(catalog)
				: `The model "${configured}" is not offered by the ${catalog.providerId} provider; pick one in the chat view or change aside.model.`,
		);
	}
	const provider = catalog.providerFor ? await catalog.providerFor(chosen.id) : catalog.provider;
	return { provider, model: chosen.id, ...(chosen.contextWindow ? { contextWindow: chosen.contextWindow } : {}) };
}

export interface ModelOffer {
	readonly models: readonly ModelInfo[];
	/** Why the list is empty. */
	readonly problem?: string;
	/** The model a request would use now (the configured one, else the first offered), to learn its window early. */
	readonly model?: string;
}

/** What the picker offers: the provider's models, or why there are none. */
export async function offerModels(catalog: ModelCatalog, configured: string, signal: AbortSignal): Promise<ModelOffer> {
	const models = await catalog.list(signal);
	const model = configured || models[0]?.id;
	return { models, ...(models.length ? {} : { problem: noModelsOffered(catalog) }), ...(model === undefined ? {} : { model }) };
}
