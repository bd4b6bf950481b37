// The webview's one line to the extension host.
import type { ViewMessage } from '../src/protocol/messages';

interface VsCodeApi {
	postMessage(message: unknown): void;
	getState(): unknown;
	setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/**
 * Only what the webview itself must remember across reloads: each chat's unsent draft, and which
 * chat was shown last (its draft is in the box again before the host's snapshot arrives). `draft`:
 * a draft not yet claimed by a chat (one kept by an earlier version, which had one for all chats).
 */
export interface PersistedState {
	readonly drafts: Readonly<Record<string, string>>;
	readonly shown?: string;
	readonly draft?: string;
}

const api = acquireVsCodeApi();

export function post(message: ViewMessage): void {
	api.postMessage(message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function loadPersisted(): { readonly drafts: Readonly<Record<string, string>>; readonly shown: string | undefined; readonly draft: string } {
	const state = api.getState();
	if (!isRecord(state)) {
		return { drafts: {}, shown: undefined, draft: '' };
	}
	const drafts = isRecord(state.drafts) ? Object.fromEntries(Object.entries(state.drafts).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};
	return {
		drafts,
		shown: typeof state.shown === 'string' ? state.shown : undefined,
		draft: typeof state.draft === 'string' ? state.draft : '',
	};
}

export function savePersisted(state: PersistedState): void {
	api.setState(state);
}
