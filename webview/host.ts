// The webview's one line to the extension host.
import type { ViewMessage } from '../src/protocol/messages';

interface VsCodeApi {
	postMessage(message: unknown): void;
	getState(): unknown;
	setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Only what the webview itself must remember across reloads: the unsent draft. */
export interface PersistedState {
	readonly draft: string;
}

const api = acquireVsCodeApi();

export function post(message: ViewMessage): void {
	api.postMessage(message);
}

export function loadPersisted(): PersistedState {
	const state = api.getState();
	if (typeof state === 'object' && state !== null && 'draft' in state && typeof state.draft === 'string') {
		return { draft: state.draft };
	}
	return { draft: '' };
}

export function savePersisted(state: PersistedState): void {
	api.setState(state);
}
