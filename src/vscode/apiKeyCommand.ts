// Aside: Set API Key — which provider, which origin (scheme, host and port) the key is for, then
// the key, stored for exactly that origin. The prompt names the origin, so the person sees where
// the key will go before typing it.
import * as vscode from 'vscode';
import type { ProviderId } from '../providers/provider';
import { API_KEY_PROVIDERS, type ApiKeys, DEFAULT_BASE_URLS, effectiveBaseUrl, isLoopback, type KeyedProvider, KEYED_PROVIDER_LABELS, originOf } from './apiKeys';
import { pickUrl, type UrlItem } from './urlPick';

export interface KeyTarget {
	readonly provider: KeyedProvider;
	readonly origin: string;
}

export interface ApiKeyContext {
	readonly keys: ApiKeys;
	/** The provider and base URL settings in effect now. */
	readonly current: () => { readonly provider: ProviderId; readonly baseUrl: string };
}

function originItems(provider: KeyedProvider, context: ApiKeyContext): UrlItem[] {
	const current = context.current();
	const items: UrlItem[] = [];
	const configured = current.provider === provider ? effectiveBaseUrl(provider, current.baseUrl) : undefined;
	if (configured !== undefined) {
		items.push({ label: originOf(configured), description: 'where Aside sends requests now', url: configured });
	}
	const fallback = DEFAULT_BASE_URLS[provider];
	if (configured === undefined || originOf(configured) !== originOf(fallback)) {
		items.push({ label: originOf(fallback), description: `the ${KEYED_PROVIDER_LABELS[provider]} default`, url: fallback });
	}
	return items;
}

/**
 * What an empty answer means: `set` removes the stored key (the command), `required` is refused
 * (a provider that cannot run without one), `optional` stores nothing (a server that may need none).
 */
export type KeyQuestion = 'set' | 'required' | 'optional';

const EMPTY_MEANS: Readonly<Record<KeyQuestion, string>> = {
	set: 'Leave empty to remove the key stored for it.',
	required: 'Esc cancels.',
	optional: 'Leave empty if the server needs no key.',
};

/** Asks for the key for `target` and stores (or, in `set`, removes) it. False when cancelled. */
export async function askForKey(target: KeyTarget, keys: ApiKeys, question: KeyQuestion = 'set'): Promise<boolean> {
	const label = KEYED_PROVIDER_LABELS[target.provider];
	const plain = target.origin.startsWith('http:') && !isLoopback(target.origin) ? ' It travels unencrypted (http).' : '';
	const key = await vscode.window.showInputBox({
		title: `${label} API key for ${target.origin}`,
		prompt: `Stored in VS Code's secret storage, never in settings or transcripts, and sent only to ${target.origin}.${plain} ${EMPTY_MEANS[question]}`,
		password: true,
		ignoreFocusOut: true,
		validateInput: (value) => (question === 'required' && value.trim() === '' ? `${label} needs an API key to answer.` : undefined),
	});
	if (key === undefined) {
		return false;
	}
	if (key.trim() === '') {
		if (question === 'set') {
			await keys.delete(target.provider, target.origin);
			void vscode.window.showInformationMessage(`Aside: the ${label} API key for ${target.origin} was removed.`);
		}
		return question !== 'required';
	}
	await keys.store(target.provider, target.origin, key.trim());
	void vscode.window.showInformationMessage(`Aside: the ${label} API key for ${target.origin} was saved.`);
	return true;
}

/** The command; `target` skips the questions the caller already answered (the empty state's button). */
export async function setApiKey(context: ApiKeyContext, target?: KeyTarget): Promise<void> {
	if (target) {
		await askForKey(target, context.keys);
		return;
	}
	const current = context.current().provider;
	const providers = [...API_KEY_PROVIDERS].sort((a, b) => Number(b === current) - Number(a === current));
	const picked = await vscode.window.showQuickPick(
		providers.map((provider) => ({ label: KEYED_PROVIDER_LABELS[provider], description: provider === current ? 'the provider in use' : undefined, provider })),
		{ title: 'Aside: Set API Key', placeHolder: 'Which provider is the key for?', ignoreFocusOut: true },
	);
	if (!picked) {
		return;
	}
	const url = await pickUrl({
		title: `Aside: Set API Key — the ${picked.label} server`,
		placeholder: 'The key is sent only to this origin (scheme, host and port). Or type another URL.',
		items: originItems(picked.provider, context),
	});
	if (url === undefined) {
		return;
	}
	await askForKey({ provider: picked.provider, origin: originOf(url) }, context.keys);
}
