// The module that connects through the MCP TypeScript SDK (the 2.x client line, docs/mcp.md says why):
// it makes Aside's McpSession (session.ts) from the SDK's Client and transports. It negotiates the
// newest protocol revision (`server/discover`) and falls back to the 2025 `initialize` handshake
// for older servers; a stdio server gets the environment Aside computed whole (launch.ts), its
// stderr as it comes, and a message naming the PATH searched when its command is not found.
import { Client, SdkErrorCode, SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { errorMessage } from '../base/errors';
import { notFoundMessage } from './launch';
import type { ConnectOptions, Launch, McpConnector } from './session';
import { SdkSession } from './sdkSession';
import { SdkOAuthProvider, signInError } from './sdkAuth';
import { clientCapabilities, installRequestHandlers } from './sdkClientRequests';
import { InFlightCallers } from './serverRequests';

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
	// The server's sign-in (oauth.ts): its tokens go with each request, a 401 asks for a sign-in.
	const requestInit = { headers: { ...launch.headers } };
	const http = { requestInit, ...(options.oauth ? { authProvider: new SdkOAuthProvider(options.oauth) } : {}) };
	// The older HTTP+SSE transport, for the servers still on it (`"type": "sse"`).
	// eslint-disable-next-line @typescript-eslint/no-deprecated
	return launch.transport === 'sse' ? new SSEClientTransport(new URL(launch.url), http) : new StreamableHTTPClientTransport(new URL(launch.url), http);
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
			capabilities: clientCapabilities(options.requests),
			versionNegotiation: { mode: 'auto', ...(launch.transport === 'stdio' ? { probe: { timeoutMs: Math.min(STDIO_PROBE_MS, options.timeoutMs) } } : {}) },
		});
		// The server's sampling and elicitation requests, told which chats' tool calls run on it now.
		const callers = new InFlightCallers();
		if (options.requests) {
			installRequestHandlers(client, options.requests, callers);
		}
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
			const signIn = signInError(error, 'The server');
			if (signIn) {
				throw signIn;
			}
			throw new Error(startFailure(launch, error, options.timeoutMs, transportError, stderrTail.trim()), { cause: error });
		}
		return new SdkSession(client, transport, callers);
	},
};
