// The MCP conformance suite's client under test (@modelcontextprotocol/conformance, run by
// test/conformance/run.mjs): Aside's own MCP stack — the window's servers over the SDK connector,
// their tools as Aside's tools — pointed at the scenario's server, whose URL is the last argument.
// It connects, lists the tools and calls each with arguments made from its schema, as the agent
// would; the scenario's server checks what it received.
import { launchOf } from '../../src/mcp/launch';
import { readUserServers } from '../../src/mcp/serverConfig';
import { sdkConnector } from '../../src/mcp/sdkConnector';
import { McpServers } from '../../src/mcp/servers';
import { Emitter } from '../../src/base/event';
import type { ToolContext } from '../../src/tools/tool';
import { OAuthRegistry } from '../../src/mcp/oauth';
import { McpSignIn, OAuthCallbacks } from '../../src/mcp/oauthSignIn';
import { exchangeSdkCode } from '../../src/mcp/sdkAuth';
import { MemorySecrets } from '../../src/testing/memorySecrets';
import { McpRequestRouter } from '../../src/mcp/serverRequestRouter';
import { initialEntries } from '../../src/vocabulary/elicitationForm';

/**
 * The person, headless: follows the authorization URL (the suite's authorization server redirects
 * straight back with a code) and hands the redirect to the sign-in, as VS Code's URI handler does.
 */
function headlessBrowser(callbacks: OAuthCallbacks): (url: string) => Promise<boolean> {
	return async (url) => {
		const response = await fetch(url, { redirect: 'manual' });
		const location = response.headers.get('location');
		return location !== null && callbacks.deliver(new URL(location, url).search);
	};
}

/** A value of the schema's type, for a required argument. */
function sample(schema: unknown): unknown {
	const type = (schema as { type?: unknown } | undefined)?.type;
	switch (type) {
		case 'number':
		case 'integer':
			return 1;
		case 'boolean':
			return true;
		case 'array':
			return [];
		case 'object':
			return {};
		default:
			return 'conformance';
	}
}

async function main(): Promise<void> {
	const url = process.argv.at(-1) ?? '';
	// A scenario's pre-registered client (auth/pre-registration), as a person writes it in the server's `oauth`.
	const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: string; client_secret?: string };
	const oauth = context.client_id === undefined ? {} : { oauth: { clientId: context.client_id, clientSecret: context.client_secret } };
	// As the extension builds it (src/vscode/mcp/mcpOAuth.ts): no client ID metadata document, since Aside hosts none.
	const registry = new OAuthRegistry({ secrets: new MemorySecrets(), redirectUrl: () => 'vscode://aside-dev.aside/mcp-oauth-callback' });
	// The person, headless, at the server's requests: a form is submitted as it opens (its defaults), nothing else is allowed.
	const requests = new McpRequestRouter({
		chatInView: () => 'conformance',
		hasChat: () => true,
		samplingMode: () => 'off',
		sample: () => Promise.reject(new Error('no model here')),
		openExternal: () => Promise.resolve(false),
		log: { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
	});
	requests.attachView();
	requests.onDidChange(() => {
		for (const { view } of requests.all()) {
			requests.answer(view.id, view.kind === 'form' ? 'accept' : 'decline', view.kind === 'form' ? initialEntries(view.fields) : undefined);
		}
	});
	const servers = new McpServers({
		requests: (server) => requests.handlers(server),
		source: { read: () => readUserServers({ conformance: { type: 'http', url, ...oauth } }), onDidChange: new Emitter<void>().event },
		oauth: (server) => registry.forServer(server),
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: process.env, readFile: () => Promise.reject(new Error('no env files here')) }),
		approve: () => Promise.resolve(true),
		startupTimeoutMs: () => 10_000,
		requestTimeoutMs: () => 10_000,
	});
	const callbacks = new OAuthCallbacks();
	const signIns = new McpSignIn(servers, { callbacks, openBrowser: headlessBrowser(callbacks), exchange: exchangeSdkCode, timeoutMs: 10_000 });
	const signal = new AbortController().signal;
	// The person's Sign in, each time the server asks for one (never more than they would bother to).
	const signInWhenAsked = async (): Promise<void> => {
		for (let tries = 0; tries < 3 && signIns.needsSignIn('conformance'); tries++) {
			await signIns.signIn('conformance', signal);
		}
	};
	try {
		await servers.ready(signal);
		await signInWhenAsked();
		const [entry] = servers.entries();
		if (entry?.state.kind !== 'connected') {
			throw new Error(`not connected: ${JSON.stringify(entry?.state)}`);
		}
		for (const tool of servers.tools()) {
			const schema = (tool.inputSchema ?? {}) as { properties?: Record<string, unknown>; required?: string[] };
			const args = Object.fromEntries((schema.required ?? []).map((name) => [name, sample(schema.properties?.[name])]));
			const run = () => (servers.tools().find((candidate) => candidate.name === tool.name) ?? tool).run(args, { signal } as unknown as ToolContext);
			// A call that needs more access (step-up) fails asking for a sign-in: the person signs in again, and the call is made again.
			const result = await run().catch(async (error: unknown) => {
				if (!signIns.needsSignIn('conformance')) {
					throw error;
				}
				await signInWhenAsked();
				return run();
			});
			process.stdout.write(`${tool.name}: ${result.content}\n`);
		}
	} finally {
		servers.dispose();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
		process.exit(1);
	},
);
