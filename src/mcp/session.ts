// Aside's own view of an MCP connection: what the rest of Aside asks of a server, in Aside's types.
// The SDK's modules (src/mcp/sdk*.ts; nothing else imports the SDK) implement it, so choosing or
// upgrading the SDK changes those modules alone; tests drive the same interface against real servers.
import type { Event } from '../base/event';
import type { ServerOAuth } from './oauth';
import type { HttpServer } from './serverConfig';
import type { ServerRequestHandlers } from './serverRequests';

/** What the server said of a tool (its `tools/list` entry), as Aside keeps it. */
export interface McpToolInfo {
	readonly name: string;
	readonly title?: string;
	readonly description: string;
	/** JSON Schema of its arguments, as the server gave it. */
	readonly inputSchema: Readonly<Record<string, unknown>>;
	/** Hints the spec calls untrusted unless the person trusts the server (`trustAnnotations`). */
	readonly annotations: ToolAnnotations;
}

export interface ToolAnnotations {
	readonly title?: string;
	readonly readOnlyHint?: boolean;
	readonly destructiveHint?: boolean;
	readonly idempotentHint?: boolean;
	readonly openWorldHint?: boolean;
}

/** One block of a tool's result or a resource's contents. */
export type McpContent =
	| { readonly type: 'text'; readonly text: string }
	| { readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string }
	| { readonly type: 'resource'; readonly uri: string; readonly mimeType?: string; readonly text?: string; readonly blob?: string }
	| { readonly type: 'resource_link'; readonly uri: string; readonly name: string; readonly description?: string; readonly mimeType?: string };

/** A resource a server lists. */
export interface McpResourceInfo {
	readonly uri: string;
	readonly name: string;
	readonly description?: string;
	readonly mimeType?: string;
}

export interface McpCallResult {
	readonly content: readonly McpContent[];
	readonly structuredContent?: unknown;
	readonly isError: boolean;
}

export interface McpProgress {
	readonly progress: number;
	readonly total?: number;
	readonly message?: string;
}

export interface CallOptions {
	readonly signal: AbortSignal;
	/** Without progress for this long, the call fails; each progress notification starts it again. */
	readonly timeoutMs: number;
	readonly onProgress?: (progress: McpProgress) => void;
	/** The chat (its id) that makes the call: a sampling or elicitation request during it is shown there. */
	readonly caller?: string | undefined;
}

/** Who the server says it is, and what it offers. */
export interface McpServerFacts {
	readonly name: string;
	readonly version: string;
	readonly title?: string;
	/** Its `instructions` from the initialisation, if any. */
	readonly instructions?: string;
	readonly offers: {
		readonly tools: boolean;
		readonly resources: boolean;
		readonly subscribe: boolean;
		readonly prompts: boolean;
		/** It answers `completion/complete` (argument completion of its prompts). */
		readonly completions: boolean;
	};
}

/** One argument a prompt declares. */
export interface McpPromptArgument {
	readonly name: string;
	readonly description?: string;
	readonly required: boolean;
}

/** A prompt a server lists (`prompts/list`). */
export interface McpPromptInfo {
	readonly name: string;
	readonly title?: string;
	readonly description?: string;
	readonly arguments: readonly McpPromptArgument[];
}

/** A prompt filled in (`prompts/get`): its messages, in order. */
export interface McpPromptResult {
	readonly description?: string;
	readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: McpContent }[];
}

/** A server's values for an argument being typed (`completion/complete`). */
export interface McpCompletion {
	readonly values: readonly string[];
	/** More values exist than the server sent. */
	readonly hasMore: boolean;
}

/** What a request other than a tool call waits for. */
export interface RequestOptions {
	readonly signal: AbortSignal;
	readonly timeoutMs: number;
}

/** The server no longer knows the connection's session (an HTTP server that restarted): it must be initialised again. */
export class SessionGone extends Error {}

/** The server answers only once the person signed in (OAuth): its tokens are missing, expired past refresh, or short of a scope. */
export class NeedsSignIn extends Error {}

/** One live connection to one server. */
export interface McpSession {
	readonly facts: McpServerFacts;
	/** The server's process, for a stdio server while it runs. */
	readonly pid: number | undefined;
	listTools(signal: AbortSignal): Promise<McpToolInfo[]>;
	callTool(name: string, args: Readonly<Record<string, unknown>>, options: CallOptions): Promise<McpCallResult>;
	listResources(signal: AbortSignal): Promise<McpResourceInfo[]>;
	/** A resource's contents, each as a `resource` block. */
	readResource(uri: string, signal: AbortSignal): Promise<McpContent[]>;
	/** Asks for `notifications/resources/updated` of `uri`; false when the server offers no subscriptions. */
	subscribe(uri: string): Promise<boolean>;
	/** Every page of `prompts/list`; none when the server offers no prompts. */
	listPrompts(signal: AbortSignal): Promise<McpPromptInfo[]>;
	/** `prompts/get`: the prompt filled in with `args`. */
	getPrompt(name: string, args: Readonly<Record<string, string>>, options: RequestOptions): Promise<McpPromptResult>;
	/**
	 * `completion/complete` for an argument of the prompt `prompt` being typed (`value` so far), `context`: the
	 * arguments given already; no values when the server offers no completions.
	 */
	completePromptArgument(
		prompt: string,
		argument: { readonly name: string; readonly value: string },
		context: Readonly<Record<string, string>>,
		options: RequestOptions,
	): Promise<McpCompletion>;
	/** `tools/list_changed`: the list should be asked again. */
	readonly onDidChangeTools: Event<void>;
	/** `prompts/list_changed`: the prompts should be listed again. */
	readonly onDidChangePrompts: Event<void>;
	/** `notifications/resources/updated`: the resource of this URI changed. */
	readonly onDidUpdateResource: Event<string>;
	/** The connection ended (the process exited, the session is gone); `error` says why when known. */
	readonly onDidClose: Event<{ readonly error?: string }>;
	close(): Promise<void>;
}

/** A stdio server, launched: everything resolved, the environment whole. */
export interface StdioLaunch {
	readonly transport: 'stdio';
	readonly command: string;
	readonly args: readonly string[];
	readonly cwd?: string;
	readonly env: Readonly<Record<string, string>>;
}

/** An HTTP server, reached: its URL and headers with their variables resolved. */
export type HttpLaunch = Pick<HttpServer, 'transport' | 'url' | 'headers' | 'oauth'>;

export type Launch = StdioLaunch | HttpLaunch;

export interface ConnectOptions {
	readonly signal: AbortSignal;
	/** The initialisation must finish within this. */
	readonly timeoutMs: number;
	/** An HTTP server's sign-in (oauth.ts): its tokens are sent, and a 401 asks for a sign-in. */
	readonly oauth?: ServerOAuth | undefined;
	/** A stdio server's stderr, as it comes. */
	readonly stderr?: (text: string) => void;
	/** The server's log messages (`notifications/message`), for the output channel. */
	readonly log?: (text: string) => void;
	/** Who answers the server's sampling and elicitation requests; without it the client declares neither. */
	readonly requests?: ServerRequestHandlers | undefined;
}

export interface McpConnector {
	/** Starts (stdio) or reaches (HTTP) the server and initialises; rejects with a message for the person. */
	connect(launch: Launch, options: ConnectOptions): Promise<McpSession>;
}
