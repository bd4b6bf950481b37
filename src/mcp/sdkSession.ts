// Aside's McpSession over the SDK's Client (the connector, sdkConnector.ts, makes it once the
// client is initialised): requests in Aside's types, the server's notifications as events, and an
// HTTP session the server forgot as SessionGone.
import { type Client, SdkHttpError, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Emitter } from '../base/event';
import { errorMessage } from '../base/errors';
import {
	type CallOptions,
	type McpCallResult,
	type McpCompletion,
	type McpContent,
	type McpPromptInfo,
	type McpPromptResult,
	type McpResourceInfo,
	type McpServerFacts,
	type McpSession,
	type McpToolInfo,
	type RequestOptions,
	SessionGone,
} from './session';
import { contentOf, promptOf, promptResultOf } from './wireContent';
import { InFlightCallers } from './serverRequests';

export class SdkSession implements McpSession {
	private readonly _onDidChangeTools = new Emitter<void>();
	readonly onDidChangeTools = this._onDidChangeTools.event;
	private readonly _onDidUpdateResource = new Emitter<string>();
	readonly onDidUpdateResource = this._onDidUpdateResource.event;
	private readonly _onDidChangePrompts = new Emitter<void>();
	readonly onDidChangePrompts = this._onDidChangePrompts.event;
	private readonly _onDidClose = new Emitter<{ readonly error?: string }>();
	readonly onDidClose = this._onDidClose.event;
	private lastError: string | undefined;
	private closing = false;
	readonly facts: McpServerFacts;

	constructor(
		private readonly client: Client,
		private readonly transport: Transport,
		/** The chats whose tool calls run on this connection now (the server's requests name them). */
		private readonly callers = new InFlightCallers(),
	) {
		const version = client.getServerVersion();
		const offers = client.getServerCapabilities() ?? {};
		const instructions = client.getInstructions();
		this.facts = {
			name: version?.name ?? 'unknown',
			version: version?.version ?? '',
			...(version?.title === undefined ? {} : { title: version.title }),
			...(instructions === undefined || instructions.trim() === '' ? {} : { instructions }),
			offers: {
				tools: offers.tools !== undefined,
				resources: offers.resources !== undefined,
				subscribe: offers.resources?.subscribe === true,
				prompts: offers.prompts !== undefined,
				completions: offers.completions !== undefined,
			},
		};
		client.onerror = (error) => {
			this.lastError = errorMessage(error);
		};
		client.onclose = () => {
			this._onDidClose.fire(this.closing || this.lastError === undefined ? {} : { error: this.lastError });
			this._onDidClose.dispose();
			this._onDidChangeTools.dispose();
			this._onDidUpdateResource.dispose();
			this._onDidChangePrompts.dispose();
		};
		client.setNotificationHandler('notifications/tools/list_changed', () => {
			this._onDidChangeTools.fire();
		});
		client.setNotificationHandler('notifications/resources/updated', (notification) => {
			this._onDidUpdateResource.fire(notification.params.uri);
		});
		client.setNotificationHandler('notifications/prompts/list_changed', () => {
			this._onDidChangePrompts.fire();
		});
	}

	get pid(): number | undefined {
		return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
	}

	async listTools(signal: AbortSignal): Promise<McpToolInfo[]> {
		if (!this.facts.offers.tools) {
			return [];
		}
		const { tools } = await this.client.listTools(undefined, { signal, cacheMode: 'bypass' });
		return tools.map((tool) => ({
			name: tool.name,
			...(tool.title === undefined ? {} : { title: tool.title }),
			description: tool.description ?? '',
			inputSchema: tool.inputSchema,
			annotations: { ...(tool.annotations ?? {}) },
		}));
	}

	async callTool(name: string, args: Readonly<Record<string, unknown>>, options: CallOptions): Promise<McpCallResult> {
		const ended = this.callers.begin(options.caller);
		const result = await this.sessionKept(() => this.client.callTool(
			{ name, arguments: { ...args } },
			{
				signal: options.signal,
				timeout: options.timeoutMs,
				resetTimeoutOnProgress: true,
				onprogress: (progress) => {
					options.onProgress?.({
						progress: progress.progress,
						...(progress.total === undefined ? {} : { total: progress.total }),
						...(progress.message === undefined ? {} : { message: progress.message }),
					});
				},
			},
		)).finally(ended);
		const blocks = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
		return {
			content: blocks.map(contentOf),
			...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
			isError: result.isError === true,
		};
	}

	async listResources(signal: AbortSignal): Promise<McpResourceInfo[]> {
		if (!this.facts.offers.resources) {
			return [];
		}
		const { resources } = await this.sessionKept(() => this.client.listResources(undefined, { signal, cacheMode: 'bypass' }));
		return resources.map((resource) => ({
			uri: resource.uri,
			name: resource.title ?? resource.name,
			...(resource.description === undefined ? {} : { description: resource.description }),
			...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
		}));
	}

	async readResource(uri: string, signal: AbortSignal): Promise<McpContent[]> {
		const { contents } = await this.sessionKept(() => this.client.readResource({ uri }, { signal, cacheMode: 'bypass' }));
		return contents.map((content) => contentOf({ type: 'resource', resource: content }));
	}

	async subscribe(uri: string): Promise<boolean> {
		if (!this.facts.offers.subscribe) {
			return false;
		}
		await this.sessionKept(() => this.client.subscribeResource({ uri }));
		return true;
	}

	async listPrompts(signal: AbortSignal): Promise<McpPromptInfo[]> {
		if (!this.facts.offers.prompts) {
			return [];
		}
		// Without a cursor the SDK walks every page (64 at most) and returns them together.
		const { prompts } = await this.sessionKept(() => this.client.listPrompts(undefined, { signal, cacheMode: 'bypass' }));
		return prompts.map((prompt) => promptOf(prompt));
	}

	async getPrompt(name: string, args: Readonly<Record<string, string>>, options: RequestOptions): Promise<McpPromptResult> {
		const request = { signal: options.signal, timeout: options.timeoutMs };
		const result = await this.sessionKept(() => this.client.getPrompt({ name, arguments: { ...args } }, request));
		return promptResultOf(result);
	}

	async completePromptArgument(
		prompt: string,
		argument: { readonly name: string; readonly value: string },
		context: Readonly<Record<string, string>>,
		options: RequestOptions,
	): Promise<McpCompletion> {
		if (!this.facts.offers.completions) {
			return { values: [], hasMore: false };
		}
		const given = Object.keys(context).length > 0 ? { context: { arguments: { ...context } } } : {};
		const { completion } = await this.sessionKept(() => this.client.complete(
			{ ref: { type: 'ref/prompt', name: prompt }, argument: { ...argument }, ...given },
			{ signal: options.signal, timeout: options.timeoutMs },
		));
		return { values: completion.values, hasMore: completion.hasMore === true || (completion.total ?? 0) > completion.values.length };
	}

	/**
	 * A Streamable HTTP request the server refused because it no longer knows the session (404, as
	 * the spec says; 400 naming the session, as some servers answer) is SessionGone.
	 */
	private async sessionKept<T>(request: () => Promise<T>): Promise<T> {
		try {
			return await request();
		} catch (error) {
			const status = error instanceof SdkHttpError ? (error.data as { status?: number } | undefined)?.status : undefined;
			const gone = this.transport instanceof StreamableHTTPClientTransport && (status === 404 || (status === 400 && /session/i.test(errorMessage(error))));
			throw gone ? new SessionGone(`the server no longer knows this session (HTTP ${status})`, { cause: error }) : error;
		}
	}

	async close(): Promise<void> {
		this.closing = true;
		await this.client.close();
	}
}
