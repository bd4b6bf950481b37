// The window's router of its MCP servers' sampling and elicitation requests (docs/mcp.md, "When a
// server asks"), wired to VS Code: the chat in view, the chats of the window, `aside.mcp.sampling`,
// the chat's provider and model, and the browser a URL opens in (only when the person clicks Open).
import * as vscode from 'vscode';
import type { ModelSource } from '../../agent/ports';
import type { Logger } from '../../base/log';
import { sampleModel } from '../../mcp/sampleModel';
import { McpRequestRouter } from '../../mcp/serverRequestRouter';
import type { AsideSettings } from '../settings';

/** What the router needs of the window's chats. */
export interface RequestChats {
	readonly models: Pick<ModelSource, 'resolve' | 'providerId' | 'configuredModel'>;
	readonly sessions: { readonly current: { readonly id: string }; list(): readonly { readonly id: string }[] };
}

export function mcpRequestRouter(chats: RequestChats, settings: { readonly current: AsideSettings }, log: Logger): McpRequestRouter {
	return new McpRequestRouter({
		chatInView: () => chats.sessions.current.id,
		hasChat: (id) => chats.sessions.list().some((summary) => summary.id === id),
		samplingMode: () => settings.current.mcpSampling,
		sample: (request, signal) => sampleModel((abort) => chats.models.resolve(abort), request, signal),
		modelWords: () => `${chats.models.providerId}${chats.models.configuredModel === '' ? '' : ` ${chats.models.configuredModel}`}`,
		openExternal: (url) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true))),
		log,
	});
}
