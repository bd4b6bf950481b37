// The one module that speaks the MCP TypeScript SDK (the 2.x client line, docs/mcp.md says why):
// it makes Aside's McpSession (session.ts) from the SDK's Client and transports. It negotiates the
// newest protocol revision (`server/discover`) and falls back to the 2025 `initialize` handshake
// for older servers; a stdio server gets the environment Aside computed whole (launch.ts), its
// stderr as it comes, and a message naming the PATH searched when its command is not found.
import { Client, SdkErrorCode, SdkHttpError, SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Emitter } from '../base/event';
import { errorMessage } from '../base/errors';
import { notFoundMessage } from './launch';
import {
	type CallOptions,
	type ConnectOptions,
	type Launch,
	type McpCallResult,
	type McpCompletion,
	type McpConnector,
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

export const CLIENT_INFO = { name: 'aside', title: 'Aside', version: '0.5.0' } as const;

/** The largest message a stdio server may send (a tool result); the SDK's default is 10 MB. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** How long the stdio probe for the newest revision may take before the server counts as an older one. */
const STDIO_PROBE_MS = 3000;

/**
 * The environment as the SDK will pass it: it always adds its few basic variables (PATH, HOME …)
 * from the extension host's, so one the configuration removed is passed empty instead.
 */
function sdkEnvironment(env: Readonly<Record<string, string>>): Record<string, string> {
	const removed = DEFAULT_INHERITED_ENV_VARS.filter((key) => !Object.hasOwn(env, key) && process.env[key] !== undefined);
	return { ...env, ...Object.fromEntries(removed.map((key) => [key, ''])) };
}

function transportFor(launch: Launch, options: ConnectOptions): Transport {
	if (launch.transport === 'stdio') {
		const stdio = new StdioClientTransport({
			command: launch.command,
			args: [...launch.args],
			env: sdkEnvironment(launch.env),
			stderr: 'pipe',
			maxBufferSize: MAX_MESSAGE_BYTES,
			...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
		});
		stdio.stderr?.on('data', (chunk: Buffer | string) => {
			options.stderr?.(chunk.toString());
		});
		return stdio;
	}
	const requestInit = { headers: { ...launch.headers } };
	// The older HTTP+SSE transport, for the servers still on it (`"type": "sse"`).
	// eslint-disable-next-line @typescript-eslint/no-deprecated
	return launch.transport === 'sse' ? new SSEClientTransport(new URL(launch.url), { requestInit }) : new StreamableHTTPClientTransport(new URL(launch.url), { requestInit });
}

class SdkSession implements McpSession {
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
		));
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

/** How much of a failed server's last stderr its message quotes. */
const STDERR_TAIL = 400;

function startFailure(launch: Launch, error: unknown, timeoutMs: number, transportError: string | undefined, stderr: string): string {
	if (launch.transport === 'stdio' && (error as { code?: unknown }).code === 'ENOENT') {
		return notFoundMessage(launch);
	}
	const timedOut = (error as { code?: unknown }).code === SdkErrorCode.RequestTimeout;
	const why = timedOut ? `it did not answer the initialisation within ${Math.round(timeoutMs / 100) / 10} s` : `it did not start (${errorMessage(error)})`;
	const said = [
		transportError === undefined || transportError === errorMessage(error) ? undefined : `the connection said: ${transportError}`,
		stderr === '' ? undefined : `its stderr ends: ${stderr.split(/\r?\n/).slice(-3).join(' | ')}`,
	].filter((part) => part !== undefined);
	return said.length === 0 ? `${why}.` : `${why}; ${said.join('; ')}.`;
}

export const sdkConnector: McpConnector = {
	async connect(launch, options) {
		const client = new Client(CLIENT_INFO, {
			capabilities: {},
			versionNegotiation: { mode: 'auto', ...(launch.transport === 'stdio' ? { probe: { timeoutMs: Math.min(STDIO_PROBE_MS, options.timeoutMs) } } : {}) },
		});
		client.setNotificationHandler('notifications/message', (notification) => {
			const { level, logger, data } = notification.params;
			options.log?.(`[${level}]${logger === undefined ? '' : ` ${logger}:`} ${typeof data === 'string' ? data : JSON.stringify(data)}`);
		});
		// What the server wrote last on stderr, and the last transport error (a line that is not
		// JSON-RPC), say why it did not start better than the SDK's "Connection closed".
		let stderrTail = '';
		let transportError: string | undefined;
		const transport = transportFor(launch, {
			...options,
			stderr: (text) => {
				stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
				options.stderr?.(text);
			},
		});
		client.onerror = (error) => {
			transportError = errorMessage(error);
		};
		try {
			await client.connect(transport, { timeout: options.timeoutMs, signal: options.signal });
		} catch (error) {
			await client.close().catch(() => undefined);
			throw new Error(startFailure(launch, error, options.timeoutMs, transportError, stderrTail.trim()), { cause: error });
		}
		return new SdkSession(client, transport);
	},
};
