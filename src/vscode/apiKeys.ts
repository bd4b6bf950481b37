// API keys, each stored for one provider and one origin (scheme, host, port): a key goes out only
// to the origin it was stored for, whichever settings level points Aside somewhere else. Pure
// (SecretStorage comes in as an interface), so Node tests can load it.
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import { ANTHROPIC_BASE_URL } from '../providers/anthropic';

/** Ollama's address: the most common local OpenAI-compatible server. */
export const DEFAULT_OPENAI_COMPATIBLE_URL = 'http://localhost:11434/v1';

export const API_KEY_PROVIDERS = ['anthropic', 'openai-compatible'] as const;
export type KeyedProvider = (typeof API_KEY_PROVIDERS)[number];

export const KEYED_PROVIDER_LABELS: Readonly<Record<KeyedProvider, string>> = {
	anthropic: 'Anthropic',
	'openai-compatible': 'OpenAI-compatible',
};

/** Where each provider goes when `aside.baseUrl` is empty. */
export const DEFAULT_BASE_URLS: Readonly<Record<KeyedProvider, string>> = {
	anthropic: ANTHROPIC_BASE_URL,
	'openai-compatible': DEFAULT_OPENAI_COMPATIBLE_URL,
};

/** The subset of vscode.SecretStorage the keys need. */
export interface SecretStore {
	get(key: string): PromiseLike<string | undefined>;
	store(key: string, value: string): PromiseLike<void>;
	delete(key: string): PromiseLike<void>;
}

/** Every secret Aside stores starts with this (SecretStorage change events are filtered by it). */
export const API_KEY_PREFIX = 'aside.apiKey.';

/** The base URL a provider really talks to: the setting, or the provider's default. */
export function effectiveBaseUrl(provider: KeyedProvider, baseUrl: string): string {
	return baseUrl.trim() === '' ? DEFAULT_BASE_URLS[provider] : baseUrl.trim();
}

/** `https://host:port` of a URL (default ports dropped, as browsers do); throws on a bad URL. */
export function originOf(url: string): string {
	const parsed = new URL(url);
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		throw new Error(`"${url}" is not an http:// or https:// URL.`);
	}
	return parsed.origin;
}

/** Whether an origin is this machine: nothing leaves it, so an unencrypted key is no exposure. */
export function isLoopback(origin: string): boolean {
	const host = new URL(origin).hostname;
	return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function secretKeyFor(provider: KeyedProvider, origin: string): string {
	return `${API_KEY_PREFIX}${provider}@${originOf(origin)}`;
}

/** The names keys had before they were stored per origin (0.1.0). */
export function legacySecretKeyFor(provider: KeyedProvider): string {
	return `${API_KEY_PREFIX}${provider}`;
}

export class ApiKeys {
	private migrated: Promise<void> | undefined;

	constructor(
		private readonly secrets: SecretStore,
		private readonly log: Logger,
	) {}

	/** The key stored for this provider at this origin; never one stored for another origin. */
	async get(provider: KeyedProvider, origin: string): Promise<string | undefined> {
		await this.migrate();
		const key = await this.secrets.get(secretKeyFor(provider, origin));
		return key === undefined || key === '' ? undefined : key;
	}

	async store(provider: KeyedProvider, origin: string, key: string): Promise<void> {
		await this.migrate();
		await this.secrets.store(secretKeyFor(provider, origin), key);
	}

	async delete(provider: KeyedProvider, origin: string): Promise<void> {
		await this.migrate();
		await this.secrets.delete(secretKeyFor(provider, origin));
	}

	/**
	 * Keys stored under the old per-provider names move, once, to the provider's *default* origin
	 * only: the URL configured when they were stored may have come from a workspace, and a key must
	 * never follow a workspace's URL. An existing per-origin key wins over the old one.
	 */
	migrate(): Promise<void> {
		this.migrated ??= this.migrateLegacyKeys();
		return this.migrated;
	}

	private async migrateLegacyKeys(): Promise<void> {
		for (const provider of API_KEY_PROVIDERS) {
			const label = KEYED_PROVIDER_LABELS[provider];
			try {
				const legacy = legacySecretKeyFor(provider);
				const key = await this.secrets.get(legacy);
				if (key === undefined) {
					continue;
				}
				const origin = originOf(DEFAULT_BASE_URLS[provider]);
				const target = secretKeyFor(provider, origin);
				if (key !== '' && (await this.secrets.get(target)) === undefined) {
					await this.secrets.store(target, key);
					this.log.info(`Aside now stores API keys per server: the ${label} API key stored earlier is kept for ${origin} only. For another server, store its key with "Aside: Set API Key".`);
				} else {
					this.log.info(`Aside now stores API keys per server: dropped the ${label} API key stored earlier under the old name, since ${origin} has its own.`);
				}
				await this.secrets.delete(legacy);
			} catch (error) {
				// The old key stays where it was (and is sent nowhere); the next window tries again.
				this.log.warn(`Aside could not move the ${label} API key stored earlier: ${errorMessage(error)}`);
			}
		}
	}
}
